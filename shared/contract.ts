/**
 * The one typed contract between the renderer and the app. The Electron preload and the
 * web host's WebSocket client both build `window.gatehouse` from this list; the core's
 * host implements it once. Every request is checked against its schema at the boundary,
 * and every reply is `{ ok: true, data }` or `{ ok: false, error }`.
 */
import { z } from 'zod';
import './zod-jitless.js';
import type { EditPreview, EditsDiff } from './card-edits.js';
import type { DiffBase } from './diff/edit-preview.js';
import type { Answer } from './cards.js';
import { AGENT_IDS, type AgentListing, type AgentProgress, type SessionAgent } from './agents.js';
import type { ChangesView, RestoreOutcome } from './checkpoints.js';
import type { PlaceApplyReply, PlaceListing, PlaceReview, SessionPlace } from './places.js';
import type { ContextPreview } from './context-preview.js';
import type { SessionEvent } from './events.js';
import type { ModelCatalog } from './model-facts.js';
import type { QueuedMessage, SessionStatus } from './reducer.js';
import { TERMINAL_MAX_CELLS, TERMINAL_WRITE_MAX_CHARS, WRITE_MAX_BYTES } from './limits.js';

/** Longest message a person can send in one go (a pasted log is fine; a 10 MB blob is not). */
export const MESSAGE_MAX_CHARS = 200_000;

const id = z.string().min(1).max(200);
/**
 * The person's whole edited file. A character is at least one UTF-8 byte, so this bounds the
 * payload; the gate checks the exact byte size against WRITE_MAX_BYTES, as for a proposal.
 */
const editedText = z
  .string()
  .max(WRITE_MAX_BYTES, `the edited file is over ${WRITE_MAX_BYTES} characters; writes are limited to 256 KiB`);
/** A workspace-relative path as the checkpoints name it. */
const relPath = z.string().min(1).max(4096);
const cells = z.int().min(1).max(TERMINAL_MAX_CELLS);
const agentId = z.enum(AGENT_IDS, { error: `agent must be one of: ${AGENT_IDS.join(', ')}` });

/** How many hosts one agent may reach, and how long one name may be (DNS allows 253). */
export const AGENT_DOMAINS_MAX = 50;
export const AGENT_DOMAIN_MAX_CHARS = 253;

export const providerSchema = z.enum(['anthropic', 'openai', 'openai-compatible'], {
  error: 'provider must be one of: anthropic, openai, openai-compatible',
});
export type Provider = z.infer<typeof providerSchema>;

export const modelConfigSchema = z
  .strictObject({
    provider: providerSchema,
    modelId: z.string().trim().min(1, 'modelId must not be empty').max(200),
    baseURL: z.url({ protocol: /^https?$/, error: 'baseURL must be an http:// or https:// URL' }).optional(),
    /** Anthropic requires an output cap; for model ids the SDK does not know it would guess one. */
    maxOutputTokens: z.int().positive().optional(),
    /** The model's context window, for a model the table lacks (or to override it). */
    contextWindow: z.int().min(1024, 'contextWindow must be at least 1024 tokens').max(100_000_000).optional(),
    /** Prices in USD per million tokens, for a model the table lacks (or to override it). */
    prices: z
      .strictObject({
        input: z.number().min(0).max(10_000),
        output: z.number().min(0).max(10_000),
        cacheRead: z.number().min(0).max(10_000).optional(),
        cacheWrite: z.number().min(0).max(10_000).optional(),
      })
      .optional(),
  })
  .superRefine((config, ctx) => {
    if (config.provider === 'openai-compatible' && config.baseURL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseURL'],
        message: 'an openai-compatible provider needs a baseURL, e.g. http://127.0.0.1:11434/v1 for Ollama',
      });
    }
  });
export type ModelConfig = z.infer<typeof modelConfigSchema>;

