/**
 * The composition root of the core: everything wired by constructor injection, once,
 * for the Electron shell, the web host and the tests alike. Nothing here is a singleton.
 */
import type { AgentCallsPort } from './agents/agent-calls-port.js';
import { AgentCalls } from './agents/agent-calls.js';
import { agentSessionDriver, type AgentSessionDeps } from './agents/agent-session.js';
import { DisposableStore } from './lifecycle.js';
import { randomUUID } from 'node:crypto';
import type { ModelConfig, Provider } from '../../shared/contract.js';
import type { ChatClient } from './chat/chat-client.js';
import type { KeyStore } from './chat/key-store.js';
import { ProviderChatClient } from './chat/provider-chat-client.js';
import type { RetryPolicy } from './chat/retry-policy.js';
import { Attention, type AttentionSink } from './attention/attention.js';
import { CardDiffer } from './diff/card-differ.js';
import { Host } from './host.js';
import { Pushes } from './pushes.js';
import type { Durability } from './log/session-log.js';
import { SessionStore } from './log/session-store.js';
import { SessionError } from './sessions/session-error.js';
import { BwrapSandbox } from './sandbox/bwrap-sandbox.js';
import { SpareSandboxes } from './process/spare-sandboxes.js';
import type { Sandbox } from './sandbox/sandbox.js';
import { Sessions } from './sessions/sessions.js';
import type { DriverFactory } from './sessions/session-driver.js';
import { WorkspaceStores } from './checkpoints/workspace-stores.js';
import { AGENT_CATALOG } from './agents/agent-catalog.js';
import { PlaceError } from './places/place-error.js';
import { Places } from './places/places.js';
import { DisabledServers } from './mcp/disabled-servers.js';
import { AppSettings } from './settings/app-settings.js';
import { EncryptedKeys, type Cipher } from './settings/encrypted-keys.js';
import { commandEnv, PROVIDER_KEY_NAMES } from './tools/command-env.js';
import type { SpawnPty } from './terminal/pty-spawn.js';
import { Terminals } from './terminal/terminals.js';

export interface CoreOptions {
  /** Electron's userData, GATEHOUSE_HOME, or the web host's --data-dir. */
  dataDir: string;
  /** The app's environment (process.env). Keys are read from it; commands get it without secrets. */
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home, for ~/.gatehouse/skills. */
  home: string;
  /** Where the bundled diff worker is (electron-vite emits it beside the main bundle). */
  diffWorkerUrl?: URL;
  /** The OS cipher for saved keys (safeStorage in Electron); null where none exists. */
  cipher: Cipher | null;
  durability?: Durability;
  /** Tests make retries fast; the app keeps the defaults. */
  retry?: Partial<RetryPolicy>;
  /** Replaces the real chat client (unit tests only). */
  chatFactory?: (model: ModelConfig, keys: KeyStore) => ChatClient;
  /** Replaces the native runner as every session's driver (unit tests only). */
  driver?: DriverFactory;
  /**
   * A model endpoint on this machine for an external agent, bridged into its jail and named
   * on its start card (tests point agents at a fake model this way); none by default.
   */
  agentModel?: AgentSessionDeps['localModel'];
  /** node-pty's spawn for the terminal panel; a packaged app points it at its unpacked node-pty. */
  spawnPty?: SpawnPty;
  onUnexpected?: (err: unknown) => void;
  /** The shell's tray, badge and notifications; the web host has none. */
  attention?: AttentionSink;
  /** How the shell keeps saved keys (safeStorage's backend); by default from whether a cipher exists. */
  keyStorage?: 'os' | 'plain-text' | 'none';
  /** The commands' sandbox; by default bubblewrap over the data folder and home (tests inject one). */
  sandbox?: Sandbox;
  /** How long an MCP tool call may go unanswered; MCP_CALL_TIMEOUT_MS unless a test needs less. */
  mcpCallTimeoutMs?: number;
  /**
   * External agents' install, list and domains (SPEC §14): by default the installer into the
   * data folder; null for a build without them (`agents.*` then says so).
   */
  agents?: AgentCallsPort | null;
  /** Told after each file an Apply writes into the person's folder (a test stops the process there). */
  onPlaceApplyFile?: (path: string) => void;
}

