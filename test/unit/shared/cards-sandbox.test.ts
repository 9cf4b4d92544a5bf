import { describe, expect, it } from 'vitest';
import {
  commandGrant,
  describeGrant,
  describeSandbox,
  grantFor,
  sameGrant,
  type CommandCardBody,
} from '../../../shared/cards.js';

const home = '/home/ann';
const confined = (extra: Partial<Extract<CommandCardBody['sandbox'], { confined: true }>> = {}) => ({
  confined: true as const,
  network: false,
  writable: ['/home/ann/src/app'],
  readOnly: [],
  hidden: ['/home/ann/.ssh'],
  ...extra,
});
const body = (extra: Partial<CommandCardBody> = {}): CommandCardBody => ({
  kind: 'command',
  tool: 'run',
  argv: ['npm', 'test'],
  cwd: '/home/ann/src/app',
  sandbox: confined(),
  ...extra,
});

describe('describeSandbox', () => {
  it('says a confined command in one line', () => {
    expect(describeSandbox(body(), home)).toEqual({
      line: 'Confined: writes only in ~/src/app, no network, cannot see ~/.ssh',
      warnings: [],
    });
  });

  it('names the read-only places, a few hidden ones and how many more', () => {
    const sandbox = confined({
      readOnly: ['/home/ann/src/app/.git/hooks', '/home/ann/src/app/.gatehouse'],
      hidden: ['/data/gatehouse', '/home/ann/.ssh', '/home/ann/.aws', '/home/ann/.gnupg', '/home/ann/.kube'],
    });
    expect(describeSandbox(body({ sandbox }), home).line).toBe(
      'Confined: writes only in ~/src/app (not .git/hooks, .gatehouse), no network, cannot see /data/gatehouse, ~/.ssh, ~/.aws and 2 more',
    );
  });

  it('gives each flag the call asked for as a warning', () => {
    const words = describeSandbox(body({ network: true, sandbox: confined({ network: true }) }), home);
    expect(words).toEqual({
      line: 'Confined: writes only in ~/src/app, with network, cannot see ~/.ssh',
      warnings: ['asks for network'],
    });
    const loose = describeSandbox(
      body({ unconfined: true, sandbox: { confined: false, reason: 'the call asked to run without the sandbox' } }),
      home,
    );
    expect(loose).toEqual({
      line: 'Unconfined: the call asked to run without the sandbox',
      warnings: ['asks to run unconfined'],
    });
  });

  it('says unconfined and why where no sandbox runs, and for cards from before', () => {
    const words = describeSandbox(
      body({ sandbox: { confined: false, reason: 'bubblewrap (bwrap) is not installed' } }),
    );
    expect(words.line).toBe('Unconfined: bubblewrap (bwrap) is not installed');
    expect(describeSandbox(body({ sandbox: undefined })).line).toMatch(/^Unconfined: /);
  });

  it('leaves paths whole without a home', () => {
    expect(describeSandbox(body()).line).toBe(
      'Confined: writes only in /home/ann/src/app, no network, cannot see /home/ann/.ssh',
    );
  });
});

describe('command grants are exact in their flags', () => {
  it('a grant given confined never covers an unconfined run, nor one with network', () => {
    const plain = grantFor(body());
    expect(plain).toEqual({ kind: 'command', argv: ['npm', 'test'], cwd: '/home/ann/src/app' });
    const unconfined = commandGrant(['npm', 'test'], '/home/ann/src/app', { network: false, unconfined: true });
    const network = commandGrant(['npm', 'test'], '/home/ann/src/app', { network: true, unconfined: false });
    expect(sameGrant(plain, unconfined)).toBe(false);
    expect(sameGrant(plain, network)).toBe(false);
    expect(sameGrant(network, unconfined)).toBe(false);
    expect(sameGrant(plain, { ...plain })).toBe(true);
  });

  it('a card that said unconfined grants an unconfined run, whatever the reason', () => {
    const missing = grantFor(body({ sandbox: { confined: false, reason: 'bubblewrap (bwrap) is not installed' } }));
    expect(missing).toEqual({ kind: 'command', argv: ['npm', 'test'], cwd: '/home/ann/src/app', unconfined: true });
  });

  it('says the flags in the grant’s words', () => {
    expect(describeGrant(grantFor(body()))).toContain('(confined, no network)');
    expect(describeGrant(commandGrant(['x'], '/w', { network: true, unconfined: false }))).toContain(
      '(confined, with network)',
    );
    expect(describeGrant(commandGrant(['x'], '/w', { network: false, unconfined: true }))).toContain('(unconfined)');
  });
});
