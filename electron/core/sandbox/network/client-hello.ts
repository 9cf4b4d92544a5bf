/**
 * The server name (SNI) a TLS ClientHello asks for, read from the first bytes of a tunnel
 * (RFC 8446 §4.1.2 and §5.1, RFC 6066 §3). Only what that needs is read: the record
 * headers, the handshake header, and the fields before the extensions skipped by their
 * lengths. The ClientHello may span several records; it is put back together, up to
 * MAX_CLIENT_HELLO_BYTES in MAX_RECORDS records, and anything longer or malformed is
 * "bad", never guessed at. A partial read says how many bytes it needs before it is worth
 * reading again, so a client sending a byte at a time costs the proxy no more work.
 *
 * Hand-written rather than a library's: nothing in Node reads a ClientHello without
 * terminating the TLS (which the proxy must not: the command's TLS is end to end), and
 * the npm parsers read the whole message for other ends. This is about sixty lines,
 * bounded by the lengths it checks, with tests on ClientHellos Node itself sends.
 */

export type ClientHelloRead =
  /** Not all of it has arrived yet: nothing changes before `atLeast` bytes have. */
  | { kind: 'more'; atLeast: number }
  /** The first byte is not a TLS handshake record: the tunnel is not TLS. */
  | { kind: 'not-tls' }
  | { kind: 'bad'; why: string }
  /** A whole ClientHello; `serverName` is null when it names no server. */
  | { kind: 'hello'; serverName: string | null };

/** Enough for any ClientHello seen in use (post-quantum key shares make one about 1.8 KB). */
export const MAX_CLIENT_HELLO_BYTES = 32 * 1024;

const HANDSHAKE_RECORD = 22;
const CLIENT_HELLO = 1;
const SERVER_NAME_EXTENSION = 0;
const HOST_NAME = 0;
const RECORD_HEADER = 5;
/** RFC 8446 §5.1: a plaintext record's fragment is at most 2^14 bytes. */
const MAX_RECORD = 16384;
/** Clients send a ClientHello in one record, now and then two; many tiny ones are only a way to make the proxy work. */
const MAX_RECORDS = 16;

export function readClientHello(bytes: Buffer): ClientHelloRead {
  if (bytes.length === 0) return { kind: 'more', atLeast: 1 };
  if (bytes[0] !== HANDSHAKE_RECORD) return { kind: 'not-tls' };
  const fragments: Buffer[] = [];
  let have = 0;
  let end: number | null = null;
  let at = 0;
  for (;;) {
    if (end === null && have >= 4) {
      const header = Buffer.concat(fragments).subarray(0, 4);
      if (header[0] !== CLIENT_HELLO) return { kind: 'bad', why: 'the first handshake message is not a ClientHello' };
      end = 4 + header.readUIntBE(1, 3);
      if (end > MAX_CLIENT_HELLO_BYTES) return { kind: 'bad', why: 'the ClientHello is too long' };
    }
    if (end !== null && have >= end) return helloOf(Buffer.concat(fragments).subarray(4, end));
    if (fragments.length === MAX_RECORDS)
      return { kind: 'bad', why: `the ClientHello is split over more than ${MAX_RECORDS} records` };
    if (bytes.length < at + RECORD_HEADER) return { kind: 'more', atLeast: at + RECORD_HEADER };
    if (bytes[at] !== HANDSHAKE_RECORD || bytes[at + 1] !== 3) {
      return { kind: 'bad', why: 'a record that is not TLS handshake came before the ClientHello ended' };
    }
    const length = bytes.readUInt16BE(at + 3);
    if (length === 0 || length > MAX_RECORD) return { kind: 'bad', why: 'a TLS record has an impossible length' };
    if (bytes.length < at + RECORD_HEADER + length) return { kind: 'more', atLeast: at + RECORD_HEADER + length };
    fragments.push(bytes.subarray(at + RECORD_HEADER, at + RECORD_HEADER + length));
    have += length;
    at += RECORD_HEADER + length;
  }
}

/** The ClientHello's body (after its 4-byte header): its server name, or why it cannot be read. */
function helloOf(body: Buffer): ClientHelloRead {
  try {
    const hello = new Reader(body);
    hello.skip(2 + 32); // legacy_version, random
    hello.vector(1); // legacy_session_id
    hello.vector(2); // cipher_suites
    hello.vector(1); // legacy_compression_methods
    if (hello.done()) return { kind: 'hello', serverName: null };
    const extensions = new Reader(hello.vector(2));
    if (!hello.done()) return { kind: 'bad', why: 'the ClientHello has bytes after its extensions' };
    let serverName: string | null = null;
    let seen = false;
    while (!extensions.done()) {
      const type = extensions.u16();
      const data = extensions.vector(2);
      if (type !== SERVER_NAME_EXTENSION) continue;
      // Two server_name extensions, or two host names, could be read differently by the proxy and the server.
      if (seen) return { kind: 'bad', why: 'the ClientHello has two server_name extensions' };
      seen = true;
      serverName = hostNameOf(new Reader(new Reader(data).vector(2)));
    }
    return { kind: 'hello', serverName };
  } catch (err) {
    return { kind: 'bad', why: (err as Error).message };
  }
}

function hostNameOf(names: Reader): string | null {
  let found: string | null = null;
  while (!names.done()) {
    const type = names.u8();
    const name = names.vector(2);
    if (type !== HOST_NAME) continue;
    if (found !== null) throw new Error('the ClientHello names two hosts');
    found = name.toString('latin1');
  }
  return found;
}

/** Reads a buffer front to back; every read past its end throws. */
class Reader {
  private at = 0;

  constructor(private readonly bytes: Buffer) {}

  done(): boolean {
    return this.at === this.bytes.length;
  }

  skip(n: number): void {
    this.take(n);
  }

  u8(): number {
    return this.take(1).readUInt8(0);
  }

  u16(): number {
    return this.take(2).readUInt16BE(0);
  }

  /** A TLS vector: a length of `size` bytes, then that many bytes. */
  vector(size: 1 | 2): Buffer {
    return this.take(size === 1 ? this.u8() : this.u16());
  }

  private take(n: number): Buffer {
    if (this.at + n > this.bytes.length) throw new Error('the ClientHello is cut short inside');
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}
