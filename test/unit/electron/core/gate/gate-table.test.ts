/**
 * The gate's table (SPEC §3), each answer for each kind of call, with the workspace, the
 * outside folder and meta.json checked afterwards.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeGrant, type Answer, type CardBody, type Grant } from '../../../../../shared/cards.js';
import { DENIED } from '../../../../../electron/core/gate/permission-gate.js';
import type { ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { GateHarness, metaWithGrants, type Snapshot } from './gate-harness.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A path as a diff header names it: git drops the leading slash of an absolute path. */
const header = (abs: string) => abs.replace(/^\/+/, '');

/** What every test starts from: files inside, files outside, a link to a folder outside. */
async function world(): Promise<GateHarness> {
  const h = await GateHarness.open();
  await h.put('notes.txt', 'one\ntwo\nthree\n', 0o640);
  await h.put('src/app.ts', 'export const x = 1;\n', 0o644);
  await h.put(path.join(h.outside, 'secret.txt'), 'outside secret\n', 0o600);
  await h.put(path.join(h.outside, 'real-dir', 'data.txt'), 'needle outside\n', 0o644);
  await fs.symlink('real-dir', path.join(h.outside, 'link-dir'));
  return h;
}

/** The tool's own result for a call, without any gate. */
async function ownResult(h: GateHarness, tool: string, args: unknown): Promise<ToolResult> {
  return h.tools.execute(await h.tools.plan(tool, args));
}

function withFile(before: Snapshot, key: string, content: string, mode: number): Snapshot {
  return { ...before, [key]: { type: 'file', mode, content } };
}

interface TableCase {
  name: string;
  tool: string;
  args(h: GateHarness): Record<string, unknown>;
  /** What the card must show. */
  body(h: GateHarness): CardBody | Partial<CardBody>;
  grant(h: GateHarness): Grant;
  /** Checks an allowed call's result and returns the world expected after it. */
  allowed(h: GateHarness, result: ToolResult, before: Snapshot): Promise<Snapshot>;
}

