import { describe, expect, it } from 'vitest';
import {
  MAX_DOMAINS,
  domainListProblem,
  domainProblem,
  normalizeDomainList,
  policyAllows,
  portAllowed,
} from '../../../../../../electron/core/sandbox/network/domain-policy.js';
import {
  ipLiteral,
  localAddress,
  localName,
  notListed,
  portNotListed,
  refusalSummary,
} from '../../../../../../electron/core/sandbox/network/refusal.js';

describe('policyAllows', () => {
  it('matches the exact host, case-insensitively, with a trailing dot ignored', () => {
    const list = ['registry.npmjs.org'];
    expect(policyAllows(list, 'registry.npmjs.org')).toBe(true);
    expect(policyAllows(list, 'Registry.NPMJS.org.')).toBe(true);
    expect(policyAllows(['REGISTRY.npmjs.org.'], 'registry.npmjs.org')).toBe(true);
    expect(policyAllows(list, 'npmjs.org')).toBe(false);
    expect(policyAllows(list, 'evil.registry.npmjs.org')).toBe(false);
    expect(policyAllows(list, 'registry.npmjs.org.evil.com')).toBe(false);
    expect(policyAllows(list, 'xregistry.npmjs.org')).toBe(false);
  });

  it('reads *.example.com as the subdomains of example.com, not example.com itself', () => {
    const list = ['*.githubusercontent.com'];
    expect(policyAllows(list, 'objects.githubusercontent.com')).toBe(true);
    expect(policyAllows(list, 'a.b.githubusercontent.com')).toBe(true);
    expect(policyAllows(list, 'githubusercontent.com')).toBe(false);
    expect(policyAllows(list, 'evilgithubusercontent.com')).toBe(false);
  });

  it('allows any name with true', () => {
    expect(policyAllows(true, 'anything.example')).toBe(true);
  });

  it('names the host whatever port its entry has', () => {
    expect(policyAllows(['registry.npmjs.org:8443'], 'registry.npmjs.org')).toBe(true);
    expect(policyAllows(['*.example.com:8443'], 'a.example.com')).toBe(true);
    expect(policyAllows(['registry.npmjs.org:8443'], 'npmjs.org')).toBe(false);
  });
});

describe('portAllowed', () => {
  it('gives a bare domain port 443 through a tunnel and port 80 to a plain request, and nothing else', () => {
    const list = ['registry.npmjs.org'];
    expect(portAllowed(list, 'registry.npmjs.org', 443, 'tunnel')).toBe(true);
    expect(portAllowed(list, 'registry.npmjs.org', 80, 'forward')).toBe(true);
    expect(portAllowed(list, 'registry.npmjs.org', 80, 'tunnel')).toBe(false);
    expect(portAllowed(list, 'registry.npmjs.org', 443, 'forward')).toBe(false);
    expect(portAllowed(list, 'registry.npmjs.org', 8443, 'tunnel')).toBe(false);
  });

  it('gives a domain with a port that port both ways, and no other', () => {
    const list = ['registry.npmjs.org:8443', '*.example.com:22'];
    expect(portAllowed(list, 'registry.npmjs.org', 8443, 'tunnel')).toBe(true);
    expect(portAllowed(list, 'Registry.npmjs.org.', 8443, 'forward')).toBe(true);
    expect(portAllowed(list, 'registry.npmjs.org', 443, 'tunnel')).toBe(false);
    expect(portAllowed(list, 'registry.npmjs.org', 80, 'forward')).toBe(false);
    expect(portAllowed(list, 'git.example.com', 22, 'tunnel')).toBe(true);
    expect(portAllowed(list, 'git.example.com', 8443, 'tunnel')).toBe(false);
  });

  it('allows any port with true', () => {
    expect(portAllowed(true, 'anything.example', 25, 'tunnel')).toBe(true);
  });
});

