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
  type Provider,
  type Push,
  type Reply,
  type SettingsView,
} from '../../shared/contract.js';
import type { z } from 'zod';
import { plainHttpKeyProblem } from '../../shared/key-transport.js';
import { ChatError } from './chat/chat-error.js';
import { testConnection } from './chat/connection-test.js';
import type { EncryptedKeys } from './settings/encrypted-keys.js';
import type { Sandbox } from './sandbox/sandbox.js';
import { checkShownPlace, toolchainPlaces } from './sandbox/shown-places.js';
import type { AppSettings } from './settings/app-settings.js';
import type { Sessions } from './sessions/sessions.js';
import type { Terminals } from './terminal/terminals.js';
import type { Attention } from './attention/attention.js';
import type { WorkspaceStores } from './checkpoints/workspace-stores.js';
import type { Pushes } from './pushes.js';
import { completeFolders } from './paths/folder-completion.js';
import { errorKindOf } from './error-kind.js';
import { SessionError } from './sessions/session-error.js';
import { modelCatalog } from './context/model-catalog.js';
import { quoteInput, visibleText } from './text/quoted-input.js';

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
}

type Handlers = { [N in CallName]: (req: CallRequest<N>) => Promise<CallResponses[N]> };

const ENV_KEYS: Record<Provider, string | null> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': null,
};

export class Host {
  private readonly handlers: Handlers;
  private settingsProblem: string | null = null;

  constructor(private readonly deps: HostDeps) {
    const s = deps.sessions;
    this.handlers = {
      'sessions.list': () => s.list(),
      'sessions.open': async ({ workspace, title }) => (await s.create(workspace, title)).summary(),
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
      'card.proposal': async ({ id, cardId }) => (await s.get(id)).proposal(cardId),
      'session.context': async ({ id }) => (await s.get(id)).contextPreview(),
      'session.compact': async ({ id, instructions }) => (await s.get(id)).compact(instructions),
      'session.changes': async ({ id, turnId, toolCallId }) => (await s.get(id)).changes({ turnId, toolCallId }),
      'session.undo': async ({ id, turnId, paths, overwrite }) => (await s.get(id)).undo(turnId, paths, overwrite),
      'session.redo': async ({ id, overwrite }) => (await s.get(id)).redo(overwrite),
      'session.rewind': async ({ id, seq, restore, overwrite }) => (await s.get(id)).rewind(seq, restore, overwrite),
      'models.catalog': async () => modelCatalog(),
      'folders.complete': async ({ prefix }) => ({ folders: await completeFolders(prefix, deps.home) }),
      'card.answer': async ({ id, cardId, answer, edited }) => {
        (await s.get(id)).answerCard(cardId, answer, edited);
        return { cardId, answer, edited: edited !== undefined };
      },
      'card.preview': async ({ id, cardId, text }) => (await s.get(id)).previewEdit(cardId, text),
      'card.edits': async ({ id, cardId }) => (await s.get(id)).editsDiff(cardId),
      'question.answer': async ({ id, questionId, text }) => {
        await (await s.get(id)).answerQuestion(questionId, text);
        return { questionId };
      },
      'settings.get': () => this.settingsView(),
      'settings.set': (req) => this.setSettings(req),
      // The real chat client with the keys a turn would use; the setting itself is not saved.
      'settings.test': ({ model }) => testConnection(model, { keys: deps.keys, env: deps.env }),
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
      'mcp.list': async ({ id }) => (await deps.sessions.get(id)).mcpOverview(),
      'mcp.restart': async ({ id, server }) => (await deps.sessions.get(id)).mcpRestart(server),
      'mcp.setEnabled': async ({ id, server, enabled }) => (await deps.sessions.get(id)).mcpSetEnabled(server, enabled),
    };
  }

