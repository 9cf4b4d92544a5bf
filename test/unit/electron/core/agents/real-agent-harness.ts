/**
 * A core whose session is driven by a real, pinned agent from the agent cache (CI fills it;
 * test/support/agent-cache.ts), installed in the data folder as Settings → Agents leaves it,
 * and pointed at the fake model on loopback bridged into its jail. A wait that times out
 * says what the session logged and what the model was asked.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { AgentId } from '../../../../../shared/agents.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { startFakeModel, type FakeModel, type FakeReply, type RecordedRequest } from '../../../../fake-model/server.js';
import { cachedAgent } from '../../../../support/agent-cache.js';
import { providerCases, startHarness, type Harness } from '../core-harness.js';
import { GIT_ENV } from '../places/place-fixture.js';

/** The model's next move, chosen by what it was sent. */
export type Move = (request: RecordedRequest) => FakeReply | undefined;

export interface RealAgent {
  id: AgentId;
  /** Its key variable and a made-up value, which must never reach the log. */
  key: { name: string; value: string };
  /** The variable that points it at a model endpoint. */
  baseUrlVariable: string;
  domains: string[];
  /** How a test names a request of this agent's wire in a timeout's message. */
  describe?: (request: RecordedRequest) => string;
}

export interface Booted {
  h: Harness;
  fake: FakeModel;
  id: string;
}

const TURN_MS = 120_000;

export async function bootRealAgent(
  agent: RealAgent,
  move: Move,
  options: {
    keyInEnvironment?: boolean;
    localModel?: boolean;
    /** Opens the session in a place of its own: the workspace made a repository with `files` committed. */
    place?: { files: Record<string, string> };
  } = {},
): Promise<Booted> {
  const { prefix } = await cachedAgent(agent.id);
  const fake = await startFakeModel();
  fake.setResponder((request) => move(request) ?? { text: 'ok' });
  const port = Number(new URL(fake.url).port);
  // The native runner's case puts a provider key in the environment: none at all when the agent must go without.
  const provider = options.keyInEnvironment === false ? { ...providerCases[0]!, env: {} } : undefined;
  const h = await startHarness(provider, {
    fake,
    base: '/var/tmp',
    // Without it, the agent has only what Settings saved (or its own login).
    env: options.keyInEnvironment === false ? {} : { [agent.key.name]: agent.key.value },
    // Without it, the agent goes to its own model host through the proxy.
    ...(options.localModel === false
      ? {}
      : { agentModel: () => ({ endpoint: { port }, baseUrlVariable: agent.baseUrlVariable }) }),
    eventTimeoutMs: TURN_MS,
  });
  await fs.mkdir(path.join(h.dataDir, 'agents', agent.id), { recursive: true });
  await fs.symlink(prefix, path.join(h.dataDir, 'agents', agent.id, 'pkg'));
  if (options.place) await commitFiles(h.workspace, options.place.files);
  const { id } = await h.call('sessions.open', {
    workspace: h.workspace,
    agent: agent.id,
    ...(options.place ? { place: {} } : {}),
  });
  const event = h.event.bind(h);
  h.event = (sid, type, match) =>
    event(sid, type, match).catch(async (err: Error) => {
      const logged = (await h.events(sid)).map(
        (e) => `${e.type}${'body' in e ? `:${e.body.kind}` : ''}${'message' in e && e.message ? ` ${e.message}` : ''}`,
      );
      const asked = fake.requests.map((r) => agent.describe?.(r) ?? r.path);
      throw new Error(`${err.message}\nlogged: ${logged.join(', ')}\nmodel asked: ${asked.join('\n')}`);
    });
  return { h, fake, id };
}

/** The workspace as a repository on main with `files` committed (the person's own git, their config for the fixture only). */
async function commitFiles(dir: string, files: Record<string, string>): Promise<void> {
  const env = { ...GIT_ENV };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  for (const [rel, text] of Object.entries(files)) await fs.writeFile(path.join(dir, rel), text);
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'first'], { cwd: dir, env });
}

/** Checks the start card against what the agent is, then allows it for the session. */
export async function allowStart(h: Harness, id: string, agent: RealAgent): Promise<void> {
  const start = await h.event(id, 'card', (c) => c.body.kind === 'agent_start');
  if (start.body.kind !== 'agent_start') throw new Error('not a start card');
  expect(start.body.readOnly).toContain(h.workspace);
  expect(start.body.domains).toEqual(agent.domains);
  expect(JSON.stringify(start)).not.toContain(agent.key.value);
  await h.call('card.answer', { id, cardId: start.cardId, answer: 'allow_session' });
}

export function turnEnd(h: Harness, id: string, after = 0): Promise<Extract<SessionEvent, { type: 'turn_ended' }>> {
  return h.event(id, 'turn_ended', (e) => e.seq > after);
}
