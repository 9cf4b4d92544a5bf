/**
 * A staged agent's start (SPEC §15: Codex, opencode): it starts only in the active place that
 * is its workspace, never in the person's folder; its card shows the place writable, the
 * person's folder out of sight but for a worktree's .git (read-only), and says in words what
 * that means; an agent with a native program runs it as it is. Bad input is refused in words.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../../electron/core/agents/agent-spec.js';
import {
  planAgentLaunch,
  STAGED_WORDS,
  type AgentLaunchInputs,
} from '../../../../../electron/core/agents/agent-start-card.js';
import type { SessionPlace } from '../../../../../shared/places.js';

let root: string;
let inputs: AgentLaunchInputs;
let place: SessionPlace;
const platform = `${process.platform}-${process.arch}`;

const spec: AgentSpec = {
  id: 'opencode',
  label: 'opencode',
  version: '1.18.33',
  packages: ['opencode-ai@1.18.33'],
  entry: 'node_modules/opencode-ai/bin/opencode.exe',
  native: { [platform]: 'node_modules/opencode-native/bin/opencode' },
  args: ['acp'],
  domains: ['api.anthropic.com'],
  keyVariable: 'ANTHROPIC_API_KEY',
  env: {},
  gated: { reason: 'it writes and runs by itself' },
  staged: true,
};

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-staged-card-')));
  const prefix = path.join(root, 'data/agents/opencode/pkg');
  for (const file of [spec.entry, spec.native![platform]!]) {
    await fs.mkdir(path.dirname(path.join(prefix, file)), { recursive: true });
    await fs.writeFile(path.join(prefix, file), '');
  }
  await fs.mkdir(path.join(root, 'person/project/.git'), { recursive: true });
  await fs.mkdir(path.join(root, 'data/places/s1/project'), { recursive: true });
  await fs.mkdir(path.join(root, 'node/bin'), { recursive: true });
  await fs.writeFile(path.join(root, 'node/bin/node'), '');
  place = {
    kind: 'worktree',
    origin: path.join(root, 'person/project'),
    path: path.join(root, 'data/places/s1/project'),
    branch: 'gatehouse/s1',
    state: 'active',
  };
  inputs = {
    spec,
    install: { prefix, version: '1.18.33', node: path.join(root, 'node/bin/node') },
    workspace: place.path,
    dataDir: path.join(root, 'data'),
    domains: ['api.anthropic.com'],
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-secret' },
    place,
  };
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('a staged agent’s start', () => {
  it('shows its place writable and the person’s folder unseen but for its .git, read-only, in words', () => {
    const plan = planAgentLaunch(inputs);
    const home = path.join(root, 'data/agents/opencode/home');
    expect(plan.card.writable).toEqual([place.path, home]);
    expect(plan.card.readOnly).toEqual([
      path.join(place.origin, '.git'),
      inputs.install.prefix,
      path.join(root, 'node'),
    ]);
    expect(plan.card.place).toEqual({ path: place.path, origin: place.origin, words: STAGED_WORDS });
    expect(STAGED_WORDS).toBe(
      'its writes and commands run inside its own place without a card; only what you apply reaches your folder',
    );
    expect(plan.staged).toEqual({ path: place.path, origin: place.origin, gitDir: path.join(place.origin, '.git') });
  });

  it('runs its native program as it is, not with node', () => {
    const plan = planAgentLaunch(inputs);
    expect(plan.argv).toEqual([path.join(inputs.install.prefix, spec.native![platform]!), 'acp']);
  });

  it('shows no .git for a copy', () => {
    const copy: SessionPlace = { kind: 'copy', origin: place.origin, path: place.path, state: 'active' };
    const plan = planAgentLaunch({ ...inputs, place: copy });
    expect(plan.staged?.gitDir).toBeNull();
    expect(plan.card.readOnly).not.toContain(path.join(place.origin, '.git'));
  });

  it('keeps a gated agent’s workspace read-only even in a place', () => {
    const gated: AgentSpec = { ...spec, gated: true, staged: undefined, native: undefined, entry: spec.entry };
    const plan = planAgentLaunch({ ...inputs, spec: gated });
    expect(plan.staged).toBeNull();
    expect(plan.card.readOnly).toContain(place.path);
    expect(plan.card.writable).not.toContain(place.path);
    expect(plan.card.place).toBeUndefined();
  });
});

describe('a staged agent refused, in words', () => {
  const only = /opencode works only in a place of its own/;
  const refused: [string, () => AgentLaunchInputs, RegExp][] = [
    [
      'outside a place (the person’s own folder)',
      () => ({ ...inputs, workspace: place.origin, place: undefined }),
      only,
    ],
    ['in a discarded place', () => ({ ...inputs, place: { ...place, state: 'discarded' } }), only],
    [
      'in a folder that is not its place',
      () => ({ ...inputs, workspace: place.origin }),
      /works only in a place of its own: open the session in its own place \(this workspace is not its place\)/,
    ],
    [
      'in a place inside the person’s folder',
      () => ({ ...inputs, place: { ...place, origin: path.join(root, 'data/places') } }),
      /its place and your folder overlap/,
    ],
    [
      'a worktree whose origin has no .git folder',
      () => ({ ...inputs, place: { ...place, origin: path.join(root, 'node') } }),
      /the place’s origin has no \.git folder/,
    ],
    [
      'an agent neither gated nor staged',
      () => ({ ...inputs, spec: { ...spec, staged: undefined } }),
      /cannot be held to the gate: it writes and runs by itself/,
    ],
    [
      'a platform it has no program for',
      () => ({ ...inputs, spec: { ...spec, native: { 'plan9-mips': 'x' } } }),
      /has no program for this platform/,
    ],
  ];
  for (const [what, make, error] of refused) {
    it(`refuses to start ${what}`, () => {
      expect(() => planAgentLaunch(make())).toThrow(error);
    });
  }
});
