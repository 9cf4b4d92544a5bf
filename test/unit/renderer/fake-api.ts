/**
 * A recording fake of the renderer's one `api` object, for component and store tests.
 * Every call is recorded and answered from a per-call reply (data, an error, or a function
 * of the request); pushes and connection changes are emitted by the test.
 *
 *   const fake = createFakeApi();
 *   fake.reply('sessions.list', [summary]);
 *   fake.fail('session.send', 'no model');
 *   render(<ApiProvider api={fake.api}>…</ApiProvider>);
 *   fake.push({ name: 'session.event', payload: { id, event } });
 *   expect(fake.requestsOf('card.answer')).toEqual([{ id, cardId, answer: 'deny' }]);
 *
 * Keep this shape stable: the cards, transcript and frame tests all build on it.
 */
import {
  CALL_NAMES,
  type CallName,
  type CallRequest,
  type CallResponses,
  type McpOverview,
  type Push,
  type Reply,
  type SessionSummary,
  type SettingsView,
} from '../../../shared/contract';
import type { AgentId, AgentListing } from '../../../shared/agents';
import type { ContextPreview } from '../../../shared/context-preview';
import type { EventPayload, SessionEvent } from '../../../shared/events';
import type { ModelCatalog } from '../../../shared/model-facts';
import type { ConnectionState, RendererApi } from '../../../renderer/src/api/types';

export interface RecordedCall {
  name: CallName;
  request: unknown;
}

type Responder<N extends CallName> =
  | { kind: 'data'; data: CallResponses[N] }
  | { kind: 'error'; error: string }
  | { kind: 'fn'; fn: (request: CallRequest<N>) => Reply<CallResponses[N]> | Promise<Reply<CallResponses[N]>> };

export interface FakeApiOptions {
  /** Give the api an onConnection (the web host's transport). Default true. */
  connection?: boolean;
  /** Give the api a getPathForFile (Electron's preload). Default: absent, as in a browser. */
  getPathForFile?: (file: File) => string;
}

export interface FakeApi {
  /** The object to hand to <ApiProvider api={…}>. */
  api: RendererApi;
  /** Every call made, in order. */
  calls: RecordedCall[];
  /** The requests made to one call, in order. */
  requestsOf<N extends CallName>(name: N): CallRequest<N>[];
  /** From now on, `name` answers `{ok: true, data}`. */
  reply<N extends CallName>(name: N, data: CallResponses[N]): void;
  /** From now on, `name` answers `{ok: false, error}`. */
  fail(name: CallName, error: string): void;
  /** From now on, `name` answers with what `fn` returns for each request. */
  respond<N extends CallName>(
    name: N,
    fn: (request: CallRequest<N>) => Reply<CallResponses[N]> | Promise<Reply<CallResponses[N]>>,
  ): void;
  /** Delivers a push to every subscriber. */
  push(push: Push): void;
  /** Tells every onConnection listener about a connection change. */
  setConnection(state: ConnectionState): void;
  /** How many push subscribers are attached now. */
  subscriberCount(): number;
}

export const SETTINGS_NONE: SettingsView = {
  model: null,
  keys: { anthropic: null, openai: null, 'openai-compatible': null },
  problem: null,
  notifications: false,
  keyStorage: 'os',
};

/** The default `models.catalog` answer: a table that knows no model (tests reply with their own). */
export const CATALOG_EMPTY: ModelCatalog = { date: '2026-11-30', source: 'test-table@0.0.0', models: [] };

/** The default `session.context` answer: a session with no model and nothing to send yet. */
export const PREVIEW_EMPTY: ContextPreview = {
  model: null,
  window: 128_000,
  outputReserve: 8_000,
  tokens: 0,
  tokensPerByte: 0.25,
  calibrated: false,
  parts: [],
  pending: null,
};

export function summaryOf(overrides: Partial<SessionSummary> & { id: string }): SessionSummary {
  return {
    title: overrides.id,
    workspace: '/home/me/src/project',
    status: 'idle',
    model: null,
    createdAt: '2026-12-03T04:00:00.000Z',
    updatedAt: '2026-12-03T04:00:00.000Z',
    waiting: 0,
    ...overrides,
  };
}

/** The default `mcp.*` answer: a session with no MCP servers and a clean config. */
export const MCP_NONE: McpOverview = { servers: [], problems: [], userConfig: '/home/me/.config/gatehouse/mcp.json' };

/** One agent as Settings → Agents lists it: Claude Code, not installed, unless overridden. */
export function agentListing(overrides: Partial<AgentListing> & { id: AgentId }): AgentListing {
  const known: Record<AgentId, Pick<AgentListing, 'label' | 'keyVariable' | 'domains'>> = {
    'claude-code': { label: 'Claude Code', keyVariable: 'ANTHROPIC_API_KEY', domains: ['api.anthropic.com'] },
    'gemini-cli': {
      label: 'Gemini CLI',
      keyVariable: 'GEMINI_API_KEY',
      domains: ['generativelanguage.googleapis.com'],
    },
    codex: { label: 'Codex', keyVariable: 'OPENAI_API_KEY', domains: ['api.openai.com'] },
    opencode: { label: 'opencode', keyVariable: 'OPENAI_API_KEY', domains: [] },
  };
  return { ...known[overrides.id], pinned: '0.10.0', installed: null, gated: true, keySet: false, ...overrides };
}