  /** Loads settings; call once before serving. */
  async init(): Promise<void> {
    this.settingsProblem = await this.deps.settings.load();
    this.deps.attention?.setNotifications(this.deps.settings.current().notifications);
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

  private async settingsView(): Promise<SettingsView> {
    const keys = {} as SettingsView['keys'];
    for (const provider of Object.keys(ENV_KEYS) as Provider[]) {
      const envName = ENV_KEYS[provider];
      keys[provider] = (await this.deps.keys.has(provider))
        ? 'settings'
        : envName && this.deps.env[envName]?.trim()
          ? 'env'
          : null;
    }
    const keyStorage = this.deps.keyStorage ?? (this.deps.keys.canSave() ? 'os' : 'none');
    const availability = await this.deps.sandbox.availability();
    const sandbox = availability.available
      ? { available: true as const }
      : { available: false as const, reason: availability.reason, fix: availability.fix };
    const { model, notifications, refuseUnconfined, shownPlaces } = this.deps.settings.current();
    const checkpoints = await this.checkpointsView();
    return {
      model,
      keys,
      problem: this.problem(keys),
      notifications,
      keyStorage,
      sandbox,
      refuseUnconfined,
      home: this.deps.home,
      shown: { toolchains: toolchainPlaces(this.deps.home), added: [...shownPlaces] },
      checkpoints,
    };
  }

  /** The checkpoint stores' sizes and limit, or why undo is off here (SPEC §12). */
  private async checkpointsView(): Promise<NonNullable<SettingsView['checkpoints']>> {
    const limitBytes = this.deps.settings.current().checkpointLimitBytes;
    const stores = this.deps.checkpoints;
    const git = stores ? await stores.availability() : null;
    if (!stores || !git?.ok) {
      const reason = git && !git.ok ? git.reason : 'checkpoints are not set up here';
      return { available: false, reason, fix: git && !git.ok ? git.fix : '', limitBytes };
    }
    return { available: true, limitBytes, stores: await stores.sizes() };
  }

  private problem(keys: SettingsView['keys']): string | null {
    if (this.settingsProblem) return this.settingsProblem;
    const { model } = this.deps.settings.current();
    if (!model) {
      return 'No model is configured. Open Settings and choose a provider (Anthropic, OpenAI, or an OpenAI-compatible server such as Ollama) and a model id.';
    }
    // A config saved before the plain-http rule: turns refuse it, so say why up front.
    const plainHttp = plainHttpKeyProblem(model, keys['openai-compatible'] === 'settings');
    if (plainHttp) return plainHttp;
    const envName = ENV_KEYS[model.provider];
    if (envName && !keys[model.provider]) {
      return `No API key for ${model.provider}: set ${envName} in the environment or add a key in Settings.`;
    }
    return null;
  }

  private async setSettings(req: CallRequest<'settings.set'>): Promise<SettingsView> {
    await this.refusePlainHttpKey(req);
    if (req.key) {
      await this.deps.keys.set(req.key.provider, req.key.value);
      await this.deps.onKeysChanged?.();
    }
    const change = {
      ...(req.model !== undefined ? { model: req.model } : {}),
      ...(req.notifications !== undefined ? { notifications: req.notifications } : {}),
      ...(req.refuseUnconfined !== undefined ? { refuseUnconfined: req.refuseUnconfined } : {}),
      ...(req.shownPlaces ? { shownPlaces: this.checkShownPlaces(req.shownPlaces) } : {}),
      ...(req.checkpointLimitBytes !== undefined ? { checkpointLimitBytes: req.checkpointLimitBytes } : {}),
    };
    if (Object.keys(change).length > 0) {
      const saved = await this.deps.settings.update(change);
      this.deps.attention?.setNotifications(saved.notifications);
      if (req.model !== undefined) this.settingsProblem = null;
    }
    return this.settingsView();
  }

  /** Each place checked (it exists, it is not the whole home); one bad place refuses the request, naming it. */
  private checkShownPlaces(inputs: readonly string[]): string[] {
    const places: string[] = [];
    for (const input of inputs) {
      const checked = checkShownPlace(input, this.deps.home);
      if ('error' in checked)
        throw new SessionError(`cannot show ${JSON.stringify(input.slice(0, 200))} to commands: ${checked.error}`);
      if (!places.includes(checked.path)) places.push(checked.path);
    }
    return places;
  }

  /**
   * Refuses, before anything is saved, a request that would leave a key going over plain
   * http: a new model at such a URL, or a key saved for the model that uses one. A request
   * about something else (notifications, another provider's key) is not held up by it.
   */
  private async refusePlainHttpKey(req: CallRequest<'settings.set'>): Promise<void> {
    const model = req.model !== undefined ? req.model : this.deps.settings.current().model;
    if (!model) return;
    const savesKeyForModel = req.key?.provider === model.provider && Boolean(req.key.value?.trim());
    if (req.model === undefined && !savesKeyForModel) return;
    const compatibleKey =
      req.key?.provider === 'openai-compatible'
        ? Boolean(req.key.value?.trim())
        : await this.deps.keys.has('openai-compatible');
    const problem = plainHttpKeyProblem(model, compatibleKey);
    if (problem) throw new ChatError('config', problem);
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
