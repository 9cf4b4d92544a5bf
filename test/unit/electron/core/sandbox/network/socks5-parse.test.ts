import { describe, expect, it } from 'vitest';
import {
  REPLY,
  parseGreeting,
  parseRequest,
  reply,
} from '../../../../../../electron/core/sandbox/network/socks5-parse.js';

const b = (...bytes: number[]) => Buffer.from(bytes);
const domainRequest = (name: string, port: number, command = 1) =>
  Buffer.concat([b(5, command, 0, 3, name.length), Buffer.from(name, 'latin1'), b(port >> 8, port & 0xff)]);

describe('parseGreeting', () => {
  it('reads the offered methods and how many bytes they took', () => {
    expect(parseGreeting(b(5, 2, 0, 2, 9))).toEqual({ kind: 'ok', value: { methods: [0, 2] }, consumed: 4 });
  });

  it('waits for the rest of a greeting that arrives in pieces', () => {
    expect(parseGreeting(b())).toEqual({ kind: 'more' });
    expect(parseGreeting(b(5))).toEqual({ kind: 'more' });
    expect(parseGreeting(b(5, 3, 0))).toEqual({ kind: 'more' });
  });

  it('refuses what is not SOCKS5, without a reply', () => {
    expect(parseGreeting(b(4, 1, 0))).toMatchObject({ kind: 'bad', reply: null, reason: /not SOCKS5/ });
    expect(parseGreeting(Buffer.from('GET / HTTP/1.1\r\n'))).toMatchObject({ kind: 'bad', reply: null });
    expect(parseGreeting(b(5, 0))).toMatchObject({ kind: 'bad', reply: null, reason: /no auth method/ });
  });
});

describe('parseRequest', () => {
  it('reads CONNECT to a domain, an IPv4 and an IPv6 address', () => {
    expect(parseRequest(domainRequest('registry.npmjs.org', 443))).toEqual({
      kind: 'ok',
      value: { command: 1, host: 'registry.npmjs.org', port: 443 },
      consumed: 4 + 1 + 18 + 2,
    });
    expect(parseRequest(b(5, 1, 0, 1, 93, 184, 215, 14, 0, 80))).toMatchObject({
      kind: 'ok',
      value: { host: '93.184.215.14', port: 80 },
      consumed: 10,
    });
    const v6 = b(5, 1, 0, 4, ...Array(15).fill(0), 1, 0x1f, 0x90);
    expect(parseRequest(v6)).toMatchObject({ kind: 'ok', value: { host: '0:0:0:0:0:0:0:1', port: 8080 } });
  });

  it('leaves the bytes after the request (the first bytes for the destination) unconsumed', () => {
    const request = domainRequest('a.example', 80);
    const parsed = parseRequest(Buffer.concat([request, Buffer.from('GET /')]));
    expect(parsed).toMatchObject({ kind: 'ok', consumed: request.length });
  });

  it('waits at every cut of a request', () => {
    const whole = domainRequest('registry.npmjs.org', 443);
    for (let cut = 0; cut < whole.length; cut++) {
      expect(parseRequest(whole.subarray(0, cut)), `cut at ${cut}`).toEqual({ kind: 'more' });
    }
  });

  it('refuses other commands, address types and versions with the matching reply code', () => {
    expect(parseRequest(domainRequest('a.example', 80, 2))).toMatchObject({
      kind: 'bad',
      reply: REPLY.commandNotSupported,
      reason: /only CONNECT/,
    });
    expect(parseRequest(domainRequest('a.example', 80, 3))).toMatchObject({ reply: REPLY.commandNotSupported });
    expect(parseRequest(b(5, 1, 0, 9, 1, 2, 3, 4, 0, 80))).toMatchObject({
      kind: 'bad',
      reply: REPLY.addressTypeNotSupported,
    });
    expect(parseRequest(b(4, 1, 0, 1, 1, 2, 3, 4, 0, 80))).toMatchObject({ kind: 'bad', reply: REPLY.generalFailure });
    expect(parseRequest(b(5, 1, 0, 3, 0, 0, 80))).toMatchObject({ kind: 'bad', reason: /domain is empty/ });
  });

  it('never throws on random bytes', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    for (let i = 0; i < 2000; i++) {
      const bytes = Buffer.from(Array.from({ length: random() % 40 }, random));
      if (i % 2 === 0 && bytes.length > 0) bytes[0] = 5;
      expect(() => [parseGreeting(bytes), parseRequest(bytes)]).not.toThrow();
    }
  });
});

describe('reply', () => {
  it('is a version 5 reply with the code and an unspecified bound address', () => {
    expect([...reply(REPLY.notAllowedByRuleset)]).toEqual([5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
  });
});
