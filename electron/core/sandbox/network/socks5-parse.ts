/**
 * The two client messages of a SOCKS5 handshake (RFC 1928), parsed from whatever bytes
 * have arrived so far: the greeting (which auth methods the client offers) and the
 * request (CONNECT to a domain, an IPv4 or an IPv6 address). Pure, so malformed input can
 * be tested byte by byte: every outcome is "need more", a parsed message, or a refusal
 * with the reply code to send; nothing here throws.
 */
export const SOCKS_VERSION = 0x05;
export const NO_AUTH = 0x00;
export const NO_ACCEPTABLE_METHOD = 0xff;
export const CMD_CONNECT = 0x01;

/** Reply codes (RFC 1928 §6). */
export const REPLY = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowedByRuleset: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  ttlExpired: 0x06,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;

const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;

export type Parsed<T> =
  | { kind: 'more' }
  | { kind: 'ok'; value: T; consumed: number }
  /** `reply`: the code to answer with before closing, or null when the peer is not speaking SOCKS5 at all. */
  | { kind: 'bad'; reply: number | null; reason: string };

export function parseGreeting(buf: Buffer): Parsed<{ methods: number[] }> {
  if (buf.length < 1) return { kind: 'more' };
  if (buf[0] !== SOCKS_VERSION) return { kind: 'bad', reply: null, reason: `not SOCKS5 (version byte ${buf[0]})` };
  if (buf.length < 2) return { kind: 'more' };
  const count = buf[1] as number;
  if (count === 0) return { kind: 'bad', reply: null, reason: 'the greeting offers no auth method' };
  if (buf.length < 2 + count) return { kind: 'more' };
  return { kind: 'ok', value: { methods: [...buf.subarray(2, 2 + count)] }, consumed: 2 + count };
}

export interface SocksRequest {
  command: number;
  host: string;
  port: number;
}

export function parseRequest(buf: Buffer): Parsed<SocksRequest> {
  if (buf.length < 4) return { kind: 'more' };
  if (buf[0] !== SOCKS_VERSION) {
    return { kind: 'bad', reply: REPLY.generalFailure, reason: `not a SOCKS5 request (version byte ${buf[0]})` };
  }
  const address = parseAddress(buf, 3);
  if (address.kind !== 'ok') return address;
  const end = address.consumed + 2;
  if (buf.length < end) return { kind: 'more' };
  const request = { command: buf[1] as number, host: address.value, port: buf.readUInt16BE(address.consumed) };
  if (request.command !== CMD_CONNECT) {
    return {
      kind: 'bad',
      reply: REPLY.commandNotSupported,
      reason: `command ${request.command} is not supported (only CONNECT)`,
    };
  }
  return { kind: 'ok', value: request, consumed: end };
}

/** The address at `at` (its type byte first); `consumed` is where the port begins. */
function parseAddress(buf: Buffer, at: number): Parsed<string> {
  const type = buf[at];
  if (type === ATYP_IPV4) {
    if (buf.length < at + 5) return { kind: 'more' };
    return { kind: 'ok', value: [...buf.subarray(at + 1, at + 5)].join('.'), consumed: at + 5 };
  }
  if (type === ATYP_IPV6) {
    if (buf.length < at + 17) return { kind: 'more' };
    const groups: string[] = [];
    for (let i = 0; i < 8; i++) groups.push(buf.readUInt16BE(at + 1 + i * 2).toString(16));
    return { kind: 'ok', value: groups.join(':'), consumed: at + 17 };
  }
  if (type === ATYP_DOMAIN) {
    if (buf.length < at + 2) return { kind: 'more' };
    const length = buf[at + 1] as number;
    if (length === 0) return { kind: 'bad', reply: REPLY.generalFailure, reason: 'the domain is empty' };
    if (buf.length < at + 2 + length) return { kind: 'more' };
    // Host names are ASCII; anything else reaches the gate as it came and is refused there as
    // "not a valid host name". An IP address spelled as a domain is treated as the address.
    const host = buf.subarray(at + 2, at + 2 + length).toString('latin1');
    return { kind: 'ok', value: host, consumed: at + 2 + length };
  }
  return { kind: 'bad', reply: REPLY.addressTypeNotSupported, reason: `address type ${type} is not supported` };
}

/** A reply with an unspecified bound address (clients ignore it for CONNECT). */
export function reply(code: number): Buffer {
  return Buffer.from([SOCKS_VERSION, code, 0x00, ATYP_IPV4, 0, 0, 0, 0, 0, 0]);
}
