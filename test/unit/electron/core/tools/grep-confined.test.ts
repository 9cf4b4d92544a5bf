/**
 * Issue 31 with the real bubblewrap: grep runs in the sandbox's read-only view of the
 * workspace, so a confined racer that keeps swapping a searched folder for a link to
 * `~/.ssh` never gets a byte of it into a result; and the view answers as grep did
 * before, for the rules ripgrep reads above the workspace and for a search outside it.
 * A fake home under /var/tmp (a confined process has a private /tmp) holds the key.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { SpareSandboxes } from '../../../../../electron/core/process/spare-sandboxes.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { readOnlyProfile } from '../../../../../electron/core/sandbox/helper-view.js';
import { runRipgrep } from '../../../../../electron/core/tools/ripgrep.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ToolContext } from '../../../../../electron/core/tools/tool-def.js';
import { unconfined } from '../../../../support/unconfined.js';
import {
  exchanges,
  raceAsCommand,
  raceAsServer,
  racing,
  setUpRace,
  stopRace,
  untangle,
} from '../sandbox/link-racer.js';

const SECRET = 'GATEHOUSE-RACER-SSH-KEY-4e1b';

let root: string;
let home: string;
let dataDir: string;
let ws: string;
let sandbox: BwrapSandbox;
let spares: SpareSandboxes;
let confined: ToolContext;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-grep-confined-'));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  ws = path.join(home, 'src', 'app');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_ed25519'), `needle ${SECRET}\n`, { mode: 0o600 });
  await fs.mkdir(dataDir, { recursive: true });
  await fs.mkdir(ws, { recursive: true });
  sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
  spares = new SpareSandboxes();
  confined = await contextFor(sandbox);
});
afterEach(async () => {
  await spares.dispose();
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function contextFor(s: BwrapSandbox | null, ahead = true): Promise<ToolContext> {
  return {
    workspace: await Workspace.open(ws, { dataDir }),
    commandEnv: { PATH: process.env.PATH, HOME: home },
    sandbox: s ? { sandbox: s, refuseUnconfined: () => false } : unconfined(),
    // As the app greps: in a sandbox started ahead for the view (grep-spare.test.ts).
    ...(s && ahead ? { spares } : {}),
  };
}

async function grep(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  const tools = new Tools(ctx);
  const result = await tools.execute(await tools.plan('grep', args));
  if (!result.ok) throw new Error(result.error);
  return result.output;
}

async function put(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

describe.each([
  ['in sandboxes started ahead', true],
  ['in sandboxes started when it runs', false],
])('grep %s, while a confined process swaps a searched folder for a link to ~/.ssh', (_, ahead) => {
  /** Greps `times` times while the racer runs; how many results held the key, and how many searched `d`. */
  async function grepWhileRacing(times: number): Promise<{ leaked: number; searchedD: number }> {
    let leaked = 0;
    let searchedD = 0;
    const tools = new Tools(await contextFor(sandbox, ahead));
    for (let i = 0; i < times; i++) {
      // A file listed, then gone with its folder's swap, is an error of ripgrep's: that is a result too.
      const result = await tools.execute(await tools.plan('grep', { pattern: 'needle' }));
      const output = result.ok ? result.output : result.error;
      if (output.includes(SECRET) || output.includes('id_ed25519')) leaked++;
      if (output.includes('d/f')) searchedD++;
    }
    return { leaked, searchedD };
  }

  beforeEach(async () => {
    for (let i = 0; i < 20; i++) await put(path.join(ws, 'd', `f${i}.txt`), `needle ${i}\n`);
    await setUpRace(ws, path.join(home, '.ssh'));
  });

  // One racer at a time: two spinning racers would take both cores of a small machine.
  it('never returns a byte of it while the racer runs as a command', { timeout: 120_000 }, async () => {
    const command = await raceAsCommand(confined, 100);
    await racing(ws);
    const seen = await grepWhileRacing(150).finally(() => stopRace(ws));
    const raced = await command.done;
    await untangle(ws);
    expect(raced.ok && exchanges(raced.output)).toBeGreaterThan(0);
    // The greps did search `d` while it raced, and none saw the key.
    expect(seen.searchedD).toBeGreaterThan(0);
    expect(seen.leaked).toBe(0);
  });

  it('never returns a byte of it while the racer runs as a long-lived server', { timeout: 120_000 }, async () => {
    const server = await raceAsServer(sandbox, ws, 100);
    const output: Buffer[] = [];
    server.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    await racing(ws);
    const seen = await grepWhileRacing(150).finally(() => stopRace(ws));
    await server.exited;
    await server.settle();
    await server.release();
    await untangle(ws);
    expect(exchanges(Buffer.concat(output).toString('utf8'))).toBeGreaterThan(0);
    expect(seen.searchedD).toBeGreaterThan(0);
    expect(seen.leaked).toBe(0);
  });
});

describe('grep in the view answers as before', () => {
  it('follows the .gitignore of a repository above the workspace, in the emptied home', async () => {
    await put(path.join(home, 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await put(path.join(home, 'src', '.gitignore'), 'dist/\n');
    await put(path.join(ws, 'dist', 'out.js'), 'needle\n');
    await put(path.join(ws, 'src.js'), 'needle\n');
    const before = await grep(await contextFor(null), { pattern: 'needle' });
    expect(before).toBe('src.js:1:needle');
    expect(await grep(confined, { pattern: 'needle' })).toBe(before);
  });

  it("follows the person's global git ignore file", async () => {
    await fs.mkdir(path.join(ws, '.git'));
    await put(path.join(home, '.config', 'git', 'ignore'), '*.log\n');
    await put(path.join(ws, 'a.log'), 'needle\n');
    await put(path.join(ws, 'a.txt'), 'needle\n');
    const before = await grep(await contextFor(null), { pattern: 'needle' });
    expect(before).toBe('a.txt:1:needle');
    expect(await grep(confined, { pattern: 'needle' })).toBe(before);
  });

  it('searches a folder outside the workspace, in the home, once allowed', async () => {
    await put(path.join(home, 'notes', 'todo.md'), 'needle outside\n');
    const target = path.join(home, 'notes');
    const before = await grep(await contextFor(null), { pattern: 'needle', path: target });
    expect(before).toBe(`${path.join(target, 'todo.md')}:1:needle outside`);
    expect(await grep(confined, { pattern: 'needle', path: target })).toBe(before);
  });

  it('searches the data folder once allowed, though the view hides it from commands', async () => {
    await put(path.join(dataDir, 'notes.txt'), 'needle in the data folder\n');
    const before = await grep(await contextFor(null), { pattern: 'needle', path: dataDir });
    expect(before).toBe(`${path.join(dataDir, 'notes.txt')}:1:needle in the data folder`);
    expect(await grep(confined, { pattern: 'needle', path: dataDir })).toBe(before);
  });
});

describe('ripgrep in a view bubblewrap cannot set up', () => {
  it("is an error in bubblewrap's words, never read as no match", async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    const profile = await sandbox.profile(ws, { network: false, git: false });
    const view = { sandbox, profile: readOnlyProfile(profile, [ws, path.join(root, 'not-there')]) };
    const exit = await runRipgrep(['needle'], { cwd: ws, env: { PATH: process.env.PATH }, view }, () => {});
    expect(exit).toMatchObject({ code: 2, stderr: expect.stringMatching(/^bwrap: /) });
  });
});
