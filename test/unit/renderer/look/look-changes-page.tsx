/**
 * The whole frame with one session whose turns changed files, one undone and one rewound,
 * for checking the look of checkpoints in Chromium (test/look/look-changes.ts): a call's
 * changed files and their diffs, a turn's Changes, Rewind, the dividers and Settings'
 * Checkpoints. Not a unit test: vitest never loads it.
 */
import { createRoot } from 'react-dom/client';
import { describeGrant, type CardBody } from '../../../../shared/cards';
import type { ChangedFile, ChangesView, FileChangeView } from '../../../../shared/checkpoints';
import type { EventPayload } from '../../../../shared/events';
import { App } from '../../../../renderer/src/App';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { createAppStore, StoreProvider } from '../../../../renderer/src/store/app-store';
import '../../../../renderer/src/styles/theme.css';
import '../../../../renderer/src/styles/boxes.css';
import '../../../../renderer/src/styles/app.css';
import { commandBody, grantOfBody, writeBody } from '../components/cards/card-fixtures';
import { createFakeApi, eventsFrom, SETTINGS_NONE, summaryOf } from '../fake-api';

const WS = '/home/me/src/calc';
const CALC: ChangedFile = { path: 'calc.py', change: 'modified', bytes: 1229 };
const REPORT: ChangedFile = { path: 'out/report.txt', change: 'added', bytes: 300 };
const OLD: ChangedFile = { path: 'old notes.txt', change: 'deleted', bytes: 5120 };
const FMT: ChangedFile = { path: 'tests/test_calc.py', change: 'modified', bytes: 880 };

const DIFFS: Record<string, string> = {
  'calc.py':
    '--- a/calc.py\n+++ b/calc.py\n@@ -1,6 +1,6 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n \n \n def mul(a, b):\n     return a * b\n',
  'out/report.txt': '--- /dev/null\n+++ b/out/report.txt\n@@ -0,0 +1,2 @@\n+total: 3\n+<script>alert(1)</script>\n',
  'old notes.txt': '--- a/old notes.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-remember the milk\n-and the bread\n',
  'tests/test_calc.py':
    '--- a/tests/test_calc.py\n+++ b/tests/test_calc.py\n@@ -1 +1 @@\n-assert add(1,2)==3\n+assert add(1, 2) == 3\n',
};

function card(toolCallId: string, cardId: string, body: CardBody, turnId: string): EventPayload {
  const grant = grantOfBody(body);
  return { type: 'card', turnId, toolCallId, cardId, body, grant, scope: describeGrant(grant) };
}

function call(turnId: string, id: string, tool: string, args: unknown, body: CardBody, changed: ChangedFile[]) {
  return [
    { type: 'tool_call', turnId, toolCallId: id, tool, args },
    card(id, `k-${id}`, body, turnId),
    { type: 'card_answer', cardId: `k-${id}`, answer: tool === 'run' ? 'allow_session' : 'allow_once' },
    { type: 'checkpoint', turnId, toolCallId: id, before: `b-${id}`, after: `a-${id}`, changed },
    { type: 'tool_result', turnId, toolCallId: id, tool, ok: true, output: 'ok' },
  ] as EventPayload[];
}

const write = writeBody({ tool: 'search_replace', path: `${WS}/calc.py` });
const payloads: EventPayload[] = [
  { type: 'user_message', messageId: 'm1', text: 'Fix the calculator and regenerate the report.' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
  { type: 'assistant_text', turnId: 't1', text: 'The **add** function subtracts. Fixing it, then the report.' },
  ...call('t1', 'c1', 'search_replace', { path: 'calc.py' }, write, [CALC]),
  ...call('t1', 'c2', 'run', { argv: ['python', 'gen.py'] }, commandBody(['python', 'gen.py'], { cwd: WS }), [
    REPORT,
    OLD,
  ]),
  ...call('t1', 'c3', 'run', { argv: ['python', '-m', 'pytest'] }, commandBody(['python', '-m', 'pytest']), []),
  { type: 'checkpoint', turnId: 't1', toolCallId: 'hook-1', before: 'h0', after: 'h1', changed: [FMT] },
  { type: 'turn_ended', turnId: 't1', reason: 'finished' },
  { type: 'user_message', messageId: 'm2', text: 'Now add a subtract function.' },
  { type: 'turn_started', turnId: 't2', messageId: 'm2' },
  ...call('t2', 'c4', 'search_replace', { path: 'calc.py' }, write, [CALC]),
  { type: 'turn_ended', turnId: 't2', reason: 'finished' },
  { type: 'undo', turnId: 't2', before: 'u0', after: 'u1', restored: [CALC], kept: [] },
  { type: 'user_message', messageId: 'm3', text: 'Also log every call to a file.' },
  { type: 'turn_started', turnId: 't3', messageId: 'm3' },
  { type: 'assistant_text', turnId: 't3', text: 'Adding a logging decorator.' },
  { type: 'turn_ended', turnId: 't3', reason: 'finished' },
];
const events = eventsFrom(1, payloads);
const m3 = events.find((e) => e.type === 'user_message' && e.messageId === 'm3')!.seq;
events.push(...eventsFrom(events.length + 1, [{ type: 'rewind', messageSeq: m3, restore: 'conversation' }]));

const view = (files: ChangedFile[], extra: Partial<ChangesView> = {}): ChangesView => ({
  files: files.map((f): FileChangeView => ({ ...f, diff: DIFFS[f.path] ?? null, diffTruncated: false })),
  undo: { ok: true },
  ...extra,
});

const fake = createFakeApi();
fake.respond('session.changes', (request) => {
  if (request.toolCallId === 'c1' || request.toolCallId === 'c4') return { ok: true, data: view([CALC]) };
  if (request.toolCallId === 'c2') return { ok: true, data: view([REPORT, OLD]) };
  if (request.toolCallId === 'hook-1') return { ok: true, data: view([FMT]) };
  const files = view([CALC, REPORT, OLD, FMT]).files.map((f) =>
    f.path === 'out/report.txt' ? { ...f, changedSince: 'changed_since' as const } : f,
  );
  return { ok: true, data: { files, undo: { ok: true }, turnId: request.turnId } };
});
fake.reply('settings.get', {
  ...SETTINGS_NONE,
  home: '/home/me',
  checkpoints: {
    available: true,
    limitBytes: 2 * 1024 ** 3,
    stores: [
      { workspace: WS, bytes: 14_680_064 },
      { workspace: '/home/me/src/web', bytes: 402_653_184 },
    ],
  },
});

const store = createAppStore(window.localStorage);
const summary = summaryOf({ id: 'a', title: 'calculator', workspace: WS });
store.getState().setSummaries([summary]);
store.getState().sessionLoaded(summary, events);
store.getState().openTab('a');
void fake.api['settings.get']({}).then((r) => r.ok && store.getState().setSettings(r.data));

document.body.style.margin = '0';
createRoot(document.getElementById('root') as HTMLElement).render(
  <ApiProvider api={fake.api}>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </ApiProvider>,
);
