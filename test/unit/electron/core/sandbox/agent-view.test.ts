/**
 * An agent's jail as a profile of the sandbox room (SPEC §14), and the bubblewrap
 * arguments it becomes: the workspace and the install read-only, only the agent's own
 * HOME writable, the data folder emptied around the agent's two folders, a non-root
 * identity, and the gate's (and a local model's) socket forwarded in.
 */
import { describe, expect, it } from 'vitest';
import {
  GATE_PORT,
  MODEL_PORT,
  agentProfile,
  gateUrlInside,
  nodePrefix,
} from '../../../../../electron/core/sandbox/agent-view.js';
import { bwrapArgs } from '../../../../../electron/core/sandbox/bwrap-args.js';
import type { SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';

const command: SandboxProfile = {
  network: ['api.anthropic.com'],
  git: false,
  home: '/home/u',
  writable: ['/home/u/src'],
  readOnly: ['/home/u/src/.git'],
  shown: [],
  hidden: ['/home/u/.local/share/gatehouse', '/run', '/var/tmp'],
};
const places = {
  workspace: '/home/u/src',
  home: '/home/u/.local/share/gatehouse/agents/claude-code/home',
  install: '/home/u/.local/share/gatehouse/agents/claude-code/pkg',
  node: '/home/u/.nvm/versions/node/v24.1.0/bin/node',
  gateSocket: '/home/u/.local/share/gatehouse/agents/run/s1.sock',
};

describe('agentProfile', () => {
  const profile = agentProfile(command, places, ['api.anthropic.com'], 0, 0);

  it('shows the workspace, the install and node read-only, and writes only its own HOME', () => {
    expect(profile.writable).toEqual([places.home]);
    expect(profile.shown).toEqual([places.workspace, places.install, '/home/u/.nvm/versions/node/v24.1.0']);
    expect(profile.readOnly).toEqual([]);
    expect(profile.network).toEqual(['api.anthropic.com']);
    expect(profile.git).toBe(false);
  });

  it('keeps hidden everything a command never sees', () => {
    expect(profile.hidden).toEqual(command.hidden);
    expect(profile.home).toBe('/home/u');
  });

  it('runs as 1000 when the app is root, and as the person otherwise; never as root', () => {
    expect(profile.jail).toMatchObject({ uid: 1000, gid: 1000, home: places.home });
    expect(agentProfile(command, places, [], 1234, 5678).jail).toMatchObject({ uid: 1234, gid: 5678 });
  });

  it("forwards the gate's socket to GATE_PORT, and a model socket to MODEL_PORT only when there is one", () => {
    expect(profile.jail?.forwards).toEqual([{ name: 'gate', port: GATE_PORT, socket: places.gateSocket }]);
    const withModel = agentProfile(command, { ...places, modelSocket: '/tmp/m/model.sock' }, [], 0, 0);
    expect(withModel.jail?.forwards).toContainEqual({ name: 'model', port: MODEL_PORT, socket: '/tmp/m/model.sock' });
    expect(gateUrlInside()).toBe(`http://127.0.0.1:${GATE_PORT}/mcp`);
  });

  it('has no network of its own without domains: only the forwards', () => {
    expect(agentProfile(command, places, [], 0, 0).network).toBe(false);
  });

  it("finds node's prefix: the folder above bin, else node's own folder", () => {
    expect(nodePrefix('/usr/bin/node')).toBe('/usr');
    expect(nodePrefix('/opt/node')).toBe('/opt');
    expect(nodePrefix('/bin/node')).toBe('/bin');
  });
});

describe("the jail's bubblewrap arguments", () => {
  const profile = agentProfile(command, places, ['api.anthropic.com'], 0, 0);
  const args = bwrapArgs({
    argv: ['node', 'agent.js'],
    cwd: places.workspace,
    profile,
    privateTmp: '/tmp/gatehouse-sandbox-x',
    homeRoots: ['/home'],
    homeExists: true,
    hiddenFolders: new Set(command.hidden),
    disableUserns: false,
    identity: { uid: 1000, gid: 1000 },
  });
  const line = args.join(' ');

  it('binds the workspace read-only, never writable', () => {
    expect(line).toContain(`--ro-bind ${places.workspace} ${places.workspace}`);
    expect(line).not.toContain(`--bind ${places.workspace} `);
  });

  it('empties the data folder around the agent’s HOME (writable) and install (read-only)', () => {
    const at = (s: string) => line.indexOf(s);
    const data = '/home/u/.local/share/gatehouse';
    expect(at(`--tmpfs ${data} `)).toBeGreaterThan(-1);
    expect(at(`--tmpfs ${data} `)).toBeLessThan(at(`--bind ${places.home} ${places.home}`));
    expect(at(`--tmpfs ${data} `)).toBeLessThan(at(`--ro-bind ${places.install} ${places.install}`));
    expect(line).toContain(`--remount-ro ${data}`);
  });
});

describe('a staged agent’s jail (SPEC §15)', () => {
  const origin = '/home/u/src';
  const placePath = '/home/u/.local/share/gatehouse/places/s1/src';
  const staged = {
    ...places,
    workspace: placePath,
    staged: { origin, gitDir: `${origin}/.git` },
  };
  const placeCommand: SandboxProfile = { ...command, writable: [placePath], readOnly: [] };
  const profile = agentProfile(placeCommand, staged, ['api.openai.com'], 0, 0);

  it('writes its place and its HOME; shows the origin’s .git, the install and node read-only', () => {
    expect(profile.writable).toEqual([places.home, placePath]);
    expect(profile.shown).toEqual([`${origin}/.git`, places.install, '/home/u/.nvm/versions/node/v24.1.0']);
    expect(profile.shown).not.toContain(placePath);
  });

  it('hides the person’s folder whole, with everything a command never sees', () => {
    expect(profile.hidden).toEqual([...command.hidden, origin]);
  });

  it('binds the place writable and empties the person’s folder around its .git', () => {
    const args = bwrapArgs({
      argv: ['codex-acp'],
      cwd: placePath,
      profile,
      privateTmp: '/tmp/gatehouse-sandbox-x',
      homeRoots: ['/home'],
      homeExists: true,
      hiddenFolders: new Set(profile.hidden),
      disableUserns: false,
      identity: { uid: 1000, gid: 1000 },
    });
    const line = args.join(' ');
    const at = (s: string) => line.indexOf(s);
    expect(line).toContain(`--bind ${placePath} ${placePath}`);
    expect(at(`--tmpfs ${origin} `)).toBeGreaterThan(-1);
    expect(at(`--tmpfs ${origin} `)).toBeLessThan(at(`--ro-bind ${origin}/.git ${origin}/.git`));
    expect(line).not.toContain(`--bind ${origin} `);
    expect(line).not.toContain(`--ro-bind ${origin} ${origin}`);
  });

  it('shows nothing of a copy’s origin', () => {
    const copy = agentProfile(placeCommand, { ...staged, staged: { origin, gitDir: null } }, [], 0, 0);
    expect(copy.shown).toEqual([places.install, '/home/u/.nvm/versions/node/v24.1.0']);
    expect(copy.hidden).toContain(origin);
  });
});