export const requestSchemas = {
  'sessions.list': z.strictObject({}),
  /** `agent`: an installed external agent drives the session instead of Gatehouse's own (SPEC §14). */
  'sessions.open': z.strictObject({
    workspace: z.string().min(1).max(4096),
    title: z.string().max(200).optional(),
    agent: agentId.optional(),
    /**
     * A place of its own (SPEC §15): a git worktree on a new branch from `base` (a commit or
     * branch name; HEAD when absent), or a copy of a folder that is not a repository.
     */
    place: z.strictObject({ base: z.string().min(1).max(256).optional() }).optional(),
  }),
  'session.state': z.strictObject({ id }),
  'session.events': z.strictObject({ id, sinceSeq: z.number().int().min(0) }),
  'session.send': z.strictObject({
    id,
    text: z
      .string()
      .trim()
      .min(1, 'message is empty')
      .max(MESSAGE_MAX_CHARS, `message is longer than ${MESSAGE_MAX_CHARS} characters`),
  }),
  'session.cancel': z.strictObject({ id }),
  /** Takes a message out of the queue before its turn starts. */
  'session.unqueue': z.strictObject({ id, messageId: id }),
  /** The composer took back the messages a cancel returned; they leave `returned`. */
  'session.takeReturned': z.strictObject({ id }),
  /**
   * `edited`: the whole file as the person edited it on a write card (SPEC §13). An edited
   * write is allowed once only, so edits go with allow_once and nothing else.
   */
  'card.answer': z
    .strictObject({
      id,
      cardId: id,
      answer: z.enum(['allow_once', 'allow_session', 'deny']),
      edited: editedText.optional(),
    })
    .refine((req) => req.edited === undefined || req.answer === 'allow_once', {
      message:
        'edits go only with allow_once: an edited write is allowed once, never for the session, and a deny writes nothing',
      path: ['edited'],
    }),
  /** A write card's diff rebuilt with the person's text in place of the proposal, as they type. */
  'card.preview': z.strictObject({ id, cardId: id, text: editedText }),
  /** For a write allowed with edits: the model's proposal against what was written. */
  'card.edits': z.strictObject({ id, cardId: id }),
  /** What the model sees: the exact context of the session's next step, with token counts. */
  'session.context': z.strictObject({ id }),
  /** Summarise the history now (before the next step when a turn is running), keeping what the instructions ask. */
  'session.compact': z.strictObject({
    id,
    instructions: z.string().trim().max(4000, 'instructions are longer than 4000 characters').optional(),
  }),
  /** The bundled table of known models, for the Settings picker. */
  'models.catalog': z.strictObject({}),
  /** The whole proposed content of a write card (the card itself carries at most a bounded diff). */
  'card.proposal': z.strictObject({ id, cardId: id }),
  'question.answer': z.strictObject({ id, questionId: id, text: z.string().max(MESSAGE_MAX_CHARS) }),
  /** Folders (never files) whose name starts with the typed path's last segment; `~` is home. */
  'folders.complete': z.strictObject({ prefix: z.string().min(1, 'prefix is empty').max(4096) }),
  'settings.get': z.strictObject({}),
  'settings.set': z.strictObject({
    model: modelConfigSchema.nullable().optional(),
    key: z.strictObject({ provider: providerSchema, value: z.string().max(1000).nullable() }).optional(),
    /** OS notifications when a card or question goes up (the desktop app only). */
    notifications: z.boolean().optional(),
    /** "Refuse commands that cannot be confined": where no sandbox runs, a command is refused instead of carded. */
    refuseUnconfined: z.boolean().optional(),
    /** Folders confined commands see read-only besides the toolchains (absolute or ~/), the whole list. */
    shownPlaces: z.array(z.string().max(4096)).max(64).optional(),
    /** The checkpoint store's limit per workspace, in bytes (SPEC §12): 64 MiB to 1 TiB. */
    checkpointLimitBytes: z
      .int()
      .min(64 * 1024 * 1024, 'the checkpoint limit must be at least 64 MiB')
      .max(1024 ** 4, 'the checkpoint limit must be at most 1 TiB')
      .optional(),
  }),
  /** Settings' Test connection: one tiny request with this model setting, saved or not; never saves it. */
  'settings.test': z.strictObject({ model: modelConfigSchema }),
  /** Which session tab the user is looking at, and whether the window is visible and focused. */
  'app.activeSession': z.strictObject({ id: id.nullable(), visible: z.boolean() }),
  'mcp.list': z.strictObject({ id }),
  'mcp.restart': z.strictObject({ id, server: z.string().min(1).max(64) }),
  'mcp.setEnabled': z.strictObject({ id, server: z.string().min(1).max(64), enabled: z.boolean() }),
  /** Every file a turn (or one call of it) changed, as diffs (SPEC §12). Neither id: the session's last turn that changed files. */
  'session.changes': z.strictObject({ id, turnId: id.optional(), toolCallId: id.optional() }),
  /**
   * Takes back a turn's changes, or only `paths` of them (Revert). A file changed since
   * the turn is left alone unless it is in `overwrite` (the person ticked it).
   */
  'session.undo': z.strictObject({
    id,
    turnId: id,
    paths: z.array(relPath).min(1).max(10_000).optional(),
    overwrite: z.array(relPath).max(10_000).optional(),
  }),
  /** Brings back what the latest undo not yet redone took back. */
  'session.redo': z.strictObject({ id, overwrite: z.array(relPath).max(10_000).optional() }),
  /** Rewinds to the user message logged at seq: its turn's code, the conversation from it on, or both. */
  'session.rewind': z.strictObject({
    id,
    seq: z.int().min(1),
    restore: z.enum(['code', 'conversation', 'both'], { error: 'restore must be one of: code, conversation, both' }),
    overwrite: z.array(relPath).max(10_000).optional(),
  }),
  /** The session's one shell, in its workspace (the same live one when opened again). Not gated: it is the user's. */
  'terminal.open': z.strictObject({ id }),
  'terminal.write': z.strictObject({
    terminalId: id,
    data: z.string().max(TERMINAL_WRITE_MAX_CHARS, `data is longer than ${TERMINAL_WRITE_MAX_CHARS} characters`),
  }),
  'terminal.resize': z.strictObject({ terminalId: id, cols: cells, rows: cells }),
  /** Kills the shell and what it started. */
  'terminal.close': z.strictObject({ terminalId: id }),
  /** The session's place of its own, or null when it works in the person's folder (SPEC §15). */
  'session.place': z.strictObject({ id }),
  /** The place's whole change against its base, file by file, checked against the person's folder now. */
  'session.review': z.strictObject({ id }),
  /**
   * Applies the reviewed change (or `paths` of it) to the person's folder, each file checked
   * against the digest the review recorded; `commit` also makes one commit on their branch.
   */
  'session.apply': z.strictObject({
    id,
    reviewId: id,
    as: z.enum(['files', 'commit'], { error: 'as must be one of: files, commit' }),
    paths: z.array(relPath).min(1).max(10_000).optional(),
    message: z.string().trim().min(1).max(2000).optional(),
  }),
  /** Removes the place (and a worktree's branch unless `keepBranch`). The session stays, read-only. */
  'session.discardPlace': z.strictObject({ id, keepBranch: z.boolean().optional() }),
  /** Settings → Places: every place in the data folder with its size, orphans among them. */
  'places.list': z.strictObject({}),
  /** Removes a place whose session is gone (an orphan); a live session's place goes with session.discardPlace. */
  'places.remove': z.strictObject({ path: z.string().min(1).max(4096) }),
  /** Settings → Agents: each agent Gatehouse knows, installed or not (SPEC §14). */
  'agents.list': z.strictObject({}),
  /** Installs (or updates to) the pinned version into the data folder; progress comes as `agents.progress`. */
  'agents.install': z.strictObject({ id: agentId }),
  /** Removes the installed agent; `home` also removes its private home (its own login and config). */
  'agents.remove': z.strictObject({ id: agentId, home: z.boolean().optional() }),
  /** The whole list of hosts the agent's process may reach through the proxy. The host checks each name. */
  'agents.setDomains': z.strictObject({
    id: agentId,
    domains: z
      .array(
        z
          .string()
          .min(1, 'a domain is empty')
          .max(AGENT_DOMAIN_MAX_CHARS, `a domain is longer than ${AGENT_DOMAIN_MAX_CHARS} characters`),
      )
      .max(AGENT_DOMAINS_MAX, `at most ${AGENT_DOMAINS_MAX} domains`),
  }),
} as const;

