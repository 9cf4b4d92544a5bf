/**
 * The contract's `settings.*` calls: what Settings shows (keys, the sandbox, checkpoint
 * stores, the one problem to fix first) and the checked save. The host routes the calls
 * here; nothing here knows a session.
 */
import type { CallRequest, CallResponses, Provider, SettingsView } from '../../../shared/contract.js';
import { plainHttpKeyProblem } from '../../../shared/key-transport.js';
import { ChatError } from '../chat/chat-error.js';
import { testConnection } from '../chat/connection-test.js';
import type { Attention } from '../attention/attention.js';
import type { WorkspaceStores } from '../checkpoints/workspace-stores.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { checkShownPlace, toolchainPlaces } from '../sandbox/shown-places.js';
import { SessionError } from '../sessions/session-error.js';
import type { AppSettings } from './app-settings.js';
import type { EncryptedKeys } from './encrypted-keys.js';

export interface SettingsCallsDeps {
  settings: AppSettings;
  keys: EncryptedKeys;
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home: shown places are checked against it. */
  home: string;
  /** Called after a key was saved or removed. */
  onKeysChanged?: () => Promise<void>;
  /** Where the notifications setting goes (the shell's tray and notifications). */
  attention?: Attention;
  /** How the shell keeps saved keys; without it, 'os' when keys can be saved, else 'none'. */
  keyStorage?: SettingsView['keyStorage'];
  /** The commands' sandbox, for Settings to say whether it runs here and what to install. */
  sandbox: Sandbox;
  /** The workspaces' checkpoint stores, for Settings' sizes and whether undo runs here. */
  checkpoints?: WorkspaceStores;
}

const ENV_KEYS: Record<Provider, string | null> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': null,
};

export class SettingsCalls {
  /** Why the saved settings could not be read, until a model is saved again. */
  private loadProblem: string | null = null;

  constructor(private readonly deps: SettingsCallsDeps) {}

  /** Loads settings; call once before serving. */
  async init(): Promise<void> {
    this.loadProblem = await this.deps.settings.load();
    this.deps.attention?.setNotifications(this.deps.settings.current().notifications);
  }

  async get(): Promise<SettingsView> {
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

  async set(req: CallRequest<'settings.set'>): Promise<SettingsView> {
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
      if (req.model !== undefined) this.loadProblem = null;
    }
    return this.get();
  }

  /** The real chat client with the keys a turn would use; the setting itself is not saved. */
  test({ model }: CallRequest<'settings.test'>): Promise<CallResponses['settings.test']> {
    return testConnection(model, { keys: this.deps.keys, env: this.deps.env });
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
    if (this.loadProblem) return this.loadProblem;
    const { model } = this.deps.settings.current();
    if (!model) {
      return "No model is configured for Gatehouse's own agent. Open Settings and choose a provider (Anthropic, OpenAI, or an OpenAI-compatible server such as Ollama) and a model id; a session driven by an external agent (Settings → Agents) needs none.";
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