const cases: TableCase[] = [
  {
    name: 'write_file on an existing file inside',
    tool: 'write_file',
    args: () => ({ path: 'notes.txt', content: 'one\nTWO\nthree\n' }),
    body: (h) => ({
      kind: 'write',
      tool: 'write_file',
      path: path.join(h.ws, 'notes.txt'),
      inside: true,
      creates: false,
      diff: [
        `--- a/${header(path.join(h.ws, 'notes.txt'))}`,
        `+++ b/${header(path.join(h.ws, 'notes.txt'))}`,
        '@@ -1,3 +1,3 @@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '',
      ].join('\n'),
      diffTruncated: false,
      proposalBytes: 14,
      beforeBytes: 14,
      digest: sha256('one\ntwo\nthree\n'),
    }),
    grant: (h) => ({ kind: 'write', path: path.join(h.ws, 'notes.txt') }),
    allowed: async (_h, result, before) => {
      expect(result).toMatchObject({ ok: true, output: 'Wrote notes.txt (14 bytes, was 14 bytes).' });
      return withFile(before, 'ws/notes.txt', 'one\nTWO\nthree\n', 0o640);
    },
  },
  {
    name: 'write_file creating a file inside',
    tool: 'write_file',
    args: () => ({ path: 'src/new.ts', content: 'export {};\n' }),
    body: (h) => ({
      kind: 'write',
      tool: 'write_file',
      path: path.join(h.ws, 'src', 'new.ts'),
      inside: true,
      creates: true,
      diff: `--- /dev/null\n+++ b/${header(path.join(h.ws, 'src', 'new.ts'))}\n@@ -0,0 +1 @@\n+export {};\n`,
      beforeBytes: null,
      digest: 'absent',
    }),
    grant: (h) => ({ kind: 'write', path: path.join(h.ws, 'src', 'new.ts') }),
    allowed: async (_h, result, before) => {
      expect(result).toMatchObject({ ok: true, output: 'Created src/new.ts (11 bytes, new file).' });
      return withFile(before, 'ws/src/new.ts', 'export {};\n', 0o644);
    },
  },
  {
    name: 'search_replace inside',
    tool: 'search_replace',
    args: () => ({ path: 'src/app.ts', old: '= 1', new: '= 2' }),
    body: (h) => ({
      kind: 'write',
      tool: 'search_replace',
      path: path.join(h.ws, 'src', 'app.ts'),
      inside: true,
      creates: false,
      diff: [
        `--- a/${header(path.join(h.ws, 'src', 'app.ts'))}`,
        `+++ b/${header(path.join(h.ws, 'src', 'app.ts'))}`,
        '@@ -1 +1 @@',
        '-export const x = 1;',
        '+export const x = 2;',
        '',
      ].join('\n'),
      digest: sha256('export const x = 1;\n'),
    }),
    grant: (h) => ({ kind: 'write', path: path.join(h.ws, 'src', 'app.ts') }),
    allowed: async (_h, result, before) => {
      expect(result).toMatchObject({ ok: true, output: 'Replaced 1 occurrence in src/app.ts (now 20 bytes).' });
      return withFile(before, 'ws/src/app.ts', 'export const x = 2;\n', 0o644);
    },
  },
  {
    name: 'write_file outside, by absolute path',
    tool: 'write_file',
    args: (h) => ({ path: path.join(h.outside, 'secret.txt'), content: 'changed\n' }),
    body: (h) => ({
      kind: 'write',
      tool: 'write_file',
      path: path.join(h.outside, 'secret.txt'),
      inside: false,
      creates: false,
      diff: [
        `--- a/${header(path.join(h.outside, 'secret.txt'))}`,
        `+++ b/${header(path.join(h.outside, 'secret.txt'))}`,
        '@@ -1 +1 @@',
        '-outside secret',
        '+changed',
        '',
      ].join('\n'),
      digest: sha256('outside secret\n'),
    }),
    grant: (h) => ({ kind: 'write', path: path.join(h.outside, 'secret.txt') }),
    allowed: async (_h, result, before) => {
      expect(result.ok).toBe(true);
      return withFile(before, 'outside/secret.txt', 'changed\n', 0o600);
    },
  },
  {
    name: 'search_replace outside, by absolute path',
    tool: 'search_replace',
    args: (h) => ({ path: path.join(h.outside, 'secret.txt'), old: 'secret', new: 'public' }),
    body: (h) => ({
      kind: 'write',
      tool: 'search_replace',
      path: path.join(h.outside, 'secret.txt'),
      inside: false,
      creates: false,
      diff: [
        `--- a/${header(path.join(h.outside, 'secret.txt'))}`,
        `+++ b/${header(path.join(h.outside, 'secret.txt'))}`,
        '@@ -1 +1 @@',
        '-outside secret',
        '+outside public',
        '',
      ].join('\n'),
    }),
    grant: (h) => ({ kind: 'write', path: path.join(h.outside, 'secret.txt') }),
    allowed: async (_h, result, before) => {
      expect(result.ok).toBe(true);
      return withFile(before, 'outside/secret.txt', 'outside public\n', 0o600);
    },
  },
  {
    name: 'read_file outside, through a link',
    tool: 'read_file',
    args: (h) => ({ path: path.join(h.outside, 'link-dir', 'data.txt') }),
    body: (h) => ({ kind: 'read', tool: 'read_file', path: path.join(h.outside, 'real-dir', 'data.txt') }),
    grant: (h) => ({ kind: 'read', tool: 'read_file', path: path.join(h.outside, 'real-dir', 'data.txt') }),
    allowed: async (h, result, before) => {
      expect(result).toEqual(await ownResult(h, 'read_file', { path: path.join(h.outside, 'link-dir', 'data.txt') }));
      expect(result).toMatchObject({ ok: true, output: 'needle outside\n' });
      return before;
    },
  },
  {
    name: 'list_dir outside, through a link',
    tool: 'list_dir',
    args: (h) => ({ path: path.join(h.outside, 'link-dir') }),
    body: (h) => ({ kind: 'read', tool: 'list_dir', path: path.join(h.outside, 'real-dir') }),
    grant: (h) => ({ kind: 'read', tool: 'list_dir', path: path.join(h.outside, 'real-dir') }),
    allowed: async (h, result, before) => {
      expect(result).toEqual(await ownResult(h, 'list_dir', { path: path.join(h.outside, 'link-dir') }));
      expect(result.ok && result.output).toContain('data.txt');
      return before;
    },
  },
  {
    name: 'grep outside, through a link',
    tool: 'grep',
    args: (h) => ({ pattern: 'needle', path: path.join(h.outside, 'link-dir') }),
    body: (h) => ({ kind: 'read', tool: 'grep', path: path.join(h.outside, 'real-dir') }),
    grant: (h) => ({ kind: 'read', tool: 'grep', path: path.join(h.outside, 'real-dir') }),
    allowed: async (h, result, before) => {
      expect(result).toEqual(await ownResult(h, 'grep', { pattern: 'needle', path: path.join(h.outside, 'link-dir') }));
      expect(result.ok && result.output).toContain('data.txt:1:needle outside');
      return before;
    },
  },
  {
    name: 'run with the default timeout',
    tool: 'run',
    args: () => ({ argv: [process.execPath, '-e', MARKER_SCRIPT] }),
    body: (h) => ({ kind: 'command', tool: 'run', argv: [process.execPath, '-e', MARKER_SCRIPT], cwd: h.ws }),
    grant: (h) => ({ kind: 'command', argv: [process.execPath, '-e', MARKER_SCRIPT], cwd: h.ws }),
    allowed: async (h, result, before) => {
      expect(result).toMatchObject({ ok: true, details: { exitCode: 0 } });
      const mode = (await fs.stat(path.join(h.ws, 'ran.txt'))).mode & 0o7777;
      // Only what the command wrote: the empty folders the sandbox mounted read-only
      // (.gatehouse, .claude, a .git standing in) are gone once it ends (SPEC §9).
      return withFile(before, 'ws/ran.txt', h.ws, mode);
    },
  },
  {
    name: 'run in a folder with its own timeout',
    tool: 'run',
    args: () => ({ argv: [process.execPath, '-e', MARKER_SCRIPT], cwd: 'src', timeout_s: 30 }),
    body: (h) => ({
      kind: 'command',
      tool: 'run',
      argv: [process.execPath, '-e', MARKER_SCRIPT],
      cwd: path.join(h.ws, 'src'),
      timeoutS: 30,
    }),
    grant: (h) => ({ kind: 'command', argv: [process.execPath, '-e', MARKER_SCRIPT], cwd: path.join(h.ws, 'src') }),
    allowed: async (h, result, before) => {
      expect(result).toMatchObject({ ok: true, details: { exitCode: 0, timeoutS: 30 } });
      const mode = (await fs.stat(path.join(h.ws, 'src', 'ran.txt'))).mode & 0o7777;
      return withFile(before, 'ws/src/ran.txt', path.join(h.ws, 'src'), mode);
    },
  },
];