export type CallName = keyof typeof requestSchemas;
export type CallRequest<N extends CallName> = z.infer<(typeof requestSchemas)[N]>;

export interface SessionSummary {
  id: string;
  title: string;
  workspace: string;
  status: SessionStatus;
  model: ModelConfig | null;
  createdAt: string;
  updatedAt: string;
  /** Open cards plus an open question. */
  waiting: number;
  /** A summary of the history is being written now (the session.compacting push says when it starts and ends). */
  compacting?: boolean;
  /** The external agent that drives the session, at the version it was opened with; absent: Gatehouse's own. */
  agent?: SessionAgent;
  /** The place of its own it works in (SPEC §15); absent: the person's folder. */
  place?: SessionPlace;
}

export interface SettingsView {
  model: ModelConfig | null;
  /** Whether a key is available per provider, and from where. The key itself never leaves the main process. */
  keys: Record<Provider, 'env' | 'settings' | null>;
  /** Plain words for the UI when no model can run yet. */
  problem: string | null;
  /** OS notifications for cards and questions are on. */
  notifications: boolean;
  /**
   * How a saved key is kept: 'os' encrypted by the OS keyring; 'plain-text' the OS offers
   * no keyring (Linux basic_text), so warn before storing; 'none' keys cannot be saved
   * here, use the environment.
   */
  keyStorage: 'os' | 'plain-text' | 'none';
  /** The user's home folder, so paths under it can be shown as ~ (a card's sandbox line). */
  home?: string;
  /**
   * Whether commands can be confined here (SPEC §9); when not, why ("bubblewrap (bwrap)
   * is not installed") and what to install. Always set by the core.
   */
  sandbox?: { available: true } | { available: false; reason: string; fix: string };
  /** "Refuse commands that cannot be confined" is on. Always set by the core. */
  refuseUnconfined?: boolean;
  /**
   * Checkpoints (SPEC §12): the limit per workspace and each workspace's store size, or
   * why undo is off here (no git). Always set by the core.
   */
  checkpoints?:
    | { available: true; limitBytes: number; stores: { workspace: string; bytes: number }[] }
    | { available: false; reason: string; fix: string; limitBytes: number };
  /** What confined commands see of the home folder: the toolchains found here, and what the person added. */
  shown?: { toolchains: string[]; added: string[] };
}

