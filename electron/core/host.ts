/**
 * The contract (shared/contract.ts), implemented once over the sessions and settings.
 * Both transports (Electron IPC, the web host's WebSocket) call `call(name, payload)`
 * after checking who sent it; this checks what was sent. Every reply is
 * `{ok: true, data}` or `{ok: false, error}`, and a rejected request changes nothing.
 */
import {
  requestSchemas,
  type CallName,
  type CallRequest,
  type CallResponses,
  type Push,
  type Reply,
  type SettingsView,
} from '../../shared/contract.js';
import type { z } from 'zod';
import type { EncryptedKeys } from './settings/encrypted-keys.js';
import type { Sandbox } from './sandbox/sandbox.js';
import type { AppSettings } from './settings/app-settings.js';
import type { Session } from './sessions/session.js';
import type { Sessions } from './sessions/sessions.js';
import type { Terminals } from './terminal/terminals.js';
import type { Attention } from './attention/attention.js';
import type { WorkspaceStores } from './checkpoints/workspace-stores.js';
import type { Pushes } from './pushes.js';
import { SettingsCalls } from './settings/settings-calls.js';
import { completeFolders } from './paths/folder-completion.js';
import { errorKindOf } from './error-kind.js';
import { modelCatalog } from './context/model-catalog.js';
import { quoteInput, visibleText } from './text/quoted-input.js';
import { AgentCallError, NO_AGENTS, type AgentCallsPort } from './agents/agent-calls-port.js';
import { sessionAgentOf } from './agents/session-agent-of.js';

export interface HostDeps {
  sessions: Sessions;
  settings: AppSettings;
  keys: EncryptedKeys;
  /** The terminal panel's shells (not gated: the user's own). */
  terminals: Terminals;
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home, which `~` means in folders.complete. */
  home: string;
  /** Called after a key was saved or removed. */
  onKeysChanged?: () => Promise<void>;
  /** Where app.activeSession and the notifications setting go (the shell's tray and notifications). */
  attention?: Attention;
  /** How the shell keeps saved keys; without it, 'os' when keys can be saved, else 'none'. */
  keyStorage?: SettingsView['keyStorage'];
  /** Where unexpected errors go (never the renderer's only clue: it gets the message too). */
  onUnexpected?: (err: unknown) => void;
  /** The commands' sandbox, for Settings to say whether it runs here and what to install. */
  sandbox: Sandbox;
  /** The core's pushes, which the sessions and shells emit into. */
  pushes: Pushes;
  /** The workspaces' checkpoint stores, for Settings' sizes and whether undo runs here. */
  checkpoints?: WorkspaceStores;
  /** External agents (SPEC §14): install, list, domains. Without it every `agents.*` call is refused in words. */
  agents?: AgentCallsPort;
}

/** The parts of a session the contract's calls are routed to. */
type SessionPart = 'cards' | 'questions' | 'mcp' | 'context' | 'checkpoints';

type Handlers = { [N in CallName]: (req: CallRequest<N>) => Promise<CallResponses[N]> };

export class Host {
  private readonly handlers: Handlers;
  /** The `settings.*` calls, with the settings logic they need. */
  private readonly settings: SettingsCalls;