/** Leaves a marker holding the folder it ran in, so a command that never started leaves none. */
const MARKER_SCRIPT = "require('fs').writeFileSync('ran.txt', process.cwd())";

describe('calls the gate lets through without a card', () => {
  const inside: [string, Record<string, unknown>][] = [
    ['read_file', { path: 'notes.txt' }],
    ['read_file', { path: 'src/../notes.txt', offset: 4 }],
    ['list_dir', { path: '.' }],
    ['list_dir', { path: 'src' }],
    ['grep', { pattern: 'two|three' }],
    ['grep', { pattern: 'x =', path: 'src' }],
  ];
  it.each(inside)('%s %j inside gives only the tool’s own result', async (tool, args) => {
    const h = await world();
    const s = await h.session();
    const before = await h.snapshot();
    const meta = await s.metaBytes();

    const result = await s.run(tool, args);

    expect(result.ok).toBe(true);
    expect(result).toEqual(await ownResult(h, tool, args));
    expect(s.appended).toEqual([]);
    expect(await s.record.log.readEvents()).toEqual([]);
    expect(await h.snapshot()).toEqual(before);
    expect(await s.metaBytes()).toEqual(meta);
  });

  it('treats an absolute path that lands inside the workspace as inside', async () => {
    const h = await world();
    const s = await h.session();

    const result = await s.run('read_file', { path: path.join(h.ws, 'notes.txt') });

    expect(result).toMatchObject({ ok: true, output: 'one\ntwo\nthree\n' });
    expect(s.appended).toEqual([]);
  });

  it('gives the model a bad call’s error without a card', async () => {
    const h = await world();
    const s = await h.session();

    const result = await s.run('write_file', { path: '../escape.txt', content: 'x' });

    expect(result).toEqual({ ok: false, error: 'refused: "../escape.txt" uses ".." to walk out of the workspace' });
    expect(s.appended).toEqual([]);
    await expect(fs.access(path.join(h.root, 'escape.txt'))).rejects.toThrow();
  });
});

