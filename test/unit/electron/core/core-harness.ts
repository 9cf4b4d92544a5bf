/**
 * A whole core (createCore) over a temp data folder, pointed at the loopback fake model
 * through the real AI SDK providers. Tests drive it through the host, as a transport
 * would, and watch the pushed events.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallName, CallRequest, CallResponses, Provider, Push, Reply } from '../../../../shared/contract.js';
import type { SessionEvent } from '../../../../shared/events.js';
import { createCore, type Core, type CoreOptions } from '../../../../electron/core/core.js';
import type { Sandbox } from '../../../../electron/core/sandbox/sandbox.js';
import type { DriverFactory } from '../../../../electron/core/sessions/session-driver.js';
import type { Cipher } from '../../../../electron/core/settings/encrypted-keys.js';
import { startFakeModel, type FakeModel } from '../../../fake-model/server.js';
import { TEST_SERVER_FOLDER } from '../../../mcp-server/test-server-folder.js';
import { API_KEY, providerCases, type ProviderCase } from './chat/provider-cases.js';

export { API_KEY, providerCases, type ProviderCase };

/** Reversible and obviously not plain text: enough to prove keys pass through the cipher. */
export const testCipher: Cipher = {
  encrypt: (plain) => Buffer.from(`sealed:${Buffer.from(plain).toString('hex')}`),
  decrypt: (sealed) => Buffer.from(sealed.toString().replace(/^sealed:/, ''), 'hex').toString(),
};

export interface Harness {
  root: string;
  dataDir: string;
  workspace: string;
  outside: string;
  home: string;
  fake: FakeModel;
  core: Core;
  pushes: Push[];
  env: Record<string, string>;
  call<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponses[N]>;
  raw(name: string, payload: unknown): Promise<Reply<unknown>>;
  open(): Promise<string>;
  /** Resolves with the first event of the session (already logged or still to come) that matches. */
  event<T extends SessionEvent['type']>(
    id: string,
    type: T,
    match?: (e: Extract<SessionEvent, { type: T }>) => boolean,
  ): Promise<Extract<SessionEvent, { type: T }>>;
  events(id: string): Promise<SessionEvent[]>;
  /** Restarts the core over the same data folder, as after a crash or quit; `between` runs while it is down. */
  restart(between?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  provider: ProviderCase = providerCases[0]!,
  options: {
    fake?: FakeModel;
    sandboxFor?: (root: string) => Sandbox;
    mcpCallTimeoutMs?: number;
    /** Drives the sessions' turns in place of the native runner. */
    driver?: DriverFactory;
    /** Where the temp root is made (a confined process sees /var/tmp, not the host's /tmp). */
    base?: string;
    /** Added to the core's environment (an external agent's key). */
    env?: Record<string, string>;
    /** A model endpoint on this machine for external agents. */
    agentModel?: CoreOptions['agentModel'];
    /** How long `event` waits (default 20 s). */
    eventTimeoutMs?: number;
    /** Starts the terminal's shells (a test wraps node-pty's). */
    spawnPty?: CoreOptions['spawnPty'];
  } = {},
): Promise<Harness> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(options.base ?? os.tmpdir(), 'gatehouse-core-')));
  const dataDir = path.join(root, 'data');
  const workspace = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  const home = path.join(root, 'home');
  await Promise.all([workspace, outside, home].map((d) => fs.mkdir(d, { recursive: true })));
  const fake = options.fake ?? (await startFakeModel());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    ...provider.env,
    ...options.env,
  };
  const pushes: Push[] = [];
  const waiters = new Set<() => void>();

  const boot = async () => {
    const core = await createCore({
      dataDir,
      env,
      home,
      cipher: testCipher,
      durability: 'none',
      retry: { initialDelayMs: 1, maxDelayMs: 5 },
      onUnexpected: (err) => console.error('unexpected', err),
      ...(options.sandboxFor ? { sandbox: options.sandboxFor(root) } : {}),
      ...(options.mcpCallTimeoutMs ? { mcpCallTimeoutMs: options.mcpCallTimeoutMs } : {}),
      ...(options.driver ? { driver: options.driver } : {}),
      ...(options.agentModel ? { agentModel: options.agentModel } : {}),
      ...(options.spawnPty ? { spawnPty: options.spawnPty } : {}),
    });
    core.host.subscribe((push) => {
      pushes.push(push);
      for (const w of waiters) w();
    });
    return core;
  };

  const h: Harness = {
    root,
    dataDir,
    workspace,
    outside,
    home,
    fake,
    core: await boot(),
    pushes,
    env,
    async call(name, request) {
      const reply = await h.core.host.call(name, request);
      if (!reply.ok) throw new Error(`${name} failed: ${reply.error}`);
      return reply.data as never;
    },
    raw: (name, payload) => h.core.host.call(name, payload),
    async open() {
      return (await h.call('sessions.open', { workspace })).id;
    },
    async events(id) {
      return (await h.call('session.events', { id, sinceSeq: 0 })).events;
    },
    event(id, type, match) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${type} in session ${id}`));
        }, options.eventTimeoutMs ?? 20_000);
        const check = () => {
          void h.events(id).then((events) => {
            const found = events.find((e) => e.type === type && (!match || match(e as never)));
            if (!found || !waiters.has(check)) return;
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found as never);
          }, reject);
        };
        waiters.add(check);
        check();
      });
    },
    async restart(between) {
      await h.core.dispose();
      await between?.();
      h.core = await boot();
    },
    async close() {
      await h.core.dispose();
      if (!options.fake) await fake.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
  // The test MCP server's folder, shown to confined commands as a person would add it.
  await fs.mkdir(TEST_SERVER_FOLDER, { recursive: true });
  await h.call('settings.set', {
    model: provider.config(fake),
    shownPlaces: [TEST_SERVER_FOLDER],
    ...(provider.storedKey ? { key: { provider: provider.name as Provider, value: provider.storedKey } } : {}),
  });
  return h;
}
