/**
 * Five sessions on one repository at once, each in a worktree of its own (SPEC §15, issue
 * 34's "done when"): three driven by the native runner (its writes are cards, allowed) and
 * the real Codex and the real opencode (their writes and commands need none), all against
 * one fake model on loopback. Their turns overlap; each review lists exactly its own
 * session's files (none sees another's); all five apply back at once, and the person's
 * `git status` shows exactly the union of what was applied; all five places then go.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../../fake-model/server.js';
import { CODEX, codexScript, isCodex, patchThenRun } from '../agents/codex-script.js';
import { OPENCODE, opencodeScript, type OpencodeCall } from '../agents/opencode-script.js';
import { turnEnd, type Move } from '../agents/real-agent-harness.js';
import { git, openStaged, personFolder, startStagedCore } from '../agents/staged-agent-harness.js';
import { providerCases, type Harness } from '../core-harness.js';

let h: Harness | undefined;
let closeFake: (() => Promise<void>) | undefined;
afterEach(async () => {
  await h?.close();
  await closeFake?.();
  h = undefined;
  closeFake = undefined;
});

/** The native runner speaks chat completions here (a key saved in Settings), so each wire names its own sessions. */
const NATIVE = providerCases.find((p) => p.name === 'openai-compatible')!;

type NativeCall = { name: string; input: unknown };

/** What each native session's model does (the person's message names it: "NATIVE-1"). */
const NATIVE_WORK: Record<string, NativeCall[]> = {
  '1': [
    { name: 'write_file', input: { path: 'native-1.txt', content: 'one\n' } },
    { name: 'search_replace', input: { path: 'notes.txt', old: 'first line', new: 'first line, edited by one' } },
  ],
  '2': [{ name: 'write_file', input: { path: 'native-2.txt', content: 'two\n' } }],
  '3': [
    { name: 'write_file', input: { path: 'native-3.txt', content: 'three\n' } },
    { name: 'write_file', input: { path: 'docs/three.md', content: '# three\n' } },
  ],
};

const CODEX_FIVE = patchThenRun(
  [
    '*** Begin Patch',
    '*** Add File: codex.txt',
    '+from codex',
    '*** Update File: README.md',
    '@@',
    '-# the person’s project',
    '+# the person’s project, retitled by codex',
    '*** End Patch',
    '',
  ].join('\n'),
  'echo codex ran > codex-ran.txt',
);

const opencodeFive = (placeDir: string): OpencodeCall[] => [
  { name: 'write', input: { filePath: path.join(placeDir, 'opencode.txt'), content: 'from opencode\n' } },
  { name: 'bash', input: { command: 'echo opencode ran > opencode-ran.txt', description: 'leave a mark' } },
];

type ChatMessage = { role: string; content?: unknown };

/** The native runner's moves over chat completions: the turn's calls one per step, then text. */
const nativeMove: Move = (request) => {
  const messages = (request.body as { messages?: ChatMessage[] } | undefined)?.messages ?? [];
  const at = messages.findLastIndex((m) => m.role === 'user' && /NATIVE-\d/.test(JSON.stringify(m.content)));
  if (at < 0) return { text: 'ok' };
  const which = /NATIVE-(\d)/.exec(JSON.stringify(messages[at]!.content))![1]!;
  const step = messages.slice(at + 1).filter((m) => m.role === 'tool').length;
  const call = NATIVE_WORK[which]?.[step];
  return call ? { toolCalls: [call] } : { text: 'Done.' };
};

/** Each session's calls go to the wire its driver speaks. */
function router(codex: Move, opencode: Move): Move {
  return (request: RecordedRequest) => {
    if (isCodex(request)) return codex(request);
    if (request.path.endsWith('/chat/completions')) return nativeMove(request);
    return opencode(request);
  };
}

/** Allows the session's `count` cards as they come (the start card for the session), then waits for its turn to finish. */
async function allowCards(harness: Harness, id: string, count: number): Promise<string[]> {
  const kinds: string[] = [];
  let after = 0;
  for (let i = 0; i < count; i++) {
    const card = await harness.event(id, 'card', (c) => c.seq > after);
    after = card.seq;
    kinds.push(card.body.kind);
    const answer = card.body.kind === 'agent_start' ? 'allow_session' : 'allow_once';
    await harness.call('card.answer', { id, cardId: card.cardId, answer });
  }
  expect((await turnEnd(harness, id)).reason).toBe('finished');
  return kinds;
}

