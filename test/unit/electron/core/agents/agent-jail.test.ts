/**
 * The jail an external agent runs in, with the real bubblewrap (SPEC §14). The "agent" is
 * a node script run inside (jail-probe.mjs) that tries each promise and says what
 * happened; the person's home, the data folder, the workspace and the install are fixtures
 * under /var/tmp. The proxy lands the listed host on a loopback stand-in, names resolve
 * from a table, and nothing leaves this machine.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchJailed, type JailedLaunch } from '../../../../../electron/core/agents/agent-jail.js';
import type { AgentProcess } from '../../../../../electron/core/agents/agent-process.js';
import { CLAUDE_CODE_ENV, type AgentSpec } from '../../../../../electron/core/agents/agent-spec.js';
import { RELAY_PLACEHOLDER_KEY } from '../../../../../electron/core/agents/model-relay.js';
import type { Refusal } from '../../../../../electron/core/sandbox/network/refusal.js';
import { GATE_PORT, MODEL_PORT } from '../../../../../electron/core/sandbox/agent-view.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { startStandIn, tableLookup, type StandIn } from '../sandbox/network/stand-in.js';

const ID = 'claude-code';
const KEY = `sk-test-${randomBytes(8).toString('hex')}`;
const LISTED = 'api.anthropic.com';

let root: string;
let personHome: string;
let dataDir: string;
let pkg: string;
let workspace: string;
let tmpMarker: string;
let gateSocket: string;
let gate: http.Server;
let modelServer: http.Server;
let loopbackServer: net.Server;
let loopbackConnections = 0;
/** The headers of each request the model server got. */
const modelHeaders: http.IncomingHttpHeaders[] = [];
let standIn: StandIn;
let sandbox: BwrapSandbox;

const appEnv = {
  PATH: process.env.PATH,
  LANG: 'C.UTF-8',
  ANTHROPIC_API_KEY: KEY,
  GITHUB_TOKEN: 'ghp_person_secret',
  AWS_SECRET_ACCESS_KEY: 'aws-person-secret',
  OPENAI_API_KEY: 'sk-another-agents-key',
  DATABASE_URL: 'postgres://me:pw@db/x',
};

/** What the probe tried: a file operation, or an exchange with a loopback port. */
interface Tried {
  ok: boolean;
  code?: string;
  value?: string | string[];
  got?: string;
}

/** What jail-probe.mjs says. */
interface Probe {
  uid: number;
  gid: number;
  home: string;
  cwd: string;
  hostTmpMarker: boolean;
  env: string[];
  envValues: Record<string, string | undefined>;
  workspaceWrite: Tried;
  workspaceRead: Tried;
  homeWrite: Tried;
  personSsh: Tried;
  personHome: Tried;
  dataDir: Tried;
  dataKeys: Tried;
  agentsFolder: Tried;
  ownFolder: Tried;
  pkgWrite: Tried;
  tmpWrite: Tried;
  seccomp?: string;
  unixSocket: Tried;
  loopback: Tried;
  listed: Tried;
  unlisted: Tried;
  gate: Tried;
  model: Tried;
}

function spec(entry: string, args: string[]): AgentSpec {
  return {
    id: ID,
    label: 'Claude Code',
    version: '0.0.0-test',
    packages: ['fake@0.0.0'],
    entry,
    args,
    domains: [LISTED],
    keyVariable: 'ANTHROPIC_API_KEY',
    env: { ...CLAUDE_CODE_ENV },
    gated: true,
  };
}

/** The probe's one argument: the places and ports to try. */
function probeConfig(): string {
  return JSON.stringify({
    workspace,
    personHome,
    dataDir,
    pkg,
    id: ID,
    tmpMarker,
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    hostPort: (loopbackServer.address() as AddressInfo).port,
    listed: LISTED,
    unlisted: 'example.com',
    gatePort: GATE_PORT,
    modelPort: MODEL_PORT,
  });
}

