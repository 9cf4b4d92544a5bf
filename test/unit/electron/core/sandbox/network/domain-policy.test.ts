import { describe, expect, it } from 'vitest';
import {
  MAX_DOMAINS,
  domainListProblem,
  domainProblem,
  normalizeDomainList,
  policyAllows,
} from '../../../../../../electron/core/sandbox/network/domain-policy.js';
import { refusalSummary, notListed, localAddress } from '../../../../../../electron/core/sandbox/network/refusal.js';

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
});

describe('domainProblem', () => {
  it('accepts domains and subdomain wildcards', () => {
    for (const ok of [
      'registry.npmjs.org',
      'PyPI.org',
      'files.pythonhosted.org.',
      '*.crates.io',
      'xn--bcher-kva.example',
    ]) {
      expect(domainProblem(ok), ok).toBeNull();
    }
  });

  it.each([
    ['https://registry.npmjs.org/foo', /is a URL: write the host name alone.*\(registry\.npmjs\.org\)/],
    ['registry.npmjs.org:443', /has a port: write the domain alone \(registry\.npmjs\.org\)/],
    ['github.com/foo/bar', /has a path: write the host name alone \(github\.com\)/],
    ['1.2.3.4', /is an IP address: a network list holds domains only/],
    ['::1', /is an IP address/],
    ['[2606:4700::1]', /is an IP address/],
    ['localhost', /not a full domain name/],
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

  it('normalizes a valid list: lower case, no trailing dot, each once', () => {
    expect(normalizeDomainList(['PyPI.org.', 'pypi.org', '*.Crates.io'])).toEqual(['pypi.org', '*.crates.io']);
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

  it('does not suggest listing a local address', () => {
    expect(
      refusalSummary([localAddress('127.0.0.1', 80, '127.0.0.1', 'a loopback address (this machine)')], true),
    ).toBe(
      'blocked by the sandbox: 127.0.0.1 is a loopback address (this machine); commands never reach this machine or its local network',
    );
  });
});