describe('domainProblem', () => {
  it('accepts domains and subdomain wildcards', () => {
    for (const ok of [
      'registry.npmjs.org',
      'PyPI.org',
      'files.pythonhosted.org.',
      '*.crates.io',
      'xn--bcher-kva.example',
      'registry.npmjs.org:8443',
      '*.crates.io:443',
      'example.com:65535',
    ]) {
      expect(domainProblem(ok), ok).toBeNull();
    }
  });

  it.each([
    ['https://registry.npmjs.org/foo', /is a URL: write the host name alone.*\(registry\.npmjs\.org\)/],
    ['registry.npmjs.org:', /has a port that is not a number from 1 to 65535/],
    ['registry.npmjs.org:0', /has a port that is not a number/],
    ['registry.npmjs.org:08443', /has a port that is not a number/],
    ['registry.npmjs.org:https', /has a port that is not a number/],
    ['registry.npmjs.org:65536', /a port is at most 65535/],
    ['registry.npmjs.org:443:1', /not a valid domain name/],
    ['1.2.3.4:443', /is an IP address/],
    ['[::1]:443', /is an IP address/],
    ['localhost:8080', /is this machine/],
    ['github.com/foo/bar', /has a path: write the host name alone \(github\.com\)/],
    ['1.2.3.4', /is an IP address: a network list holds domains only/],
    ['::1', /is an IP address/],
    ['[2606:4700::1]', /is an IP address/],
    ['localhost', /is this machine: commands never reach this machine's own services/],
    ['db.localhost', /is this machine/],
    ['*.localhost', /is this machine/],
    ['myserver', /not a full domain name/],
    ['*', /use network: true/],
    ['*.com', /too broad/],
    ['a.*.example.com', /wildcard is allowed only as the whole first label/],
    ['foo_bar.example.com', /not a valid domain name/],
    ['-bad.example.com', /not a valid domain name/],
    ['example..com', /not a valid domain name/],
    ['1.2.3.999', /not a valid domain name/],
    ['bücher.example', /punycode/],
    ['has space.com', /spaces/],
    ['', /empty/],
    [`${'a'.repeat(64)}.com`, /not a valid domain name/],
  ])('refuses %j with words that say what to write', (entry, words) => {
    expect(domainProblem(entry)).toMatch(words);
  });
});

describe('domainListProblem', () => {
  it('refuses an empty list and more than the maximum, and names the first bad entry', () => {
    expect(domainListProblem([])).toMatch(/empty list allows nothing/);
    const many = Array.from({ length: MAX_DOMAINS + 1 }, (_, i) => `h${i}.example.com`);
    expect(domainListProblem(many)).toMatch(new RegExp(`at most ${MAX_DOMAINS} domains \\(got ${MAX_DOMAINS + 1}\\)`));
    expect(domainListProblem(many.slice(0, MAX_DOMAINS))).toBeNull();
    expect(domainListProblem(['pypi.org', 'http://x.org'])).toMatch(/"http:\/\/x.org" is a URL/);
  });

  it('normalizes a valid list: lower case, no trailing dot, each once, a port kept', () => {
    expect(normalizeDomainList(['PyPI.org.', 'pypi.org', '*.Crates.io', 'PyPI.org.:8443', 'pypi.org:8443'])).toEqual([
      'pypi.org',
      '*.crates.io',
      'pypi.org:8443',
    ]);
  });
});

describe('refusalSummary', () => {
  it('is null when nothing was refused, else the first line, the other hosts and what would help', () => {
    expect(refusalSummary([], ['pypi.org'])).toBeNull();
    const line = refusalSummary(
      [
        notListed('example.com', 443, ['pypi.org']),
        notListed('example.com', 80, ['pypi.org']),
        notListed('other.org', 443, ['pypi.org']),
        localAddress('lo.example', 80, '127.0.0.1', 'a loopback address (this machine)'),
      ],
      ['pypi.org'],
    );
    expect(line).toBe(
      "blocked by the sandbox: example.com is not on this command's network list (pypi.org); also refused: other.org, lo.example (run it again with example.com, other.org added to network if the command needs them)",
    );
  });

  it('suggests only entries the list accepts: never localhost, a bare name or an address', () => {
    const list = ['registry.npmjs.org'];
    const refusals = [
      notListed('localhost', 8080, list),
      notListed('myserver', 80, list),
      notListed('db.localhost', 5432, list),
      ipLiteral('10.0.0.1', 80, list),
      localName('localhost', 3000),
      portNotListed('registry.npmjs.org', 80, 'tunnel', list),
    ];
    for (const r of refusals) expect(refusalSummary([r], list), r.line).not.toMatch(/run it again/);
    expect(refusalSummary([...refusals, notListed('pypi.org', 443, list)], list)).toMatch(
      /\(run it again with pypi\.org added to network if the command needs it\)$/,
    );
  });

  it('suggests the port with its domain, or the bare domain for its usual port', () => {
    const list = ['registry.npmjs.org:8443'];
    expect(refusalSummary([portNotListed('registry.npmjs.org', 22, 'tunnel', list)], list)).toMatch(
      /run it again with registry\.npmjs\.org:22 added to network/,
    );
    expect(refusalSummary([portNotListed('registry.npmjs.org', 443, 'tunnel', list)], list)).toMatch(
      /run it again with registry\.npmjs\.org added to network/,
    );
  });

  it('does not suggest listing a local address', () => {
    expect(
      refusalSummary([localAddress('127.0.0.1', 80, '127.0.0.1', 'a loopback address (this machine)')], true),
    ).toBe(
      'blocked by the sandbox: 127.0.0.1 is a loopback address (this machine); commands never reach this machine or its local network',
    );
  });
});
