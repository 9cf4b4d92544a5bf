/**
 * grep in a resident sandbox, with the real bubblewrap (issue 31's bench: starting
 * bubblewrap for each search cost a third of a stopped grep). Greps enter one sandbox per
 * view; a changed view starts a new one and the old one stops; a dead one is replaced and
 * the grep it held ends with words; stopping at 200 leaves no ripgrep running inside; one
 * that cannot start leaves grep answering as before; dispose leaves no process.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { ResidentSandboxes } from '../../../../../electron/core/process/resident-sandboxes.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import type { CommandSpec, SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';
import { createGrepTool } from '../../../../../electron/core/tools/grep.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ToolContext, ToolDef, ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { eventually, groupMembers, ownBwraps } from '../process/resident-processes.js';

let root: string;
let home: string;
let ws: string;
let sandbox: BwrapSandbox;
let residents: ResidentSandboxes;
/** What the sandbox was asked to confine, by program: node (a resident's server, or asking its environment) or rg (a grep started afresh). */
let confined: string[];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-grep-resident-'));
  home = path.join(root, 'home');
  ws = path.join(home, 'src', 'app');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(path.join(root, 'data'));
  sandbox = new BwrapSandbox({ dataDir: path.join(root, 'data'), home, env: process.env });
  confined = [];
  const confine = sandbox.confine.bind(sandbox);
  sandbox.confine = (spec: CommandSpec, profile: SandboxProfile) => {
    confined.push(path.basename(spec.argv[0] ?? ''));
    return confine(spec, profile);
  };
  residents = new ResidentSandboxes();
});
afterEach(async () => {
  await residents.dispose();
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function context(withResidents = residents): Promise<ToolContext> {
  return {
    workspace: await Workspace.open(ws, { dataDir: path.join(root, 'data') }),
    commandEnv: { PATH: process.env.PATH, HOME: home },
    sandbox: { sandbox, refuseUnconfined: () => false },
    ...(withResidents ? { residents: withResidents } : {}),
  };
}

async function grep(ctx: ToolContext, args: Record<string, unknown>, timeLimitMs?: number): Promise<ToolResult> {
  const tools = new Tools(ctx, timeLimitMs ? [createGrepTool({ timeLimitMs }) as ToolDef] : undefined);
  return tools.execute(await tools.plan('grep', args));
}

async function put(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

/** Node's part of `confined`: the starts of residents (each asks the sandbox twice: its environment, its server). */
const serverStarts = () => confined.filter((p) => p !== 'rg').length / 2;
const freshGreps = () => confined.filter((p) => p === 'rg').length;

describe('grep in a resident sandbox', () => {
  it('enters one sandbox for many greps of the same view', { timeout: 60_000 }, async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    const ctx = await context();
    for (let i = 0; i < 8; i++)
      expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    expect(serverStarts()).toBe(1);
    expect(freshGreps()).toBe(0);
    // One bubblewrap of this process's is running: the resident's; none was left by a grep.
    expect(ownBwraps()).toHaveLength(1);
  });

  it('starts a new one when the view changes, and the old one stops', { timeout: 60_000 }, async () => {
    await put(path.join(home, 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await put(path.join(ws, 'dist', 'out.js'), 'needle\n');
    await put(path.join(ws, 'src.js'), 'needle\n');
    const ctx = await context();
    expect((await grep(ctx, { pattern: 'needle' })).ok && ownBwraps()).toHaveLength(1);
    const [first] = ownBwraps();
    // A rules file made above the workspace: shown to the view, so a new view.
    await put(path.join(home, 'src', '.gitignore'), 'dist/\n');
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'src.js:1:needle' });
    expect(serverStarts()).toBe(2);
    expect(await eventually(() => !ownBwraps().includes(first!))).toBe(true);
    expect(ownBwraps()).toHaveLength(1);
  });

  it(
    'starts a new one when a rules file is replaced by another (a new file at the same path)',
    { timeout: 60_000 },
    async () => {
      await put(path.join(home, 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
      await put(path.join(home, 'src', '.gitignore'), 'dist/\n');
      await put(path.join(ws, 'dist', 'out.js'), 'needle\n');
      await put(path.join(ws, 'src.js'), 'needle\n');
      const ctx = await context();
      expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'src.js:1:needle' });
      // As an editor saves: a new file renamed over the old one. A bind made before still shows the old one.
      await put(path.join(home, 'src', '.gitignore.new'), 'nothing/\n');
      await fs.rename(path.join(home, 'src', '.gitignore.new'), path.join(home, 'src', '.gitignore'));
      const after = await grep(ctx, { pattern: 'needle' });
      expect(after.ok && after.output.split('\n').sort()).toEqual(['dist/out.js:1:needle', 'src.js:1:needle']);
      expect(serverStarts()).toBe(2);
    },
  );

  it('replaces one that died, and the grep it held ends with words', { timeout: 60_000 }, async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    // ripgrep blocks for good opening a FIFO named .gitignore: a grep held in flight.
    await fs.mkdir(path.join(ws, 'stuck'));
    execFileSync('mkfifo', [path.join(ws, 'stuck', '.gitignore')]);
    const ctx = await context();
    const held = grep(ctx, { pattern: 'needle' }, 60_000);
    expect(await eventually(() => ownBwraps().some((pid) => groupMembers(pid).includes('rg')))).toBe(true);
    const [dying] = ownBwraps();
    process.kill(-dying!, 'SIGKILL');
    const result = await held;
    const said = result.ok ? result.output : result.error;
    expect(said).toMatch(/stopped before it finished: its sandbox ended/);
    await fs.rm(path.join(ws, 'stuck'), { recursive: true });
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    expect(serverStarts()).toBe(2);
    expect(ownBwraps()).toHaveLength(1);
  });

  it('leaves no ripgrep running inside once it stopped at 200 matches', { timeout: 60_000 }, async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `needle ${i}`).join('\n');
    for (let f = 0; f < 40; f++) await put(path.join(ws, `f${f}.txt`), `${lines}\n`);
    // A FIFO holds one of ripgrep's threads for good: only the stop at 200 ends this search.
    await fs.mkdir(path.join(ws, 'stuck'));
    execFileSync('mkfifo', [path.join(ws, 'stuck', '.gitignore')]);
    const ctx = await context();
    const result = await grep(ctx, { pattern: 'needle' }, 60_000);
    expect(result).toMatchObject({ ok: true, details: { shown: 200, more: true } });
    const [resident] = ownBwraps();
    expect(groupMembers(resident!)).not.toContain('rg');
    expect(groupMembers(resident!)).toHaveLength(3);
  });

  it(
    'answers as before where no resident can start: each grep starts its own sandbox',
    { timeout: 60_000 },
    async () => {
      await put(path.join(ws, 'a.txt'), 'needle\n');
      const refusing = new ResidentSandboxes({ start: () => Promise.reject(new Error('cannot start here')) });
      const ctx = await context(refusing);
      expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
      expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
      expect(freshGreps()).toBe(2);
      await refusing.dispose();
    },
  );

  it('leaves no process once disposed', { timeout: 60_000 }, async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    await put(path.join(home, 'notes', 'b.txt'), 'needle\n');
    const ctx = await context();
    await grep(ctx, { pattern: 'needle' });
    // A folder outside the workspace is a view of its own.
    await grep(ctx, { pattern: 'needle', path: path.join(home, 'notes') });
    const running = ownBwraps();
    expect(running).toHaveLength(2);
    await residents.dispose();
    for (const pid of running) expect(groupMembers(pid)).toEqual([]);
    expect(ownBwraps()).toEqual([]);
    // And a grep after that starts its own sandbox, as without residents.
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    expect(freshGreps()).toBe(1);
  });
});
