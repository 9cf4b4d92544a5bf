/**
 * A core whose session is driven by a real, pinned staged agent (Codex, opencode: SPEC §15)
 * in a place of its own, made by the places room: the person's folder is a small git
 * repository (or a plain folder) under /var/tmp, opened with `sessions.open {workspace,
 * agent}` and NO place asked; the core gives the session its place (a worktree on a branch
 * of its own, or a copy) because the agent cannot be held to the gate. The agent is pointed
 * at the fake model on loopback bridged into its jail, as the gated agents are.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { agentModelOf } from '../../../../../electron/core/agents/agent-model-endpoint.js';
import type { SessionPlace } from '../../../../../shared/places.js';
import { startFakeModel, type FakeModel } from '../../../../fake-model/server.js';
import { cachedAgent } from '../../../../support/agent-cache.js';
import type { Harness } from '../core-harness.js';
import { startHarness, type ProviderCase } from '../core-harness.js';
import type { Booted, Move, RealAgent } from './real-agent-harness.js';

/** Longer than a real turn takes here (about 20 s), shorter than the test: a wait that fails says what was logged. */
const TURN_MS = 120_000;

export interface StagedBooted extends Booted {
  /** The person's folder: a folder the agent must never see or change. */
  origin: string;
  place: SessionPlace;
}

/** A file of the person's, whose words must never reach the agent's process. */
export const ORIGIN_SECRET = 'the person’s own words, never seen by the agent';

/** The person's files, as the origin starts (committed when it is a repository). */
export const ORIGIN_FILES: Readonly<Record<string, string>> = {
  'README.md': '# the person’s project\n',
  'notes.txt': 'first line\nsecond line\n',
  'secret.txt': `${ORIGIN_SECRET}\n`,
};

/**
 * A core with the agents installed (from the agent cache) and pointed at a fake model on
 * loopback that answers with `move`; other sessions of the same core (the native runner,
 * as `provider` configures it) use the same fake model.
 */
export async function startStagedCore(
  agents: RealAgent | readonly RealAgent[],
  move: Move,
  provider?: ProviderCase,
): Promise<{ h: Harness; fake: FakeModel }> {
  const all = Array.isArray(agents) ? (agents as readonly RealAgent[]) : [agents as RealAgent];
  const prefixes = await Promise.all(all.map(async (agent) => (await cachedAgent(agent.id)).prefix));
  const fake = await startFakeModel();
  fake.setResponder((request) => move(request) ?? { text: 'ok' });
  const port = Number(new URL(fake.url).port);
  const h = await startHarness(provider, {
    fake,
    base: '/var/tmp',
    env: Object.fromEntries(all.map((agent) => [agent.key.name, agent.key.value])),
    // Each agent pointed at the endpoint its own way, as the web host's --agent-model-endpoint does.
    agentModel: agentModelOf({ port }),
    eventTimeoutMs: TURN_MS,
  });
  for (const [i, agent] of all.entries()) {
    await fs.mkdir(path.join(h.dataDir, 'agents', agent.id), { recursive: true });
    await fs.symlink(prefixes[i]!, path.join(h.dataDir, 'agents', agent.id, 'pkg'));
  }
  withTimeoutWords(h, all, fake);
  return { h, fake };
}

/**
 * A core, the person's folder, and a session of `agent` opened on that folder with no
 * place asked: the session's place is the one the core made for it.
 */
export async function bootStagedAgent(
  agent: RealAgent,
  move: Move,
  options: { repository?: boolean } = {},
): Promise<StagedBooted> {
  const { h, fake } = await startStagedCore(agent, move);
  const origin = await personFolder(h, options.repository ?? true);
  const { id, place } = await openStaged(h, agent, origin);
  return { h, fake, id, origin, place };
}

/** Opens a session of `agent` on `origin` through the contract, asking for no place: the core must give it one. */
export async function openStaged(
  h: Harness,
  agent: RealAgent,
  origin: string,
): Promise<{ id: string; place: SessionPlace }> {
  const summary = await h.call('sessions.open', { workspace: origin, agent: agent.id });
  if (!summary.place) throw new Error(`${agent.id}'s session was opened without a place of its own`);
  expect(summary.workspace).toBe(summary.place.path);
  return { id: summary.id, place: summary.place };
}

/** The person's folder under the harness's root in /var/tmp: a repository with one commit on `main`, or a plain folder. */
export async function personFolder(h: Harness, repository: boolean, name = 'project'): Promise<string> {
  const origin = path.join(h.root, 'person', name);
  await fs.mkdir(origin, { recursive: true });
  for (const [rel, text] of Object.entries(ORIGIN_FILES)) await fs.writeFile(path.join(origin, rel), text);
  if (!repository) return origin;
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'add', '-A');
  git(origin, '-c', 'user.name=Person', '-c', 'user.email=person@example.com', 'commit', '-q', '-m', 'start');
  return origin;
}

