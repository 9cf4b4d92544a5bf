/**
 * The whole frame with one session driven by Claude Code, over a fake host, for the
 * agents' end-to-end test in Chromium (test/e2e/agents.e2e.ts): `?card=start` pins the
 * agent's start card; `?card=ask` shows the turn after it (a plan, the agent's own reads)
 * with the agent's own question pinned; `?settings=1` opens Settings on its Agents section,
 * where Install pushes progress and a host name with a slash is refused. Not a unit test.
 */
import { createRoot } from 'react-dom/client';
import { describeGrant, type CardBody } from '../../../../shared/cards';
import type { EventPayload } from '../../../../shared/events';
import { App } from '../../../../renderer/src/App';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { createAppStore, StoreProvider } from '../../../../renderer/src/store/app-store';
import '../../../../renderer/src/styles/theme.css';
import '../../../../renderer/src/styles/boxes.css';
import '../../../../renderer/src/styles/app.css';
import { agentAskBody, agentStartBody, grantOfBody, WORKSPACE } from '../components/cards/card-fixtures';
import { SETTINGS_NONE, agentListing, createFakeApi, eventsFrom, summaryOf } from '../fake-api';

const params = new URLSearchParams(location.search);

function card(turnId: string, cardId: string, body: CardBody): EventPayload {
  const grant = grantOfBody(body);
  return { type: 'card', turnId, toolCallId: `call-${cardId}`, cardId, body, grant, scope: describeGrant(grant) };
}

const started: EventPayload[] = [
  { type: 'user_message', messageId: 'm1', text: 'Why does the limit test fail? Check the fs docs if you need to.' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
  card('t1', 'k1', agentStartBody()),
];

const asking: EventPayload[] = [
  ...started,
  { type: 'card_answer', cardId: 'k1', answer: 'allow_session' },
  {
    type: 'plan',
    turnId: 't1',
    entries: [
      { content: 'Read the failing test', status: 'completed', priority: 'high' },
      { content: 'Check how writeFile treats flags', status: 'in_progress', priority: 'medium' },
      { content: 'Propose a fix', status: 'pending', priority: 'medium' },
    ],
  },
  {
    type: 'tool_call',
    turnId: 't1',
    toolCallId: 'a1',
    tool: 'agent_tool',
    args: { title: 'Read test/limit.test.ts', kind: 'read', locations: [{ path: 'test/limit.test.ts', line: 1 }] },
  },
  { type: 'tool_result', turnId: 't1', toolCallId: 'a1', tool: 'agent_tool', ok: true, output: '' },
  {
    type: 'tool_call',
    turnId: 't1',
    toolCallId: 'a2',
    tool: 'agent_tool',
    args: { title: 'grep "limit(" src', kind: 'search' },
  },
  { type: 'tool_result', turnId: 't1', toolCallId: 'a2', tool: 'agent_tool', ok: true, output: '' },
  { type: 'assistant_text', turnId: 't1', text: 'The test expects a cap of 20; I want to check the fs docs first.' },
  card('t1', 'k2', agentAskBody()),
];

const fake = createFakeApi();
let agents = [
  agentListing({ id: 'claude-code', installed: { version: '0.9.0' }, keySet: true }),
  agentListing({ id: 'gemini-cli' }),
  agentListing({ id: 'codex', gated: false, staged: 'works in a place of its own' }),
  agentListing({
    id: 'opencode',
    gated: false,
    unavailable: 'node is not on the PATH: install Node.js 22 or later to install agents',
  }),
];
fake.respond('agents.list', () => ({ ok: true, data: { agents } }));
// An install that stays on its way, so its bar can be seen; its progress is pushed at once.
fake.respond('agents.install', ({ id }) => {
  setTimeout(() =>
    fake.push({
      name: 'agents.progress',
      payload: { id, phase: 'downloading', fraction: 0.45, line: 'fetching 9 of 20 packages' },
    }),
  );
  return new Promise(() => {});
});
fake.respond('agents.setDomains', ({ id, domains }) => {
  const bad = domains.find((d) => !/^[a-z0-9.-]+$/i.test(d));
  if (bad !== undefined) return { ok: false, error: `"${bad}" is not a host name: give a name like api.example.com` };
  agents = agents.map((a) => (a.id === id ? { ...a, domains } : a));
  return { ok: true, data: { domains } };
});

const store = createAppStore(window.localStorage);
const summary = summaryOf({
  id: 'a',
  title: 'limit test',
  workspace: WORKSPACE,
  status: 'waiting',
  waiting: 1,
  agent: { id: 'claude-code', label: 'Claude Code', version: '0.10.0' },
});
store.getState().setSettings({ ...SETTINGS_NONE, home: '/home/me' });
store.getState().setSummaries([summary]);
store.getState().sessionLoaded(summary, eventsFrom(1, params.get('card') === 'ask' ? asking : started));
store.getState().openTab('a');
if (params.get('settings') === '1') store.getState().openDialog('settings');

document.body.style.margin = '0';
createRoot(document.getElementById('root') as HTMLElement).render(
  <ApiProvider api={fake.api}>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </ApiProvider>,
);
