import { describe, expect, it } from 'vitest';
import { embeddedIPv4, ipv6Bytes } from '../../../../../../electron/core/sandbox/network/embedded-ipv4.js';

describe('ipv6Bytes', () => {
  it('reads every spelling of an IPv6 address to its 16 bytes', () => {
    const hex = (ip: string) => Buffer.from(ipv6Bytes(ip)).toString('hex');
    expect(hex('::')).toBe('0'.repeat(32));
    expect(hex('::1')).toBe(`${'0'.repeat(31)}1`);
    expect(hex('2001:db8::8:800:200c:417a')).toBe('20010db80000000000080800200c417a');
    expect(hex('fe80::1%eth0')).toBe(`fe80${'0'.repeat(27)}1`);
    expect(hex('::ffff:127.0.0.1')).toBe(`${'0'.repeat(20)}ffff7f000001`);
    expect(hex('1:2:3:4:5:6:7:8')).toBe('00010002000300040005000600070008');
    expect(hex('1::')).toBe(`0001${'0'.repeat(28)}`);
  });

  it('refuses what is not an IPv6 address', () => {
    expect(() => ipv6Bytes('127.0.0.1')).toThrow(/not an IPv6 address/);
  });
});

describe('embeddedIPv4', () => {
  it('finds the IPv4 address in the mapped, NAT64, 6to4 and Teredo forms, and none elsewhere', () => {
    expect(embeddedIPv4('::ffff:7f00:1')).toEqual([{ form: 'an IPv4-mapped form', address: '127.0.0.1' }]);
    expect(embeddedIPv4('64:ff9b::c0a8:1')).toEqual([{ form: 'a NAT64 form', address: '192.168.0.1' }]);
    expect(embeddedIPv4('2002:0a01:0203:1::1')).toEqual([{ form: 'a 6to4 form', address: '10.1.2.3' }]);
    expect(embeddedIPv4('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual([
      { form: 'a Teredo form', address: '65.54.227.120' },
      { form: 'a Teredo form', address: '192.0.2.45' },
    ]);
    expect(embeddedIPv4('2606:4700::1')).toEqual([]);
    expect(embeddedIPv4('64:ff9b:1::1')).toEqual([]);
  });
});
