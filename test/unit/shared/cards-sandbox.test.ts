import { describe, expect, it } from 'vitest';
import {
  commandGrant,
  describeGrant,
  describeSandbox,
  grantKey,
  PLACE_GIT_WARNING,
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
  const today = (extra: Partial<Extract<CommandCardBody['sandbox'], { confined: true }>> = {}) =>
    confined({
      home,
      git: false,
      readOnly: ['/home/ann/src/app/.git', '/home/ann/src/app/.gatehouse', '/home/ann/src/app/.claude'],
      shown: ['/home/ann/.cargo/bin', '/home/ann/.pyenv'],
      hidden: ['/home/ann/.config/Gatehouse', '/run'],
      ...extra,
    });

  it('says what holds in one line: where it writes, what it sees of home, the network', () => {
    expect(describeSandbox(body({ sandbox: today() }), home)).toEqual({
      line: 'Confined: writes only in ~/src/app (not .git, .gatehouse, .claude); sees the system and your toolchains, not the rest of your home; no network',
      warnings: [],
      shown: ['~/.cargo/bin', '~/.pyenv'],
    });
  });

  it('says "not your home" when no toolchain is shown, and names hidden places outside the home folder', () => {
    const sandbox = today({ shown: [], hidden: ['/data/gatehouse', '/run', '/home/ann/.config/gh'] });
    expect(describeSandbox(body({ sandbox }), home).line).toBe(
      'Confined: writes only in ~/src/app (not .git, .gatehouse, .claude); sees the system, not your home; no network; cannot see /data/gatehouse',
    );
  });

  it("says that a session's place reads the git history of the folder it was made from, not its files", () => {
    const sandbox = today({
      writable: ['/home/ann/.config/Gatehouse/places/s1/app'],
      readOnly: ['/home/ann/.config/Gatehouse/places/s1/app/.git'],
      shown: ['/home/ann/src/app/.git'],
    });
    expect(describeSandbox(body({ sandbox }), home).line).toContain(
      'reads the git history in ~/src/app/.git, not the files beside it',
    );
  });

  it("never says a command in a session's place may write .git, even when it asked to", () => {
    const sandbox = today({
      writable: ['/home/ann/.config/Gatehouse/places/s1/app'],
      readOnly: ['/home/ann/.config/Gatehouse/places/s1/app/.git'],
      shown: ['/home/ann/src/app/.git'],
    });
    expect(describeSandbox(body({ git: true, sandbox }), home).warnings).toEqual([PLACE_GIT_WARNING]);
    expect(PLACE_GIT_WARNING).toMatch(/stays read-only in this session's place/);
  });

  it('gives each flag the call asked for as a warning', () => {
    const words = describeSandbox(
      body({ network: true, git: true, sandbox: today({ network: true, git: true }) }),
      home,
    );
    expect(words.warnings).toEqual([
      'asks for network (any domain)',
      'asks to write .git (commits, branches, fetches; its hooks and config stay read-only)',
    ]);
    expect(words.line).toMatch(/; network to any domain through Gatehouse's proxy$/);
    const listed = describeSandbox(body({ network: ['pypi.org'], sandbox: today({ network: ['pypi.org'] }) }), home);
    expect(listed.warnings).toEqual(['asks for network to pypi.org']);
    expect(listed.line).toMatch(/; network only to pypi\.org through Gatehouse's proxy$/);
    const loose = describeSandbox(
      body({ unconfined: true, sandbox: { confined: false, reason: 'the call asked to run without the sandbox' } }),
      home,
    );
    expect(loose).toEqual({
      line: 'Unconfined: the call asked to run without the sandbox',
      warnings: ['asks to run unconfined'],
      shown: [],
    });
  });

  it('keeps the words of cards from before the home folder was emptied', () => {
    const sandbox = confined({
      readOnly: ['/home/ann/src/app/.git/hooks'],
      hidden: ['/data/gatehouse', '/home/ann/.ssh', '/home/ann/.aws', '/home/ann/.gnupg', '/home/ann/.kube'],
    });
    expect(describeSandbox(body({ sandbox }), home).line).toBe(
      'Confined: writes only in ~/src/app (not .git/hooks); no network; cannot see /data/gatehouse, ~/.ssh, ~/.aws and 2 more',
    );
  });

  it('says unconfined and why where no sandbox runs, and for cards from before', () => {
    const words = describeSandbox(
      body({ sandbox: { confined: false, reason: 'bubblewrap (bwrap) is not installed' } }),
    );
    expect(words.line).toBe('Unconfined: bubblewrap (bwrap) is not installed');
    expect(describeSandbox(body({ sandbox: undefined })).line).toMatch(/^Unconfined: /);
  });

  it('leaves paths whole without a home', () => {
    expect(describeSandbox(body({ sandbox: today() })).line).toMatch(
      /^Confined: writes only in \/home\/ann\/src\/app /,
    );
    expect(describeSandbox(body({ sandbox: today() })).shown).toEqual(['/home/ann/.cargo/bin', '/home/ann/.pyenv']);
  });
});

describe('command grants are exact in their flags', () => {
  it('a grant given confined never covers an unconfined run, nor one with network', () => {
    const plain = commandGrant(['npm', 'test'], '/home/ann/src/app', { network: false, unconfined: false });
    expect(plain).toEqual({ kind: 'command', argv: ['npm', 'test'], cwd: '/home/ann/src/app' });
    const unconfined = commandGrant(['npm', 'test'], '/home/ann/src/app', { network: false, unconfined: true });
    const network = commandGrant(['npm', 'test'], '/home/ann/src/app', { network: true, unconfined: false });
    expect(sameGrant(plain, unconfined)).toBe(false);
    expect(sameGrant(plain, network)).toBe(false);
    expect(sameGrant(network, unconfined)).toBe(false);
    expect(sameGrant(plain, { ...plain })).toBe(true);
  });

  it('compare by one canonical key, the same whether a flag is absent or false', () => {
    const plain = commandGrant(['npm', 'test'], '/w', { network: false, unconfined: false });
    expect(grantKey(plain)).toBe(grantKey({ ...plain, network: false as never, git: false as never }));
    expect(grantKey(plain)).not.toBe(grantKey(commandGrant(['npm test'], '/w', { network: false, unconfined: false })));
    expect(grantKey(commandGrant(['x'], '/w', { network: ['a.org'], unconfined: false }))).not.toBe(
      grantKey(commandGrant(['x'], '/w', { network: true, unconfined: false })),
    );
    expect(grantKey({ kind: 'read', tool: 'grep', path: '/p' })).not.toBe(
      grantKey({ kind: 'read', tool: 'read_file', path: '/p' }),
    );
  });

  it('says the flags in the grant’s words', () => {
    expect(describeGrant(commandGrant(['x'], '/w', { network: false, unconfined: false }))).toContain(
      '(confined, no network)',
    );
    expect(describeGrant(commandGrant(['x'], '/w', { network: true, unconfined: false }))).toContain(
      "(confined, network to any domain through Gatehouse's proxy)",
    );
    expect(describeGrant(commandGrant(['x'], '/w', { network: ['pypi.org'], unconfined: false, git: true }))).toContain(
      "(confined, network only to pypi.org through Gatehouse's proxy, may write .git)",
    );
    expect(describeGrant(commandGrant(['x'], '/w', { network: false, unconfined: true }))).toContain('(unconfined)');
  });
});

describe('the words of an agent’s grants', () => {
  it('name the agent as the window does, not by its id', () => {
    expect(describeGrant({ kind: 'agent_start', agent: 'claude-code', fingerprint: 'f' })).toBe(
      'Allow Claude Code to start, and restart, for the rest of this session, while its launch stays as shown. A changed launch still asks.',
    );
    expect(describeGrant({ kind: 'agent_ask', agent: 'gemini-cli', toolKind: 'fetch', title: 'Fetch x' })).toContain(
      "Answer yes to Gemini CLI's requests",
    );
    expect(describeGrant({ kind: 'agent_start', agent: 'someone-else', fingerprint: 'f' })).toContain(
      'Allow someone-else to start',
    );
  });
});
