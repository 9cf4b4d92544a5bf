/**
 * Which addresses the proxy never dials, decided without sending anything: the fixed
 * ranges, this machine's own interface addresses, and the IPv6 forms that carry a
 * refused IPv4 address.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { localAddressKind } from '../../../../../../electron/core/sandbox/network/local-addresses.js';
import { interfaceAddresses } from '../../../../../../electron/core/sandbox/network/own-addresses.js';

describe('localAddressKind', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['::1', /loopback/],
    ['::ffff:127.0.0.1', /loopback/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['::ffff:192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['fd00::1', /unique-local/],
    ['fc12::1', /unique-local/],
    ['100.100.1.1', /carrier-grade/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /reserved/],
    ['::7f00:1', /reserved/],
  ])('keeps %s out of reach', (ip, kind) => {
    expect(localAddressKind(ip)).toMatch(kind);
  });

  it.each(['192.0.2.1', '198.51.100.7', '203.0.113.250', '2001:db8::1', '3fff:1::1'])(
    'refuses the documentation address %s: nothing public answers there',
    (ip) => {
      expect(localAddressKind(ip)).toMatch(/documentation/);
    },
  );

  it.each([
    ['64:ff9b::7f00:1', 'a NAT64 form of 127.0.0.1, a loopback address (this machine)'],
    ['64:ff9b::127.0.0.1', 'a NAT64 form of 127.0.0.1, a loopback address (this machine)'],
    ['64:ff9b::a9fe:a9fe', 'a NAT64 form of 169.254.169.254, a link-local address (cloud metadata lives here)'],
    ['64:ff9b::c0a8:101', 'a NAT64 form of 192.168.1.1, a private-network address'],
    ['2002:7f00:1::', 'a 6to4 form of 127.0.0.1, a loopback address (this machine)'],
    ['2002:a00:1:5::9', 'a 6to4 form of 10.0.0.1, a private-network address'],
    ['2002:c0a8:101::1', 'a 6to4 form of 192.168.1.1, a private-network address'],
    // Teredo: server 127.0.0.1 in bits 32-63; client 10.0.0.1 inverted in the last 32 (f5ff:fffe).
    ['2001:0:7f00:1::', 'a Teredo form of 127.0.0.1, a loopback address (this machine)'],
    ['2001:0:5db8:d70e:0:0:f5ff:fffe', 'a Teredo form of 10.0.0.1, a private-network address'],
  ])('judges %s by the IPv4 address it carries', (ip, kind) => {
    expect(localAddressKind(ip)).toBe(kind);
  });

  it.each([
    ['64:ff9b:1::a00:1', /local-use NAT64/],
    ['64:ff9b:1:ffff::8.8.8.8', /local-use NAT64/],
    ['100::1', /outside 2000::\/3/],
    ['::ffff:0:808:808', /outside 2000::\/3/],
    ['5f00::1', /outside 2000::\/3/],
  ])('refuses %s, outside the public IPv6 space', (ip, kind) => {
    expect(localAddressKind(ip)).toMatch(kind);
  });

  it.each([
    '93.184.215.14',
    '172.32.0.1',
    '8.8.8.8',
    '2606:4700::6810:84e5',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:5db8:d70e::1',
    '2001:0:5db8:d70e:0:0:f7f7:f7f7',
  ])('lets the public address %s through', (ip) => {
    expect(localAddressKind(ip)).toBeNull();
  });
});

describe("this machine's own addresses", () => {
  it('refuses an address of its own interfaces even when it is public, in every form that carries it', () => {
    const own = ['93.184.215.14', '2606:4700::6810:84e5'];
    const kind = "one of this machine's own addresses";
    expect(localAddressKind('93.184.215.14', own)).toBe(kind);
    expect(localAddressKind('::ffff:93.184.215.14', own)).toBe(kind);
    expect(localAddressKind('2606:4700:0:0:0:0:6810:84e5', own)).toBe(kind);
    expect(localAddressKind('64:ff9b::5db8:d70e', own)).toBe(`a NAT64 form of 93.184.215.14, ${kind}`);
    expect(localAddressKind('2002:5db8:d70e::1', own)).toBe(`a 6to4 form of 93.184.215.14, ${kind}`);
    expect(localAddressKind('93.184.215.15', own)).toBeNull();
  });

  it("reads the machine's interfaces, and refuses every address on them", () => {
    const read = interfaceAddresses();
    const expected = Object.values(os.networkInterfaces()).flatMap((l) => (l ?? []).map((a) => a.address));
    expect(read).toEqual(expected);
    expect(read).toContain('127.0.0.1');
    for (const address of read) expect(localAddressKind(address, read), address).not.toBeNull();
  });
});
