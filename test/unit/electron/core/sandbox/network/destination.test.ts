/**
 * The proxy's decision for one connection, taken directly: nothing is dialled, so the
 * addresses here (this machine's own among them) are judged without a byte sent to them.
 */
import { describe, expect, it } from 'vitest';
import {
  decide,
  type Decision,
  type DestinationRules,
} from '../../../../../../electron/core/sandbox/network/destination.js';
import type { NetworkPolicy, Way } from '../../../../../../electron/core/sandbox/network/domain-policy.js';
import { interfaceAddresses } from '../../../../../../electron/core/sandbox/network/own-addresses.js';
import { tableLookup } from './stand-in.js';

const PUBLIC = '93.184.215.14';

function rules(policy: NetworkPolicy, extra: Partial<DestinationRules> = {}): DestinationRules {
  return { policy, lookup: tableLookup({ 'registry.npmjs.org': [PUBLIC], 'cdn.example.com': [PUBLIC] }), ...extra };
}

const lineOf = (d: Decision) => (d.kind === 'refused' ? d.refusal.line : `not refused: ${JSON.stringify(d)}`);

describe("this machine's own addresses", () => {
  it('refuses a name that resolves to an address of this machine, read again for every decision', async () => {
    const own: string[] = [];
    // A fresh list each time, as the interfaces give one.
    const r = rules(true, { ownAddresses: () => [...own] });
    expect(await decide(r, 'registry.npmjs.org', 443, 'tunnel')).toMatchObject({ kind: 'go', route: { host: PUBLIC } });
    // An interface comes up with that address (a VPN, a new lease): the next decision knows it.
    own.push(PUBLIC);
    expect(lineOf(await decide(r, 'registry.npmjs.org', 443, 'tunnel'))).toBe(
      "blocked by the sandbox: registry.npmjs.org resolves to 93.184.215.14, one of this machine's own addresses; commands never reach this machine or its local network",
    );
    expect(lineOf(await decide(r, PUBLIC, 8080, 'tunnel'))).toMatch(/93\.184\.215\.14 is one of this machine's own/);
    expect(lineOf(await decide(r, `::ffff:${PUBLIC}`, 8080, 'tunnel'))).toMatch(/one of this machine's own/);
    expect(lineOf(await decide(r, '64:ff9b::5db8:d70e', 80, 'forward'))).toMatch(
      /a NAT64 form of 93\.184\.215\.14, one of this machine's own addresses/,
    );
  });

  it("refuses every address of this machine's real interfaces, by default", async () => {
    const addresses = interfaceAddresses();
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      const decision = await decide({ policy: true, lookup: tableLookup({}) }, address, 8080, 'tunnel');
      expect(decision.kind, address).toBe('refused');
    }
  });

  it('dials a public address of a name that has local ones too, and only one it checked', async () => {
    const r = rules(true, { lookup: tableLookup({ 'mixed.example.com': ['127.0.0.1', 'fd00::1', PUBLIC] }) });
    expect(await decide(r, 'mixed.example.com', 443, 'tunnel')).toEqual({
      kind: 'go',
      route: { host: PUBLIC, port: 443 },
      carries: 'anything',
    });
  });

  it('looks a name up once per decision', async () => {
    const asked: string[] = [];
    const lookup = async (host: string) => {
      asked.push(host);
      return asked.length === 1 ? [PUBLIC] : ['127.0.0.1'];
    };
    expect(await decide(rules(['registry.npmjs.org'], { lookup }), 'registry.npmjs.org', 443, 'tunnel')).toMatchObject({
      kind: 'go',
      route: { host: PUBLIC },
    });
    expect(asked).toEqual(['registry.npmjs.org']);
  });
});

describe('ports under a list', () => {
  const go = (carries: string) => ({ kind: 'go', carries });

  it.each<[string[], Way, number, object | RegExp]>([
    [['registry.npmjs.org'], 'tunnel', 443, go('tls-for-host')],
    [['registry.npmjs.org'], 'forward', 80, go('anything')],
    [
      ['registry.npmjs.org'],
      'tunnel',
      80,
      /a tunnel \(CONNECT or SOCKS5\) to port 80 of registry\.npmjs\.org could carry requests for any site/,
    ],
    [
      ['registry.npmjs.org'],
      'tunnel',
      22,
      /port 22 of registry\.npmjs\.org is not on this command's network list \(registry\.npmjs\.org\); a port other than 443 .* as in registry\.npmjs\.org:22/,
    ],
    [['registry.npmjs.org'], 'forward', 8080, /port 8080 of registry\.npmjs\.org is not on/],
    [['registry.npmjs.org'], 'forward', 443, /port 443 of registry\.npmjs\.org is not on/],
    [['registry.npmjs.org:8443'], 'tunnel', 8443, go('anything')],
    [['registry.npmjs.org:8443'], 'forward', 8443, go('anything')],
    [
      ['registry.npmjs.org:8443'],
      'tunnel',
      443,
      /port 443 of registry\.npmjs\.org is not on .* registry\.npmjs\.org listed alone is reached on port 443/,
    ],
    [['registry.npmjs.org:443'], 'tunnel', 443, go('tls-for-host')],
    [['registry.npmjs.org:80'], 'tunnel', 80, go('anything')],
    [['*.example.com:8443'], 'tunnel', 8443, go('anything')],
  ])('%j %s to port %i', async (list, way, port, expected) => {
    const host = list[0]?.startsWith('*.') ? 'cdn.example.com' : 'registry.npmjs.org';
    const decision = await decide(rules(list), host, port, way);
    if (expected instanceof RegExp) expect(lineOf(decision)).toMatch(expected);
    else expect(decision).toMatchObject(expected);
  });

  it('lets true reach any port, carrying anything', async () => {
    for (const [port, way] of [
      [443, 'tunnel'],
      [80, 'tunnel'],
      [22, 'tunnel'],
      [8080, 'forward'],
    ] as const) {
      expect(await decide(rules(true), 'registry.npmjs.org', port, way)).toMatchObject({
        kind: 'go',
        carries: 'anything',
      });
    }
  });

  it('says where the name is not on the list at all, before any port', async () => {
    expect(lineOf(await decide(rules(['registry.npmjs.org:8443']), 'example.org', 8443, 'tunnel'))).toBe(
      "blocked by the sandbox: example.org is not on this command's network list (registry.npmjs.org:8443)",
    );
  });
});

describe('localhost', () => {
  it('is this machine under any policy, with no lookup', async () => {
    const lookup = async () => {
      throw new Error('no lookup expected');
    };
    for (const policy of [true, ['registry.npmjs.org']] as const) {
      for (const host of ['localhost', 'db.localhost']) {
        expect(lineOf(await decide(rules(policy, { lookup }), host, 443, 'tunnel'))).toBe(
          `blocked by the sandbox: ${host} is this machine; commands never reach this machine or its local network`,
        );
      }
    }
  });
});
