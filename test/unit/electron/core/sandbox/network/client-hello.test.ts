/**
 * Reading the server name from a TLS ClientHello: on ClientHellos Node's own TLS client
 * sends, and on hand-built ones for the shapes a real client does not send.
 */
import { describe, expect, it } from 'vitest';
import { readClientHello } from '../../../../../../electron/core/sandbox/network/client-hello.js';
import { capturedClientHello, splitIntoTwoRecords } from './client-hellos.js';

const b = (...bytes: number[]) => Buffer.from(bytes);
const u16 = (n: number) => b(n >> 8, n & 0xff);
const vec16 = (data: Buffer) => Buffer.concat([u16(data.length), data]);

/** A server_name extension holding these (type, name) entries. */
function serverNames(...names: [number, string][]): Buffer {
  const list = Buffer.concat(names.map(([type, name]) => Buffer.concat([b(type), vec16(Buffer.from(name))])));
  return Buffer.concat([u16(0), vec16(vec16(list))]);
}

/** A minimal ClientHello record with these extensions (null: no extensions block at all), and `after` bytes after them. */
function hello(extensions: Buffer[] | null, after = Buffer.alloc(0)): Buffer {
  const body = Buffer.concat([
    b(3, 3),
    Buffer.alloc(32),
    b(0),
    vec16(b(0x13, 0x01)),
    b(1, 0),
    extensions === null ? Buffer.alloc(0) : vec16(Buffer.concat(extensions)),
    after,
  ]);
  const message = Buffer.concat([b(1, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff), body]);
  return Buffer.concat([b(22, 3, 1), u16(message.length), message]);
}

describe('readClientHello on what Node sends', () => {
  it('reads the server name a client asks for', async () => {
    const bytes = await capturedClientHello('registry.npmjs.org');
    expect(readClientHello(bytes)).toEqual({ kind: 'hello', serverName: 'registry.npmjs.org' });
  });

  it('reads no server name from a client connecting to an IP address', async () => {
    expect(readClientHello(await capturedClientHello())).toEqual({ kind: 'hello', serverName: null });
  });

  it('asks for more at every length short of the whole ClientHello', async () => {
    const bytes = await capturedClientHello('registry.npmjs.org');
    for (let n = 0; n < bytes.length; n++) {
      const read = readClientHello(bytes.subarray(0, n));
      expect(read.kind, `${n} bytes`).toBe('more');
      // What it says it needs is never more than the whole, nor less than it has.
      expect(read.kind === 'more' && read.atLeast).toBeGreaterThan(n);
      expect(read.kind === 'more' && read.atLeast).toBeLessThanOrEqual(bytes.length);
    }
  });

  it('puts a ClientHello split over two TLS records back together', async () => {
    const bytes = await capturedClientHello('files.pythonhosted.org');
    for (const at of [1, 3, 40, 100]) {
      expect(readClientHello(splitIntoTwoRecords(bytes, at)), `split at ${at}`).toEqual({
        kind: 'hello',
        serverName: 'files.pythonhosted.org',
      });
    }
  });

  it('reads the whole ClientHello when the application data follows it', async () => {
    const bytes = Buffer.concat([await capturedClientHello('pypi.org'), b(23, 3, 3, 0, 1, 0)]);
    expect(readClientHello(bytes)).toEqual({ kind: 'hello', serverName: 'pypi.org' });
  });
});

describe('readClientHello on hand-built bytes', () => {
  it('reads the host name among other name types and extensions', () => {
    const other = Buffer.concat([u16(10), vec16(b(0, 2, 0, 29))]);
    expect(readClientHello(hello([other, serverNames([7, 'x'], [0, 'pypi.org'])]))).toEqual({
      kind: 'hello',
      serverName: 'pypi.org',
    });
    expect(readClientHello(hello(null))).toEqual({ kind: 'hello', serverName: null });
    expect(readClientHello(hello([other]))).toEqual({ kind: 'hello', serverName: null });
  });

  it('says a stream that does not start with a handshake record is not TLS', () => {
    expect(readClientHello(Buffer.from('GET / HTTP/1.1\r\n'))).toEqual({ kind: 'not-tls' });
    expect(readClientHello(b(0x16))).toEqual({ kind: 'more', atLeast: 5 });
    expect(readClientHello(Buffer.alloc(0))).toEqual({ kind: 'more', atLeast: 1 });
  });

  it.each([
    [
      'two server_name extensions',
      hello([serverNames([0, 'a.example']), serverNames([0, 'b.example'])]),
      /two server_name/,
    ],
    ['two host names', hello([serverNames([0, 'a.example'], [0, 'b.example'])]), /names two hosts/],
    ['an extension longer than its block', hello([Buffer.concat([u16(0), u16(200), b(0, 1)])]), /cut short/],
    ['bytes after the extensions', hello([serverNames([0, 'a.example'])], b(1, 2)), /bytes after its extensions/],
    ['another handshake message first', Buffer.concat([b(22, 3, 1, 0, 4), b(2, 0, 0, 0)]), /not a ClientHello/],
    [
      'an alert record inside the ClientHello',
      Buffer.concat([b(22, 3, 1, 0, 4, 1, 0, 0, 9), b(21, 3, 3, 0, 2, 2, 40)]),
      /not TLS handshake/,
    ],
    ['an empty record', b(22, 3, 1, 0, 0), /impossible length/],
    ['a record over 2^14 bytes', b(22, 3, 1, 0x40, 0x01), /impossible length/],
    ['a ClientHello longer than the limit', b(22, 3, 1, 0, 4, 1, 0x01, 0x00, 0x00), /too long/],
  ])('refuses %s as bad', (_what, bytes, why) => {
    const read = readClientHello(bytes);
    expect(read.kind).toBe('bad');
    expect(read.kind === 'bad' && read.why).toMatch(why);
  });

  it('refuses a ClientHello cut into more records than a client uses, without reading them all', () => {
    const message = Buffer.concat([b(1, 0, 0, 40), Buffer.alloc(40)]);
    const records = [...message].map((byte) => b(22, 3, 1, 0, 1, byte));
    expect(readClientHello(Buffer.concat(records.slice(0, 15)))).toMatchObject({ kind: 'more' });
    expect(readClientHello(Buffer.concat(records))).toEqual({
      kind: 'bad',
      why: 'the ClientHello is split over more than 16 records',
    });
  });
});