let nextMessage = 1;

function defaultData(name: CallName, request: Record<string, unknown>): unknown {
  switch (name) {
    case 'sessions.list':
      return [];
    case 'sessions.open':
      return summaryOf({ id: `s-${String(request.workspace)}`, workspace: String(request.workspace) });
    case 'session.state':
      return { summary: summaryOf({ id: String(request.id) }), events: [] satisfies SessionEvent[] };
    case 'session.events':
      return { events: [] };
    case 'session.send':
      return { messageId: `m${nextMessage++}`, status: 'started' };
    case 'session.cancel':
      return { cancelled: true, returned: [] };
    case 'session.unqueue':
      return { removed: true };
    case 'session.takeReturned':
      return { messages: [] };
    case 'card.answer':
      return { cardId: request.cardId, answer: request.answer, edited: request.edited !== undefined };
    case 'card.proposal':
      return { path: '', text: '', bytes: 0 };
    case 'card.preview':
      // Tests that follow the diff reply with their own; this one only says the text is not the proposal.
      return {
        diff: '',
        diffTruncated: false,
        diffBytes: 0,
        editedBytes: new TextEncoder().encode(String(request.text)).length,
        sameAsProposal: false,
      };
    case 'card.edits':
      return { path: '', diff: '', diffTruncated: false, diffBytes: 0, proposalBytes: 0, editedBytes: 0 };
    case 'question.answer':
      return { questionId: request.questionId };
    case 'folders.complete':
      return { folders: [] };
    case 'settings.get':
    case 'settings.set':
      return SETTINGS_NONE;
    case 'settings.test':
      return { outcome: 'works', message: `Works: ${(request.model as { modelId: string }).modelId} answered.` };
    case 'models.catalog':
      return CATALOG_EMPTY;
    case 'session.context':
      return PREVIEW_EMPTY;
    case 'session.compact':
      return { tokensBefore: 0, tokensAfter: 0 };
    case 'mcp.list':
    case 'mcp.restart':
    case 'mcp.setEnabled':
      return MCP_NONE;
    case 'session.changes':
      return { files: [], undo: { ok: true } };
    case 'agents.list':
      return { agents: [] };
    case 'agents.install':
      return { version: '0.0.0' };
    case 'agents.remove':
      return { removed: true };
    case 'agents.setDomains':
      return { domains: request.domains };
    case 'session.undo':
    case 'session.redo':
    case 'session.rewind':
      return { seq: 0, restored: [], kept: [] };
    case 'session.place':
      return { place: null };
    case 'places.list':
      return { places: [] };
    case 'places.remove':
      return { removed: true };
    default:
      // Calls added to the contract later (terminal.*, app.*) answer an empty success.
      return {};
  }
}

export function createFakeApi(options: FakeApiOptions = {}): FakeApi {
  const calls: RecordedCall[] = [];
  const responders = new Map<CallName, Responder<CallName>>();
  const subscribers = new Set<(push: Push) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();

  async function answer(name: CallName, request: unknown): Promise<Reply<unknown>> {
    calls.push({ name, request });
    const responder = responders.get(name);
    if (!responder) return { ok: true, data: defaultData(name, (request ?? {}) as Record<string, unknown>) };
    if (responder.kind === 'data') return { ok: true, data: structuredClone(responder.data) };
    if (responder.kind === 'error') return { ok: false, error: responder.error };
    return responder.fn(request as never);
  }

  const api: Record<string, unknown> = {
    subscribe(listener: (push: Push) => void) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
  };
  for (const name of CALL_NAMES) api[name] = (request: unknown) => answer(name, request);
  if (options.connection !== false) {
    api.onConnection = (listener: (state: ConnectionState) => void) => {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    };
  }
  if (options.getPathForFile) api.getPathForFile = options.getPathForFile;

  return {
    api: api as RendererApi,
    calls,
    requestsOf<N extends CallName>(name: N) {
      return calls.filter((c) => c.name === name).map((c) => c.request as CallRequest<N>);
    },
    reply(name, data) {
      responders.set(name, { kind: 'data', data } as Responder<CallName>);
    },
    fail(name, error) {
      responders.set(name, { kind: 'error', error });
    },
    respond(name, fn) {
      responders.set(name, { kind: 'fn', fn } as unknown as Responder<CallName>);
    },
    push(push) {
      for (const listener of [...subscribers]) listener(push);
    },
    setConnection(state) {
      for (const listener of [...connectionListeners]) listener(state);
    },
    subscriberCount: () => subscribers.size,
  };
}

/** Events with seq and ts filled in, numbered from `firstSeq`. */
export function eventsFrom(firstSeq: number, payloads: EventPayload[]): SessionEvent[] {
  return payloads.map(
    (p, i) => ({ ...p, seq: firstSeq + i, ts: new Date(Date.UTC(2026, 11, 3, 4, 0, i)).toISOString() }) as SessionEvent,
  );
}
