/**
 * The IPv4 address some IPv6 forms carry inside them. A connection to such an address
 * ends at that IPv4 address (through the host's own dual-stack socket, a NAT64 gateway, a
 * 6to4 or Teredo relay), so it is judged by the IPv4 address it carries: 64:ff9b::7f00:1
 * is 127.0.0.1. Which form an address has is a net.BlockList check; only pulling the four
 * bytes out is done by hand, since Node has no way to give an IPv6 address's bytes.
 */
import net from 'node:net';

export interface EmbeddedIPv4 {
  /** Words for the form, as in "a NAT64 form of 127.0.0.1". */
  form: string;
  address: string;
}

interface Form {
  name: string;
  prefix: [string, number];
  /** The byte offsets of the IPv4 address(es) inside the 16 bytes, and whether they are inverted. */
  at: readonly { offset: number; inverted: boolean }[];
}

const FORMS: readonly Form[] = [
  { name: 'an IPv4-mapped form', prefix: ['::ffff:0:0', 96], at: [{ offset: 12, inverted: false }] },
  // RFC 6052's well-known prefix: a NAT64 gateway dials the IPv4 address in the last 32 bits.
  { name: 'a NAT64 form', prefix: ['64:ff9b::', 96], at: [{ offset: 12, inverted: false }] },
  // RFC 3056: 2002:AABB:CCDD::/48 is the site behind the IPv4 address AA.BB.CC.DD.
  { name: 'a 6to4 form', prefix: ['2002::', 16], at: [{ offset: 2, inverted: false }] },
  // RFC 4380: the Teredo server's address in bits 32-63, the client's (bits inverted) in the last 32.
  {
    name: 'a Teredo form',
    prefix: ['2001::', 32],
    at: [
      { offset: 4, inverted: false },
      { offset: 12, inverted: true },
    ],
  },
];

const LISTS = FORMS.map((form) => {
  const list = new net.BlockList();
  list.addSubnet(form.prefix[0], form.prefix[1], 'ipv6');
  return { form, list };
});

/** The IPv4 addresses `ip` (an IPv6 address) carries, with the form that carries each; [] for none. */
export function embeddedIPv4(ip: string): EmbeddedIPv4[] {
  const found = LISTS.find(({ list }) => list.check(ip, 'ipv6'));
  if (!found) return [];
  const bytes = ipv6Bytes(ip);
  return found.form.at.map(({ offset, inverted }) => {
    const four = [...bytes.subarray(offset, offset + 4)].map((b) => (inverted ? b ^ 0xff : b));
    return { form: found.form.name, address: four.join('.') };
  });
}

/** The 16 bytes of a valid IPv6 address (net.isIPv6 says so first); a zone and a dotted IPv4 tail are allowed. */
export function ipv6Bytes(ip: string): Uint8Array {
  if (!net.isIPv6(ip)) throw new Error(`not an IPv6 address: ${ip}`);
  let text = ip.split('%')[0] as string;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  const bytes = new Uint8Array(16);
  [...before, ...zeros, ...after].forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  return bytes;
}