/**
 * What Test connection found, in words for the person (never a key or a URL's credentials).
 * `no_answer`: nothing came back before the test's timeout; `failed`: anything else, in the
 * chat client's own words.
 */
export interface ConnectionTest {
  outcome: 'works' | 'key_refused' | 'model_not_found' | 'unreachable' | 'no_answer' | 'failed';
  message: string;
}

export interface CallResponses {
  'sessions.list': SessionSummary[];
  'sessions.open': SessionSummary;
  'session.state': { summary: SessionSummary; events: SessionEvent[] };
  'session.events': { events: SessionEvent[] };
  'session.send': { messageId: string; status: 'started' | 'queued' };
  'session.cancel': { cancelled: boolean; returned: QueuedMessage[] };
  'card.answer': { cardId: string; answer: Answer; edited: boolean };
  'card.preview': EditPreview;
  'card.edits': EditsDiff;
  'session.context': ContextPreview;
  'session.compact': { tokensBefore: number; tokensAfter: number };
  'models.catalog': ModelCatalog;
  /**
   * `edited`: the person's edits kept from the card this one re-asks after, for the editor to
   * start from. `diffBase`: while the card is open, the other side of its diff as text, so the
   * editor rebuilds the diff as the person types; absent when the file on disk is not UTF-8
   * text or is over the write limit (card.preview rebuilds it then).
   */
  'card.proposal': {
    path: string;
    text: string;
    bytes: number;
    edited?: { text: string; bytes: number };
    diffBase?: DiffBase;
  };
  'session.unqueue': { removed: true };
  'session.takeReturned': { messages: QueuedMessage[] };
  'folders.complete': { folders: string[] };
  'question.answer': { questionId: string };
  'settings.get': SettingsView;
  'settings.set': SettingsView;
  'settings.test': ConnectionTest;
  'terminal.open': { terminalId: string };
  'terminal.write': Record<string, never>;
  'terminal.resize': { cols: number; rows: number };
  'terminal.close': { closed: true };
  'app.activeSession': { id: string | null; visible: boolean };
  'session.changes': ChangesView;
  'session.undo': RestoreOutcome;
  'session.redo': RestoreOutcome;
  'session.rewind': RestoreOutcome;
  'mcp.list': McpOverview;
  'mcp.restart': McpOverview;
  'mcp.setEnabled': McpOverview;
  'agents.list': { agents: AgentListing[] };
  'agents.install': { version: string };
  'agents.remove': { removed: true };
  'agents.setDomains': { domains: string[] };
  'session.place': { place: SessionPlace | null };
  'session.review': PlaceReview;
  'session.apply': PlaceApplyReply;
  'session.discardPlace': { place: SessionPlace };
  'places.list': { places: PlaceListing[] };
  'places.remove': { removed: true };
}