  constructor(private readonly deps: HostDeps) {
    this.settings = new SettingsCalls(deps);
    const s = deps.sessions;
    /** The session's part a call's prefix names (its cards, questions, servers, context, checkpoints). */
    const part = async <P extends SessionPart>(id: string, name: P): Promise<Session[P]> => (await s.get(id))[name];
    /** The agents' calls, or the words saying this build has none. */
    const agents = (): AgentCallsPort => {
      if (!deps.agents) throw new AgentCallError(NO_AGENTS);
      return deps.agents;
    };
    this.handlers = {
      'sessions.list': () => s.list(),
      'sessions.open': async ({ workspace, title, agent, place }) => {
        // Resolved before the session is made: an agent that cannot start leaves nothing behind.
        const driver = agent === undefined ? undefined : await sessionAgentOf(deps.agents, agent);
        return (await s.create(workspace, title, driver, place)).summary();
      },
      'session.state': async ({ id }) => {
        const session = await s.get(id);
        return { summary: session.summary(), events: [...session.allEvents()] };
      },
      'session.events': async ({ id, sinceSeq }) => ({
        events: (await s.get(id)).allEvents().filter((e) => e.seq > sinceSeq),
      }),
      'session.send': async ({ id, text }) => (await s.get(id)).send(text),
      'session.cancel': async ({ id }) => (await s.get(id)).cancel(),
      'session.unqueue': async ({ id, messageId }) => (await s.get(id)).unqueue(messageId),
      'session.takeReturned': async ({ id }) => (await s.get(id)).takeReturned(),
      // The context's and the checkpoints' calls keep the contract's `session.` names.
      'session.context': async ({ id }) => (await part(id, 'context')).preview(),
      'session.compact': async ({ id, instructions }) => (await part(id, 'context')).compact(instructions),
      'session.changes': async ({ id, turnId, toolCallId }) =>
        (await part(id, 'checkpoints')).changes({ turnId, toolCallId }),
      'session.undo': async ({ id, turnId, paths, overwrite }) =>
        (await part(id, 'checkpoints')).undo(turnId, paths, overwrite),
      'session.redo': async ({ id, overwrite }) => (await part(id, 'checkpoints')).redo(overwrite),
      'session.rewind': async ({ id, seq, restore, overwrite }) =>
        (await part(id, 'checkpoints')).rewind(seq, restore, overwrite),
      'models.catalog': async () => modelCatalog(),
      'folders.complete': async ({ prefix }) => ({ folders: await completeFolders(prefix, deps.home) }),
      'card.proposal': async ({ id, cardId }) => (await part(id, 'cards')).proposal(cardId),
      'card.answer': async ({ id, cardId, answer, edited }) => {
        (await part(id, 'cards')).answer(cardId, answer, edited);
        return { cardId, answer, edited: edited !== undefined };
      },
      'card.preview': async ({ id, cardId, text }) => (await part(id, 'cards')).preview(cardId, text),
      'card.edits': async ({ id, cardId }) => (await part(id, 'cards')).edits(cardId),
      'question.answer': async ({ id, questionId, text }) => {
        await (await part(id, 'questions')).answer(questionId, text);
        return { questionId };
      },
      'settings.get': () => this.settings.get(),
      'settings.set': (req) => this.settings.set(req),
      'settings.test': (req) => this.settings.test(req),
      'terminal.open': ({ id }) => deps.terminals.open(id),
      'terminal.write': async ({ terminalId, data }) => {
        deps.terminals.write(terminalId, data);
        return {};
      },
      'terminal.resize': async ({ terminalId, cols, rows }) => {
        deps.terminals.resize(terminalId, cols, rows);
        return { cols, rows };
      },
      'terminal.close': async ({ terminalId }) => {
        await deps.terminals.close(terminalId);
        return { closed: true };
      },
      'app.activeSession': async (view) => {
        if (view.id !== null) await deps.sessions.get(view.id); // an id no session has is refused, with why
        deps.attention?.setActive(view);
        return { id: view.id, visible: view.visible };
      },
      'mcp.list': async ({ id }) => (await part(id, 'mcp')).list(),
      'mcp.restart': async ({ id, server }) => (await part(id, 'mcp')).restart(server),
      'mcp.setEnabled': async ({ id, server, enabled }) => (await part(id, 'mcp')).setEnabled(server, enabled),
      'agents.list': async () => ({ agents: await agents().list() }),
      'agents.install': ({ id }) =>
        agents().install(id, (progress) => deps.pushes.emit({ name: 'agents.progress', payload: progress })),
      'agents.remove': async ({ id, home }) => {
        await agents().remove(id, { home: home ?? false });
        return { removed: true };
      },
      'agents.setDomains': async ({ id, domains }) => ({ domains: await agents().setDomains(id, domains) }),
      // Session places (SPEC §15): each change is logged by the session's place calls.
      'session.place': async ({ id }) => ({ place: (await s.get(id)).place.current() }),
      'session.review': async ({ id }) => (await s.get(id)).place.review(),
      'session.apply': async ({ id, ...request }) => (await s.get(id)).place.apply(request),
      'session.discardPlace': async ({ id, keepBranch }) => ({ place: await s.discardPlace(id, keepBranch ?? false) }),
      'places.list': async () => ({ places: await s.placesListing() }),
      'places.remove': async ({ path }) => {
        await s.removePlace(path);
        return { removed: true };
      },
    };
  }

  /** Loads settings; call once before serving. */
  async init(): Promise<void> {
    await this.settings.init();
  }

  async call(name: string, payload: unknown): Promise<Reply<unknown>> {
    if (!Object.hasOwn(requestSchemas, name)) return { ok: false, error: `unknown call ${quoteInput(String(name))}` };
    const call = name as CallName;
    const parsed = requestSchemas[call].safeParse(payload ?? {});
    if (!parsed.success) return { ok: false, error: `bad request for ${call}: ${describeIssues(parsed.error.issues)}` };
    try {
      const handler = this.handlers[call] as (req: unknown) => Promise<unknown>;
      return { ok: true, data: await handler(parsed.data) };
    } catch (err) {
      // Every error is answered in words; one of no known kind is also a fault to report.
      if (errorKindOf(err) === 'internal') this.deps.onUnexpected?.(err);
      // An id in the words (no open card with id …) is the caller's: nothing in it stays invisible.
      return { ok: false, error: visibleText(err instanceof Error ? err.message : String(err), { keepLines: true }) };
    }
  }

  subscribe(listener: (push: Push) => void): () => void {
    return this.deps.pushes.subscribe(listener);
  }

  /** A push of the shell's own (a focus request); listeners that throw do not stop the others. */
  emit(push: Push): void {
    this.deps.pushes.emit(push);
  }
}

/** A field name as it is (`text`, `0`); anything else the caller made up, quoted. */
function pathPart(part: PropertyKey): string {
  const text = String(part);
  return /^[A-Za-z_][A-Za-z0-9_]{0,63}$|^\d{1,9}$/.test(text) ? text : quoteInput(text);
}

/** How many of a refused payload's problems are named; the rest are counted. */
const ISSUES_NAMED = 5;
/** A schema's own words are short; a longer one would be quoting the input. */
const MESSAGE_MAX_CHARS = 300;

/**
 * A refused payload's problems in words, with the caller's own keys quoted safely
 * (quoted-input.ts): an unknown 1 MB key comes back as 200 characters, not 1 MB.
 */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const named = issues.slice(0, ISSUES_NAMED).map((issue) => {
    const where = issue.path.map(pathPart).join('.');
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.slice(0, ISSUES_NAMED).map(quoteInput).join(', ')}${issue.keys.length > ISSUES_NAMED ? ` and ${issue.keys.length - ISSUES_NAMED} more` : ''}`
        : visibleText(
            issue.message.length > MESSAGE_MAX_CHARS ? `${issue.message.slice(0, MESSAGE_MAX_CHARS)}…` : issue.message,
          );
    return `${where || '(payload)'}: ${what}`;
  });
  const more = issues.length > ISSUES_NAMED ? `; and ${issues.length - ISSUES_NAMED} more problems` : '';
  return named.join('; ') + more;
}