it('five sessions on one repository work at once in places of their own and apply back cleanly', async () => {
  let opencodeTurns: OpencodeCall[][] = [];
  const started = await startStagedCore(
    [CODEX, OPENCODE],
    router(
      codexScript(() => [CODEX_FIVE]),
      opencodeScript(() => opencodeTurns),
    ),
    NATIVE,
  );
  h = started.h;
  closeFake = () => started.fake.close();
  const harness = h;
  const origin = await personFolder(harness, true);

  const natives = await Promise.all(
    ['1', '2', '3'].map((n) => harness.call('sessions.open', { workspace: origin, title: `native ${n}`, place: {} })),
  );
  const codex = await openStaged(harness, CODEX, origin);
  const opencode = await openStaged(harness, OPENCODE, origin);
  opencodeTurns = [opencodeFive(opencode.place.path)];
  const places = [...natives.map((s) => s.place!), codex.place, opencode.place];
  expect(places.map((p) => p.kind)).toEqual(Array(5).fill('worktree'));
  expect(new Set(places.map((p) => p.branch)).size).toBe(5);
  expect(new Set(places.map((p) => p.path)).size).toBe(5);
  expect(git(origin, 'status', '--porcelain')).toBe('');

  // All five turns are under way before any card is answered: they run at the same time.
  for (const [i, s] of natives.entries()) {
    await harness.call('session.send', { id: s.id, text: `NATIVE-${i + 1} write your files` });
  }
  await harness.call('session.send', { id: codex.id, text: 'TURN-0 codex’s part' });
  await harness.call('session.send', { id: opencode.id, text: 'TURN-0 opencode’s part' });
  const cards = await Promise.all([
    ...natives.map((s, i) => allowCards(harness, s.id, NATIVE_WORK[String(i + 1)]!.length)),
    allowCards(harness, codex.id, 1),
    allowCards(harness, opencode.id, 1),
  ]);
  // The native runner's writes were cards; the staged agents' were not (only their start).
  expect(cards.slice(3)).toEqual([['agent_start'], ['agent_start']]);
  expect(cards.slice(0, 3).flat()).not.toContain('agent_start');
  expect(git(origin, 'status', '--porcelain')).toBe('');

  // Each review lists exactly its own session's files: none saw another's.
  const ids = [...natives.map((s) => s.id), codex.id, opencode.id];
  const reviews = await Promise.all(ids.map((id) => harness.call('session.review', { id })));
  expect(reviews.map((r) => r.files.map((f) => `${f.path}:${f.status}`))).toEqual([
    ['native-1.txt:ready', 'notes.txt:ready'],
    ['native-2.txt:ready'],
    ['docs/three.md:ready', 'native-3.txt:ready'],
    ['README.md:ready', 'codex-ran.txt:ready', 'codex.txt:ready'],
    ['opencode-ran.txt:ready', 'opencode.txt:ready'],
  ]);

  // All five apply at once.
  const outcomes = await Promise.all(
    ids.map((id, i) => harness.call('session.apply', { id, reviewId: reviews[i]!.reviewId, as: 'files' })),
  );
  for (const [i, outcome] of outcomes.entries()) {
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.failed).toEqual([]);
    expect([...outcome.applied].sort()).toEqual(reviews[i]!.files.map((f) => f.path).sort());
  }
  expect(git(origin, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort()).toEqual([
    ' M README.md',
    ' M notes.txt',
    '?? codex-ran.txt',
    '?? codex.txt',
    '?? docs/three.md',
    '?? native-1.txt',
    '?? native-2.txt',
    '?? native-3.txt',
    '?? opencode-ran.txt',
    '?? opencode.txt',
  ]);
  expect(await fs.readFile(path.join(origin, 'notes.txt'), 'utf8')).toBe('first line, edited by one\nsecond line\n');
  expect(await fs.readFile(path.join(origin, 'README.md'), 'utf8')).toBe('# the person’s project, retitled by codex\n');

  // All five places go; the person's repository keeps no worktree and no gatehouse branch.
  await Promise.all(ids.map((id) => harness.call('session.discardPlace', { id })));
  expect(git(origin, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  expect(git(origin, 'branch', '--list', 'gatehouse/*')).toBe('');
}, 90_000);