export interface Core {
  host: Host;
  sessions: Sessions;
  terminals: Terminals;
  /** The checkpoint stores of every workspace, and what they share. */
  checkpoints: WorkspaceStores;
  /** Present when the shell gave an AttentionSink; the shell tells it when its window gains or loses focus. */
  attention?: Attention;
  /** Sessions that could not be read at start-up, and why. */
  unreadable: { name: string; error: string }[];
  /** Lets go of everything: shells, sessions (their turns cancelled, their servers stopped), logs, checkpoint stores, the diff worker, the sandbox's proxy. */
  dispose(): Promise<void>;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const store = new SessionStore({ dataDir: options.dataDir, durability: options.durability });
  const keys = new EncryptedKeys(options.dataDir, options.cipher);
  const settings = new AppSettings(options.dataDir);
  const differ = new CardDiffer(options.diffWorkerUrl ? { workerUrl: options.diffWorkerUrl } : {});
  const attention = options.attention ? new Attention(options.attention) : undefined;
  const pushes = new Pushes(options.onUnexpected);
  const makeChat =
    options.chatFactory ??
    ((model: ModelConfig, k: KeyStore) =>
      new ProviderChatClient({ config: model, keys: k, env: options.env, retry: options.retry }));
  // Values of keys saved in Settings, kept so no command's environment carries them under any name.
  let storedKeys: string[] = [];
  const refreshStoredKeys = async () => {
    const values = await Promise.all(PROVIDERS.map((p) => keys.get(p).catch(() => undefined)));
    storedKeys = values.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  };
  await refreshStoredKeys();
  // Commands and the terminal's shell get the same environment: the app's, without any key.
  const secretFreeEnv = () =>
    commandEnv({ ...options.env }, { secretValues: [...providerKeyValues(options.env), ...storedKeys] });
  // Commands and Stop hooks run confined: no data folder, no secret stores, no network unless asked.
  const sandbox: Sandbox =
    options.sandbox ??
    new BwrapSandbox({
      dataDir: options.dataDir,
      home: options.home,
      env: options.env,
      extraShown: () => settings.current().shownPlaces,
    });
  // grep takes a sandbox started ahead for its view, rather than waiting for one to start.
  const spares = new SpareSandboxes();
  const checkpoints = new WorkspaceStores({
    dataDir: options.dataDir,
    limitBytes: () => settings.current().checkpointLimitBytes,
    onUnexpected: options.onUnexpected,
    // Undo, redo and a rewind write and delete in the sandbox's view of the workspace.
    sandbox,
  });
  // External agents are installed with the person's npm, into the data folder (SPEC §14).
  const agentCalls =
    options.agents === undefined
      ? new AgentCalls({
          dataDir: options.dataDir,
          settings,
          env: () => options.env,
          commandEnv: secretFreeEnv,
          // A new install is started once in its jail, to check it speaks ACP before it replaces anything.
          sandbox,
          keySaved: async (keyVariable) => (await storedAgentKey(keys, keyVariable))?.provider,
        })
      : null;
  // A test's port when one is given; none when null (a build without agents).
  const agents = agentCalls ?? options.agents ?? undefined;
  // Sessions in a place of their own (SPEC §15): the place's review reads its checkpoint store.
  const places = new Places({
    dataDir: options.dataDir,
    home: options.home,
    git: () => checkpoints.availability(),
    store: async (sessionId, placeDir) => {
      const store = await checkpoints.access(sessionId, placeDir).open();
      if (!('snapshot' in store)) throw new PlaceError(`a place needs checkpoints: ${store.unavailable}`);
      return store;
    },
    ...(options.onPlaceApplyFile ? { onApplyFile: options.onPlaceApplyFile } : {}),
  });
  const sessions = new Sessions({
    store,
    checkpoints,
    places,
    // An agent that cannot be held to the gate works only in a place of its own.
    needsPlace: (agent) => AGENT_CATALOG[agent.id]?.gated !== true,
    chat: (sessionModel) => {
      // New turns follow the model chosen in Settings; a session keeps its last one only when none is chosen.
      const model = settings.current().model ?? sessionModel ?? null;
      if (!model) {
        throw new SessionError(
          'No model is configured. Open Settings and choose a provider and model (or, for the web host, set ANTHROPIC_API_KEY or OPENAI_API_KEY and pick a model in Settings).',
        );
      }
      return { chat: makeChat(model, keys), model };
    },
    diff: differ.diff,
    dataDir: options.dataDir,
    home: options.home,
    commandEnv: secretFreeEnv,
    sandbox: { sandbox, refuseUnconfined: () => settings.current().refuseUnconfined },
    spares,
    newId: randomUUID,
    emit: (push) => pushes.emit(push),
    // The user's own mcp.json sits in the data folder, which no tool or command reaches without a card.
    mcp: {
      userConfigDir: options.dataDir,
      disabled: new DisabledServers(options.dataDir),
      callTimeoutMs: options.mcpCallTimeoutMs,
    },
    ...(options.driver ? { driver: options.driver } : {}),
    ...(agentCalls
      ? {
          agentDriver: (session: Parameters<typeof agentSessionDriver>[1]) =>
            agentSessionDriver(
              {
                agents: agentCalls,
                dataDir: options.dataDir,
                sandbox,
                env: () => options.env,
                storedKey: (keyVariable) => storedAgentKey(keys, keyVariable),
                ...(options.agentModel ? { localModel: options.agentModel } : {}),
              },
              session,
            ),
        }
      : {}),
  });
  const terminals = new Terminals({
    // A shell can change the place before its base is taken, and that change would be missing from the review.
    workspaceOf: (id) => sessions.workspaceToChange(id),
    env: secretFreeEnv,
    emit: (push) => pushes.emit(push),
    newId: randomUUID,
    spawn: options.spawnPty,
  });
  const host = new Host({
    sessions,
    terminals,
    settings,
    keys,
    env: options.env,
    home: options.home,
    onKeysChanged: refreshStoredKeys,
    onUnexpected: options.onUnexpected,
    attention,
    keyStorage: options.keyStorage,
    sandbox,
    pushes,
    checkpoints,
    agents,
  });
  await host.init();
  const { unreadable } = await sessions.start();
  if (attention) {
    pushes.subscribe((push) => attention.onPush(push));
    attention.seed(await sessions.list());
  }
  // Let go of last first: the shells and the sessions (whose turns and servers use the
  // rest), then the logs, the checkpoint stores (their packing), the diff worker, the
  // spare sandboxes started for grep, and the sandbox's proxy.
  const parts = new DisposableStore();
  for (const part of [sandbox, spares, differ, checkpoints, store, sessions, terminals]) parts.add(part);
  // Disposed first: an install under way is stopped, its previous install kept.
  if (agentCalls) parts.add({ dispose: () => agentCalls.close() });
  return {
    host,
    sessions,
    terminals,
    checkpoints,
    attention,
    unreadable,
    dispose: () => parts.dispose(),
  };
}

const PROVIDERS: Provider[] = ['anthropic', 'openai', 'openai-compatible'];

/** The providers whose saved key an agent may use through the keyed relay, by the agent's key variable. */
const AGENT_KEY_PROVIDERS: Record<string, { provider: Provider; words: string }> = {
  ANTHROPIC_API_KEY: { provider: 'anthropic', words: 'Anthropic' },
};

async function storedAgentKey(
  keys: KeyStore,
  keyVariable: string,
): Promise<{ value: string; provider: string } | undefined> {
  const known = AGENT_KEY_PROVIDERS[keyVariable];
  if (!known) return undefined;
  const value = await keys.get(known.provider).catch(() => undefined);
  return value?.trim() ? { value: value.trim(), provider: known.words } : undefined;
}

function providerKeyValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return PROVIDER_KEY_NAMES.map((name) => env[name]).filter(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
}