function launch(entry: string, args: string[], extra: Partial<JailedLaunch> = {}): Promise<AgentProcess> {
  return launchJailed({
    spec: spec(entry, args),
    install: { prefix: pkg, version: '0.0.0-test', node: process.execPath },
    workspace,
    dataDir,
    domains: [LISTED],
    env: appEnv,
    gateSocket,
    sandbox,
    model: { endpoint: { port: (modelServer.address() as AddressInfo).port }, baseUrlVariable: 'ANTHROPIC_BASE_URL' },
    ...extra,
  });
}

async function listen(server: http.Server | net.Server, at: string | number): Promise<void> {
  await new Promise<void>((resolve) =>
    typeof at === 'string' ? server.listen(at, resolve) : server.listen(at, '127.0.0.1', resolve),
  );
}

/** Reads the agent's stdout to its end. */
async function readAll(agent: AgentProcess): Promise<string> {
  let text = '';
  for await (const chunk of agent.stdout as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  return text;
}

beforeAll(async () => {
  // Fixtures a confined process must see go under /var/tmp: its /tmp is private.
  root = await fs.mkdtemp('/var/tmp/gatehouse-jail-test-');
  personHome = path.join(root, 'home');
  dataDir = path.join(personHome, '.local/share/gatehouse');
  pkg = path.join(dataDir, 'agents', ID, 'pkg');
  workspace = path.join(root, 'work');
  await fs.mkdir(path.join(personHome, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(personHome, '.ssh/id_ed25519'), 'PERSON PRIVATE KEY');
  await fs.mkdir(pkg, { recursive: true });
  await fs.copyFile(path.join(import.meta.dirname, 'jail-probe.mjs'), path.join(pkg, 'probe.mjs'));
  await fs.copyFile(path.join(import.meta.dirname, 'jail-linger.mjs'), path.join(pkg, 'linger.mjs'));
  await fs.writeFile(path.join(dataDir, 'keys.json'), '{"anthropic":"sk-in-the-data-folder"}');
  await fs.mkdir(path.join(dataDir, 'agents', 'gemini-cli', 'home'), { recursive: true });
  await fs.mkdir(path.join(dataDir, 'agents', 'run'), { recursive: true });
  await fs.mkdir(workspace);
  await fs.writeFile(path.join(workspace, 'README.md'), 'the workspace\n');
  tmpMarker = `/tmp/gatehouse-jail-marker-${randomBytes(4).toString('hex')}`;
  await fs.writeFile(tmpMarker, 'host tmp');

  gateSocket = path.join(dataDir, 'agents', 'run', 's1.sock');
  gate = http.createServer((_req, res) => res.end('gate: hello'));
  await listen(gate, gateSocket);
  modelServer = http.createServer((req, res) => {
    modelHeaders.push(req.headers);
    res.end(`model: ${req.url}`);
  });
  await listen(modelServer, 0);
  loopbackServer = net.createServer((s) => {
    loopbackConnections++;
    s.end('should never be reached');
  });
  await listen(loopbackServer, 0);
  standIn = await startStandIn();
  sandbox = new BwrapSandbox({
    dataDir,
    home: personHome,
    env: process.env,
    network: {
      lookup: tableLookup({}),
      connect: (host) => (host === LISTED ? { host: '127.0.0.1', port: standIn.port } : undefined),
    },
  });
  const availability = await sandbox.availability();
  if (!availability.available) throw new Error(`the jail tests need bubblewrap: ${availability.reason}`);
}, 60_000);

afterAll(async () => {
  await sandbox?.dispose();
  await standIn?.close();
  for (const server of [gate, modelServer, loopbackServer]) {
    if (server) await new Promise((resolve) => server.close(resolve));
  }
  if (root) await fs.rm(root, { recursive: true, force: true });
  await fs.rm(tmpMarker, { force: true });
});

describe('an agent using the key saved in Gatehouse', () => {
  const SAVED = `sk-ant-saved-${randomBytes(8).toString('hex')}`;

  it('holds only a stand-in: the model host gets the saved key, and nothing inside the jail has it', async () => {
    const { ANTHROPIC_API_KEY: _none, ...withoutKey } = appEnv;
    const before = modelHeaders.length;
    const agent = await launch('probe.mjs', [probeConfig()], {
      env: withoutKey,
      storedKey: { value: SAVED, provider: 'Anthropic' },
    });
    const out = await readAll(agent);
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    const seen = JSON.parse(out) as Probe & { envAll: Record<string, string>; homeFiles: Record<string, string> };
    // It asked its model host once (the probe's GET), through the keyed relay.
    expect(modelHeaders.slice(before).map((h) => h['x-api-key'])).toEqual([SAVED]);
    expect(seen.model.got).toMatch(/^HTTP\/1.1 200 [\s\S]*model: \/v1\/models$/);
    expect(seen.envValues.key).toBe(RELAY_PLACEHOLDER_KEY);
    // Neither its environment, nor any file of its HOME, nor anything it printed holds the key.
    expect(Object.keys(seen.homeFiles).length).toBeGreaterThan(0);
    expect(out).not.toContain(SAVED);
    expect(agent.stderrTail()).not.toContain(SAVED);
    expect(agent.stderrTail()).toContain(`starting with key ${RELAY_PLACEHOLDER_KEY}`);
  }, 60_000);
});

describe('an agent in its jail', () => {
  const refused: Refusal[] = [];
  let seen: Probe;
  let stderr: string;
  let exit: { code: number | null; signal: string | null };

  beforeAll(async () => {
    const agent = await launch('probe.mjs', [probeConfig()], { onNetworkRefused: (r) => refused.push(r) });
    const out = await readAll(agent);
    exit = await agent.exited;
    stderr = agent.stderrTail();
    try {
      seen = JSON.parse(out) as Probe;
    } catch {
      throw new Error(`the probe said no JSON (exit ${JSON.stringify(exit)}): ${out}\n${stderr}`);
    }
  }, 60_000);

  it('ran to its end', () => {
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('tells the driver of each host its proxy refused, even when the agent ends before the next look', () => {
    expect(refused.map((r) => [r.host, r.port, r.suggest])).toEqual([['example.com', 443, 'example.com']]);
  });

  it('cannot write the workspace (EROFS), but reads it and works in it', () => {
    expect(seen.workspaceWrite).toEqual({ ok: false, code: 'EROFS' });
    expect(seen.workspaceRead).toEqual({ ok: true, value: 'the workspace\n' });
    expect(seen.cwd).toBe(workspace);
    expect(readdirSync(workspace)).toEqual(['README.md']);
  });

  it('writes its own HOME, which is <dataDir>/agents/<id>/home on the host, made 0700', async () => {
    const home = path.join(await fs.realpath(dataDir), 'agents', ID, 'home');
    expect(seen.home).toBe(home);
    expect(seen.homeWrite).toEqual({ ok: true });
    expect(readFileSync(path.join(home, 'probe.txt'), 'utf8')).toBe('from inside');
    expect((await fs.stat(home)).mode & 0o777).toBe(0o700);
  });

  it("does not see the person's ~/.ssh: the home folder is empty", () => {
    expect(seen.personSsh).toEqual({ ok: false, code: 'ENOENT' });
    expect(seen.personHome.value).not.toContain('.ssh');
  });

  it('sees nothing of the data folder but its own two folders, and cannot write its install', () => {
    expect(seen.dataKeys).toEqual({ ok: false, code: 'ENOENT' });
    expect(seen.dataDir).toEqual({ ok: true, value: ['agents'] });
    expect(seen.agentsFolder).toEqual({ ok: true, value: [ID] });
    expect([...(seen.ownFolder.value ?? [])].sort()).toEqual(['home', 'pkg']);
    expect(seen.pkgWrite.code).toMatch(/EROFS|EACCES/);
  });

  it('runs as a non-root uid and gid', () => {
    expect(seen.uid).not.toBe(0);
    expect(seen.gid).not.toBe(0);
    expect(seen.uid).toBe(process.getuid?.() === 0 ? 1000 : process.getuid?.());
  });

  it('has a /tmp of its own', () => {
    expect(seen.hostTmpMarker).toBe(false);
    expect(seen.tmpWrite).toEqual({ ok: true });
  });

  it('runs under the seccomp program of commands: no Unix socket of its own, not even the bridged ones', () => {
    expect(seen.seccomp).toBe('2');
    expect(seen.unixSocket).toEqual({ ok: false, code: 'EPERM' });
  });

  it('cannot reach a loopback server of the host that is not bridged', () => {
    expect(seen.loopback).toEqual({ ok: false, code: 'ECONNREFUSED' });
    expect(loopbackConnections).toBe(0);
  });

  it('reaches a listed host through the proxy, and is refused an unlisted one', () => {
    expect(seen.listed.got).toMatch(/^HTTP\/1.1 200 /);
    expect(seen.listed.got).toContain(`stand-in: GET /listed host=${LISTED}`);
    expect(seen.unlisted.got).toMatch(/^HTTP\/1.1 403 /);
    expect(seen.unlisted.got).toContain('example.com');
  });

  it("reaches the gate's socket at 127.0.0.1:GATE_PORT, and a named model endpoint at MODEL_PORT", () => {
    expect(seen.gate.got).toMatch(/^HTTP\/1.1 200 [\s\S]*gate: hello$/);
    expect(seen.model.got).toMatch(/^HTTP\/1.1 200 [\s\S]*model: \/v1\/models$/);
  });

  it("gets its key variable and its extras, and none of the person's secret-looking variables", () => {
    expect(seen.envValues).toEqual({
      key: KEY,
      base: `http://127.0.0.1:${MODEL_PORT}`,
      search: 'false',
      traffic: '1',
    });
    for (const name of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY', 'DATABASE_URL']) {
      expect(seen.env).not.toContain(name);
    }
    expect(seen.env).toContain('HTTPS_PROXY');
  });

  it('shows its stderr without the key', () => {
    expect(stderr).toBe('starting with key [key]');
  });
});

describe('stopping an agent', () => {
  it('ends the whole jail: nothing it started is left', async () => {
    const token = `gatehouse-linger-${randomBytes(6).toString('hex')}`;
    const agent = await launch('linger.mjs', [token]);
    const first = await new Promise<string>((resolve) =>
      (agent.stdout as NodeJS.ReadableStream).once('data', (d: Buffer) => resolve(d.toString())),
    );
    expect(first).toMatch(/^started \d+/);
    expect(processesWith(token).length).toBeGreaterThan(0);
    await agent.stop();
    expect(processesWith(token)).toEqual([]);
    expect((await agent.exited).code === 0).toBe(false);
  }, 60_000);
});

describe('what is refused before anything starts', () => {
  it('a launch whose fingerprint no longer matches the card the person allowed', async () => {
    await expect(launch('probe.mjs', ['{}'], { fingerprint: 'f'.repeat(64) })).rejects.toThrow(
      /launch changed since it was allowed/,
    );
  });

  it('a launch aborted while the jail was being prepared: nothing starts', async () => {
    const aborted = AbortSignal.abort();
    await expect(launch('linger.mjs', ['never-started'], { signal: aborted })).rejects.toThrow(
      /aborted before it started/,
    );
    expect(processesWith('never-started')).toEqual([]);
  });

  it('a gate socket that is not there', async () => {
    await expect(launch('probe.mjs', ['{}'], { gateSocket: path.join(root, 'nothing.sock') })).rejects.toThrow(
      /the gate socket is not there/,
    );
  });
});

/** Live (not zombie) processes whose command line holds the token. */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(token) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