describe.each<Answer>(['allow_once', 'allow_session', 'deny'])('answering %s', (answer) => {
  it.each(cases)('$name: a card, then the answer applied exactly', async (c) => {
    const h = await world();
    const s = await h.session();
    const before = await h.snapshot();
    const metaBefore = await s.metaBytes();

    const pending = s.start(c.tool, c.args(h));
    const card = await pending.card();

    expect(card.body).toMatchObject(c.body(h));
    if (card.body.kind === 'command' && !('timeoutS' in c.body(h))) expect(card.body).not.toHaveProperty('timeoutS');
    expect(card.grant).toEqual(c.grant(h));
    expect(card.scope).toBe(describeGrant(c.grant(h)));
    expect(card.reasked).toBeUndefined();
    // Nothing has happened while the card waits.
    expect(await h.snapshot()).toEqual(before);

    s.gate.answer(card.cardId, answer);
    const result = await pending.result;

    expect(s.types()).toEqual(['card', 'card_answer']);
    expect(s.appended[1]).toMatchObject({ type: 'card_answer', cardId: card.cardId, answer });
    if (answer === 'deny') {
      expect(result).toEqual({ ok: false, error: DENIED });
      expect(await h.snapshot()).toEqual(before);
    } else {
      expect(await h.snapshot()).toEqual(await c.allowed(h, result, before));
    }
    const granted = answer === 'allow_session' ? [c.grant(h)] : [];
    expect(await s.loggedGrants()).toEqual(granted);
    const metaAfter = await s.metaBytes();
    if (answer === 'allow_session') expect(metaAfter.toString()).toBe(metaWithGrants(metaBefore, granted));
    else expect(metaAfter).toEqual(metaBefore);
  });
});

describe('what a command card shows', () => {
  it('leaves the timeout off when the call names the default', async () => {
    const h = await world();
    const s = await h.session();

    const pending = s.start('run', { argv: ['true'], timeout_s: 120 });
    const card = await pending.card();
    s.gate.answer(card.cardId, 'deny');
    await pending.result;

    expect(card.body).toEqual({
      kind: 'command',
      tool: 'run',
      argv: ['true'],
      cwd: h.ws,
      sandbox: {
        confined: true,
        network: false,
        git: false,
        home: path.join(path.dirname(h.dataDir), 'home'),
        writable: [h.ws],
        readOnly: [path.join(h.ws, '.git'), path.join(h.ws, '.gatehouse'), path.join(h.ws, '.claude')],
        shown: [],
        hidden: expect.arrayContaining([h.dataDir]),
      },
    });
  });

  it('names the real working folder when cwd goes through a link', async () => {
    const h = await world();
    await fs.symlink('src', path.join(h.ws, 'code'));
    const s = await h.session();

    const pending = s.start('run', { argv: ['true'], cwd: 'code' });
    const card = await pending.card();
    s.gate.answer(card.cardId, 'deny');
    await pending.result;

    expect(card.body).toMatchObject({ kind: 'command', cwd: path.join(h.ws, 'src') });
  });
});