/**
 * An MCP server of one session, as Settings lists it (SPEC §10). `asking`: its start
 * card is open; `not_allowed`: its start card was denied; `failed`: it could not start,
 * or stopped (with its stderr's tail); `stopped`: not started yet, or stopped with the session.
 */
export type McpServerState = 'stopped' | 'asking' | 'starting' | 'ready' | 'failed' | 'not_allowed' | 'disabled';

export interface McpServerStatus {
  name: string;
  scope: 'workspace' | 'user';
  /** The file that names it. */
  source: string;
  transport: 'stdio' | 'http';
  /** The argv joined (stdio) or the URL (http). */
  target: string;
  state: McpServerState;
  /** The tools it offers, as the model names them (mcp__<server>__<tool>). */
  tools: string[];
  /** Why it failed or is unavailable, in plain words. */
  error?: string;
  /** The last lines it wrote to stderr. */
  stderrTail?: string;
  /** For a stdio server: whether it runs confined (with network), or why not, in words. */
  confinement?: string;
  /** For a stdio server: it runs in the command sandbox. */
  confined?: boolean;
}

/** A session's MCP servers, and what was wrong with their config files. */
export interface McpOverview {
  servers: McpServerStatus[];
  problems: { source: string; server?: string; message: string }[];
  /** Where the user's own servers are configured. */
  userConfig: string;
}

export type Reply<T> = { ok: true; data: T } | { ok: false; error: string };

/** Pushed from the app to the renderer. Only `session.event` is on disk; the rest are UI-only. */
export interface PushEvents {
  /** Exactly the line that went into events.jsonl. */
  'session.event': { id: string; event: SessionEvent };
  /**
   * Streamed assistant text, not written to disk (the whole text is, as assistant_text).
   * `reset` drops what the current step streamed so far: a retried step streams afresh.
   */
  'session.delta': { id: string; turnId: string; text: string; reset?: boolean };
  /** Live output of a running command. */
  'session.output': { id: string; toolCallId: string; stream: 'stdout' | 'stderr'; chunk: string };
  'sessions.changed': { summary: SessionSummary };
  /** A summary of the session's history is being written (Compact now, or before a step), or is done. */
  'session.compacting': { id: string; compacting: boolean };
  /** A terminal's output, coalesced (TERMINAL_FLUSH_MS / TERMINAL_FLUSH_BYTES). */
  'terminal.output': { terminalId: string; data: string };
  /** The shell ended (exit, or killed by terminal.close); its id is forgotten. */
  'terminal.exit': { terminalId: string; exitCode: number; signal: number | null };
  /** The shell asks the renderer to show this session's tab (a tray or notification click). */
  'app.focusSession': { id: string };
  /** A session's MCP servers changed state; ask mcp.list for the new one. */
  'mcp.changed': { id: string };
  /** An agent's install, update or removal as it goes (Settings → Agents' progress bar). */
  'agents.progress': AgentProgress;
}

export type PushName = keyof PushEvents;
export type Push = { [N in PushName]: { name: N; payload: PushEvents[N] } }[PushName];

export const CALL_NAMES = Object.keys(requestSchemas) as CallName[];

/** The API object the renderer sees, built by either transport from this contract. */
export type GatehouseApi = {
  [N in CallName]: (request: CallRequest<N>) => Promise<Reply<CallResponses[N]>>;
} & {
  subscribe(listener: (push: Push) => void): () => void;
};
