/**
 * The whole frame with one session whose history was masked, summarised and given a smaller
 * window, for checking the context meter, the transcript's dividers and "What the model
 * sees" in Chromium (test/look/look-context.ts). `?parts=600` makes the preview that long;
 * `?full=1` starts the meter past 80%. Not a unit test: vitest never loads it.
 */
import { createRoot } from 'react-dom/client';
import type { ContextPart, ContextPreview } from '../../../../shared/context-preview';
import type { EventPayload } from '../../../../shared/events';
import { App } from '../../../../renderer/src/App';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { createAppStore, StoreProvider } from '../../../../renderer/src/store/app-store';
import '../../../../renderer/src/styles/theme.css';
import '../../../../renderer/src/styles/boxes.css';
import '../../../../renderer/src/styles/app.css';
import { createFakeApi, eventsFrom, summaryOf } from '../fake-api';

const params = new URLSearchParams(location.search);
const full = params.get('full') === '1';
const manyParts = Number(params.get('parts') ?? '0');

const usage = (
  turnId: string,
  inputTokens: number,
  cacheReadTokens: number,
  cost: number | null,
  contextWindow = 200_000,
): EventPayload => ({
  type: 'usage',
  turnId,
  purpose: 'step',
  model: 'anthropic:claude-sonnet-4-5',
  inputTokens,
  outputTokens: 1_400,
  cacheReadTokens,
  cacheWriteTokens: 3_000,
  requestBytes: inputTokens * 3.6,
  contextWindow,
  cost,
});

const SUMMARY = `The user asked to fix the failing tests in src/api.
Decisions: keep the public API of limit(); the cap moves to config.
Files touched: src/api/server.ts, src/api/limit.ts, test/api/limit.test.ts.
Left to do: run the whole suite; update the README's config table.
(An injected line stays text: <script>alert("x")</script>)`;

const payloads: EventPayload[] = [
  { type: 'user_message', messageId: 'm1', text: 'The tests in src/api fail since yesterday. Please fix them.' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
  { type: 'assistant_text', turnId: 't1', text: 'I will read **src/api/server.ts** first.' },
  { type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'read_file', args: { path: 'src/api/server.ts' } },
  {
    type: 'tool_result',
    turnId: 't1',
    toolCallId: 'c1',
    tool: 'read_file',
    ok: true,
    output: 'export const server = 1;\n',
  },
  usage('t1', 48_000, 41_000, 0.11),
  usage('t1', 96_000, 88_000, 0.14),
  {
    type: 'context_masked',
    turnId: 't1',
    throughSeq: 5,
    results: 14,
    tokensBefore: 84_000,
    tokensAfter: 41_000,
  },
  usage('t1', 160_000, 150_000, 0.17),
  { type: 'turn_ended', turnId: 't1', reason: 'finished' },
  { type: 'user_message', messageId: 'm2', text: 'Now update the README too.' },
  { type: 'turn_started', turnId: 't2', messageId: 'm2' },
  {
    type: 'compaction',
    turnId: 't2',
    fromSeq: 1,
    toSeq: 10,
    summary: SUMMARY,
    trigger: 'user',
    instructions: 'keep the failing test names',
    tokensBefore: 84_000,
    tokensAfter: 9_000,
  },
  {
    type: 'context_window',
    turnId: 't2',
    model: 'anthropic:claude-sonnet-4-5',
    tokens: 100_000,
    reason: 'prompt is too long: 120000 tokens > 100000 maximum',
  },
  usage('t2', full ? 86_000 : 52_000, 40_000, null, 100_000),
  { type: 'assistant_text', turnId: 't2', text: 'The README now lists the `limit` setting.' },
  { type: 'turn_ended', turnId: 't2', reason: 'finished' },
];

function part(over: Partial<ContextPart> & Pick<ContextPart, 'label'>): ContextPart {
  return { kind: 'message', role: 'user', text: '', bytes: 400, tokens: 110, ...over };
}

const parts: ContextPart[] = [
  part({
    kind: 'system',
    role: undefined,
    label: 'system prompt',
    text: 'You are Gatehouse’s coding agent. You work in /home/me/src/api…',
    tokens: 1_840,
    breakpoint: true,
  }),
  ...['read_file', 'write_file', 'list_dir', 'grep', 'run', 'ask_user'].map((name, i) =>
    part({
      kind: 'tool',
      role: undefined,
      label: name,
      text: JSON.stringify({ name, description: `The ${name} tool.`, parameters: { type: 'object' } }, null, 2),
      tokens: 240 + i * 13,
    }),
  ),
  part({ kind: 'summary', label: 'summary of earlier history', text: SUMMARY, tokens: 9_000, breakpoint: true }),
  part({ label: 'user message', text: 'Now update the README too.', tokens: 12, seqs: [11, 11] }),
  part({
    role: 'tool',
    label: 'read_file result',
    text: '[An older result, hidden to save room: call read_file on README.md again to see it.]',
    masked: true,
    bytes: 48_000,
    tokens: 24,
    seqs: [14, 15],
  }),
  part({
    role: 'assistant',
    label: 'assistant message',
    text: 'The README now lists the `limit` setting.',
    tokens: 18,
    breakpoint: true,
    seqs: [16, 16],
  }),
  ...Array.from({ length: manyParts }, (_, i) =>
    part({
      role: i % 2 ? 'assistant' : 'tool',
      label: `message ${i + 1}`,
      text: `body ${i + 1}`,
      seqs: [20 + i, 20 + i],
    }),
  ),
];

const preview: ContextPreview = {
  model: 'anthropic:claude-sonnet-4-5',
  window: 100_000,
  outputReserve: 32_000,
  tokens: 11_602,
  tokensPerByte: 0.28,
  calibrated: true,
  parts,
  pending: full ? 'The next step first hides 6 older tool results (about 30k tokens).' : null,
};

const fake = createFakeApi();
fake.reply('session.context', preview);
fake.reply('models.catalog', {
  date: '2026-11-30',
  source: '@pydantic/genai-prices 0.1.8',
  models: [],
});
fake.respond(
  'session.compact',
  () =>
    new Promise((resolve) =>
      setTimeout(() => resolve({ ok: true, data: { tokensBefore: 84_000, tokensAfter: 9_000 } }), 2500),
    ),
);

const store = createAppStore(window.localStorage);
const summary = summaryOf({ id: 'a', title: 'fix tests', workspace: '/home/me/src/api' });
store.getState().setSummaries([summary]);
store.getState().sessionLoaded(summary, eventsFrom(1, payloads));
store.getState().openTab('a');

document.body.style.margin = '0';
createRoot(document.getElementById('root') as HTMLElement).render(
  <ApiProvider api={fake.api}>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </ApiProvider>,
);
