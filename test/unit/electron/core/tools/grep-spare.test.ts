/**
 * grep in sandboxes started ahead, with the real bubblewrap (issue 31's bench: starting
 * bubblewrap when a search runs cost a third of a stopped grep). Each grep after the
 * first takes the spare made for its view while the one before ran; a changed view is
 * not served by a spare made for the old one; a dead spare is replaced; stopping at 200
 * leaves no ripgrep running; dispose leaves no process.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { SpareSandboxes } from '../../../../../electron/core/process/spare-sandboxes.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import type { CommandSpec, SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';
import { createGrepTool } from '../../../../../electron/core/tools/grep.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ToolContext, ToolDef, ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { eventually, groupMembers, ownBwraps } from '../process/group-members.js';

let root: string;
let home: string;
let ws: string;
let sandbox: BwrapSandbox;
let spares: SpareSandboxes;
/** Every sandbox confined, by its program: `sh` a spare, `rg` a grep started when it ran. */
let confined: string[];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-grep-spare-'));
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
  spares = new SpareSandboxes();
});
afterEach(async () => {
  await spares.dispose();
  // Whatever a test did, nothing of it runs on: no spare forgotten, no grep left over.
  expect(ownBwraps()).toEqual([]);
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function context(): Promise<ToolContext> {
  return {
    workspace: await Workspace.open(ws, { dataDir: path.join(root, 'data') }),
    commandEnv: { PATH: process.env.PATH, HOME: home },
    sandbox: { sandbox, refuseUnconfined: () => false },
    spares,
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

const sparesStarted = () => confined.filter((p) => p === 'sh').length;
const startedWhenRun = () => confined.filter((p) => p === 'rg').length;

/** The spare waiting for the next grep, once it has started: its wrapper's pid. */
async function waitingSpare(): Promise<number> {
  let found: number | undefined;
  await eventually(() => (found = ownBwraps().find((pid) => groupMembers(pid).includes('sh'))) !== undefined);
  return found!;
}

describe('grep in sandboxes started ahead', () => {
  it('runs each grep after the first in the spare made while the one before ran', { timeout: 60_000 }, async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    const ctx = await context();
    for (let i = 0; i < 8; i++)
      expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    // The first started its own; every grep made the next one's spare.
    expect(startedWhenRun()).toBe(1);
    expect(sparesStarted()).toBe(8);
    // What is left running: the one spare waiting for the ninth, nothing of the eight greps.
    await waitingSpare();
    expect(await eventually(() => ownBwraps().length === 1)).toBe(true);
  });

  it('does not use a spare made for a view that has changed since', { timeout: 60_000 }, async () => {
    await put(path.join(home, 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await put(path.join(ws, 'dist', 'out.js'), 'needle\n');
    await put(path.join(ws, 'src.js'), 'needle\n');
    const ctx = await context();
    expect((await grep(ctx, { pattern: 'needle' })).ok).toBe(true);
    const stale = await waitingSpare();
    // A rules file made above the workspace: shown in the view, so another view.
    await put(path.join(home, 'src', '.gitignore'), 'dist/\n');
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'src.js:1:needle' });
    expect(startedWhenRun()).toBe(2);
    // The stale spare was stopped unused.
    expect(await eventually(() => groupMembers(stale).length === 0)).toBe(true);
  });

  it('does not use a spare made before a rules file was replaced by another', { timeout: 60_000 }, async () => {
    await put(path.join(home, 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await put(path.join(home, 'src', '.gitignore'), 'dist/\n');
    await put(path.join(ws, 'dist', 'out.js'), 'needle\n');
    await put(path.join(ws, 'src.js'), 'needle\n');
    const ctx = await context();
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'src.js:1:needle' });
    await waitingSpare();
    // As an editor saves: a new file renamed over the old one. A spare's bind still shows the old one.
    await put(path.join(home, 'src', '.gitignore.new'), 'nothing/\n');
    await fs.rename(path.join(home, 'src', '.gitignore.new'), path.join(home, 'src', '.gitignore'));
    const after = await grep(ctx, { pattern: 'needle' });
    expect(after.ok && after.output.split('\n').sort()).toEqual(['dist/out.js:1:needle', 'src.js:1:needle']);
    expect(startedWhenRun()).toBe(2);
  });

  it('starts afresh when the spare died, and makes another', { timeout: 60_000 }, async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    const ctx = await context();
    await grep(ctx, { pattern: 'needle' });
    const dead = await waitingSpare();
    process.kill(-dead, 'SIGKILL');
    expect(await eventually(() => groupMembers(dead).length === 0)).toBe(true);
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    expect(startedWhenRun()).toBe(2);
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    expect(startedWhenRun()).toBe(2);
  });

  it('leaves no ripgrep running once it stopped at 200 matches', { timeout: 60_000 }, async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `needle ${i}`).join('\n');
    for (let f = 0; f < 40; f++) await put(path.join(ws, `f${f}.txt`), `${lines}\n`);
    // A FIFO holds one of ripgrep's threads for good: only the stop at 200 ends this search.
    await fs.mkdir(path.join(ws, 'stuck'));
    execFileSync('mkfifo', [path.join(ws, 'stuck', '.gitignore')]);
    const ctx = await context();
    await grep(ctx, { pattern: 'needle', path: 'f0.txt' });
    await waitingSpare();
    const result = await grep(ctx, { pattern: 'needle' }, 60_000);
    expect(result).toMatchObject({ ok: true, details: { shown: 200, more: true } });
    expect(startedWhenRun()).toBe(1);
    // Only the next spare is left: the sandbox that ran ripgrep is gone whole.
    expect(await eventually(() => ownBwraps().length === 1)).toBe(true);
    expect(ownBwraps().flatMap(groupMembers)).not.toContain('rg');
  });

  it('leaves no process once disposed, and greps after that start their own', { timeout: 60_000 }, async () => {
    await put(path.join(ws, 'a.txt'), 'needle\n');
    await put(path.join(home, 'notes', 'b.txt'), 'needle\n');
    const ctx = await context();
    await grep(ctx, { pattern: 'needle' });
    // A folder outside the workspace is a view of its own, with its own spare.
    await grep(ctx, { pattern: 'needle', path: path.join(home, 'notes') });
    expect(await eventually(() => ownBwraps().length === 2)).toBe(true);
    await spares.dispose();
    expect(ownBwraps()).toEqual([]);
    expect(await grep(ctx, { pattern: 'needle' })).toMatchObject({ output: 'a.txt:1:needle' });
    expect(startedWhenRun()).toBe(3);
    expect(ownBwraps()).toEqual([]);
  });
});