/** The person's own git (the test's, as they would run it). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
}

/** Every file under `folder` (its .git too) with the SHA-256 of its bytes, or of a link's target. */
export async function folderDigest(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(folder, full);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isSymbolicLink()) out[rel] = `link:${await fs.readlink(full)}`;
      else
        out[rel] = createHash('sha256')
          .update(await fs.readFile(full))
          .digest('hex');
    }
  };
  await walk(folder);
  return out;
}

/** A wait that times out says what the session logged and what the model was asked. */
function withTimeoutWords(h: Harness, agents: readonly RealAgent[], fake: FakeModel): void {
  const event = h.event.bind(h);
  h.event = (sid, type, match) =>
    event(sid, type, match).catch(async (err: Error) => {
      const logged = (await h.events(sid)).map(
        (e) => `${e.type}${'body' in e ? `:${e.body.kind}` : ''}${'message' in e && e.message ? ` ${e.message}` : ''}`,
      );
      // One agent's requests are described its way; several agents' by path (each reads its own wire).
      const describe = agents.length === 1 ? agents[0]!.describe : undefined;
      const asked = fake.requests.map((r) => describe?.(r) ?? r.path);
      throw new Error(`${err.message}\nlogged: ${logged.join(', ')}\nmodel asked: ${asked.join('\n')}`);
    });
}

/**
 * Checks the staged start card (its place writable; the person's folder named as unseen,
 * nothing of it shown but a worktree's `.git`, read-only), then allows it.
 */
export async function allowStagedStart(
  h: Harness,
  id: string,
  agent: RealAgent,
  booted: Pick<StagedBooted, 'origin' | 'place'>,
): Promise<void> {
  const start = await h.event(id, 'card', (c) => c.body.kind === 'agent_start');
  if (start.body.kind !== 'agent_start') throw new Error('not a start card');
  expect(start.body.writable).toContain(booted.place.path);
  expect(start.body.readOnly).not.toContain(booted.place.path);
  const ofOrigin = [...start.body.readOnly, ...start.body.writable].filter(
    (p) => p === booted.origin || p.startsWith(`${booted.origin}/`),
  );
  expect(ofOrigin).toEqual(booted.place.kind === 'worktree' ? [path.join(booted.origin, '.git')] : []);
  expect(start.body.readOnly).toEqual(expect.arrayContaining(ofOrigin));
  expect(start.body.place).toEqual({
    path: booted.place.path,
    origin: booted.origin,
    words: 'its writes and commands run inside its own place without a card; only what you apply reaches your folder',
  });
  expect(start.body.domains).toEqual(agent.domains);
  expect(JSON.stringify(start)).not.toContain(agent.key.value);
  await h.call('card.answer', { id, cardId: start.cardId, answer: 'allow_session' });
}

/**
 * A shell command run by the agent in its place: it writes `ran.txt`, tries the person's
 * secret file and folder, a host that is not its model's through the proxy and around it,
 * and git in the place. `expectProbe` reads what it printed.
 */
export function probeCommand(origin: string): string {
  return [
    'echo ran > ran.txt',
    `cat ${origin}/secret.txt 2>&1 || echo "secret: unreadable"`,
    `echo "origin holds: $(ls -A ${origin} 2>&1 | tr '\\n' ' ')"`,
    // Through the proxy to a host that is not its model's: refused by the proxy.
    'curl -sS -m 20 -x http://127.0.0.1:3128 https://example.com/ -o /dev/null 2>&1; echo "proxied exit $?"',
    // Around the proxy: the jail has no network of its own.
    'curl -sS -m 20 --noproxy \'*\' http://93.184.215.14/ -o /dev/null 2>&1; echo "direct exit $?"',
    'git status --short --untracked-files=all 2>&1',
  ].join('; ');
}

export function expectProbe(output: string | undefined): void {
  expect(output).toBeDefined();
  expect(output).not.toContain(ORIGIN_SECRET);
  expect(output).toContain('secret: unreadable');
  // The person's folder is emptied around its .git, shown read-only so git works in the place.
  expect(output).toContain('origin holds: .git ');
  expect(output).toContain('CONNECT tunnel failed, response 403');
  expect(output).toMatch(/proxied exit [1-9]/);
  expect(output).toMatch(/direct exit [1-9]/);
  expect(output).toContain('?? hello.txt');
}
