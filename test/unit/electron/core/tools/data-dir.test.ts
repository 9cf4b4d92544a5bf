/**
 * The tools over a workspace that contains the app's data folder (SPEC §11): every path
 * there plans as outside (so the gate cards it), and grep never goes into it.
 *
 * Whether ripgrep went into a folder is seen from a FIFO named `.ignore` put inside it:
 * ripgrep opens a folder's ignore files on entering it, and blocks on the FIFO until the
 * grep's time limit stops it. A grep that finishes cleanly never entered.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { createGrepTool } from '../../../../../electron/core/tools/grep.js';
import { listDirTool } from '../../../../../electron/core/tools/list-dir.js';
import { readFileTool } from '../../../../../electron/core/tools/read-file.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ReadPlan, ToolDef, ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { writeFileTool } from '../../../../../electron/core/tools/write-file.js';
import { unconfined } from '../../../../support/unconfined.js';

/** Long enough for any real search here, short enough for a blocked one to end the test quickly. */
const TIME_LIMIT_MS = 2000;
const SECRET = 'only-in-the-log-7f3a';

interface World {
  root: string;
  dataDir: string;
  tools: Tools;
}

const defs = [readFileTool, createGrepTool({ timeLimitMs: TIME_LIMIT_MS }), listDirTool, writeFileTool] as ToolDef[];

/**
 * A workspace at `root` (in a temp folder of its own) with the data folder `root/<name>`
 * inside it: a session log, a token, and the FIFO probe.
 */
async function world(name = '.gatehouse-data', options: { withDataDir?: boolean } = {}): Promise<World> {
  const parent = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-datadir-tools-')));
  onTestFinished(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, 'home');
  const dataDir = path.join(root, name);
  await mkdir(path.join(dataDir, 'sessions', 's1'), { recursive: true });
  await writeFile(path.join(dataDir, 'sessions', 's1', 'events.jsonl'), `{"type":"user","text":"${SECRET}"}\n`);
  await writeFile(path.join(dataDir, 'web-token'), `${SECRET}-token\n`);
  execFileSync('mkfifo', [path.join(dataDir, '.ignore')]);
  await writeFile(path.join(root, 'src.txt'), 'nothing secret here\n');
  const workspace = await Workspace.open(root, options.withDataDir === false ? {} : { dataDir });
  return { root, dataDir, tools: new Tools({ workspace, commandEnv: {}, sandbox: unconfined() }, defs) };
}

async function run(w: World, tool: string, args: Record<string, unknown>): Promise<ToolResult> {
  return w.tools.execute(await w.tools.plan(tool, args));
}

async function readPlan(w: World, tool: string, args: Record<string, unknown>): Promise<ReadPlan> {
  const plan = await w.tools.plan(tool, args);
  if (plan.kind !== 'read') throw new Error(`expected a read plan, got ${plan.kind}`);
  return plan;
}

describe('grep over a workspace that contains the data folder', () => {
  it('finds nothing that is only in a session log, and never enters the data folder', async () => {
    const w = await world();
    expect(await run(w, 'grep', { pattern: SECRET })).toEqual({
      ok: true,
      output: 'No matches in ".".',
      details: { shown: 0, more: false },
    });
  });

  it('blocks on the probe when the workspace does not know its data folder (the probe works)', async () => {
    const w = await world('.gatehouse-data', { withDataDir: false });
    const result = await run(w, 'grep', { pattern: SECRET });
    expect(result).toMatchObject({ ok: true, details: { stoppedEarly: true } });
  });

  it('cannot be led back in by a glob', async () => {
    const w = await world();
    for (const glob of ['.gatehouse-data/**', '**/events.jsonl', '*token*', '.gatehouse-data', '/.gatehouse-data/']) {
      expect(await run(w, 'grep', { pattern: SECRET, glob })).toMatchObject({
        ok: true,
        details: { shown: 0, more: false },
      });
    }
  });

  it('still searches the rest of the workspace, and a sibling that shares the name as a prefix', async () => {
    const w = await world();
    await writeFile(path.join(w.root, 'notes.txt'), `${SECRET} in the open\n`);
    await mkdir(path.join(w.root, '.gatehouse-data-old'));
    await writeFile(path.join(w.root, '.gatehouse-data-old', 'x.txt'), `${SECRET} old\n`);
    const result = await run(w, 'grep', { pattern: SECRET });
    expect(result.ok && result.output.split('\n').sort()).toEqual([
      `.gatehouse-data-old/x.txt:1:${SECRET} old`,
      `notes.txt:1:${SECRET} in the open`,
    ]);
  });

  it('leaves it out of a search of a folder between the workspace root and the data folder', async () => {
    const w = await world('.config/Gatehouse');
    await writeFile(path.join(w.root, '.config', 'other.txt'), `${SECRET} other\n`);
    expect(await run(w, 'grep', { pattern: SECRET, path: '.config' })).toMatchObject({
      ok: true,
      output: `.config/other.txt:1:${SECRET} other`,
    });
  });

  it('leaves out a data folder whose name is full of glob characters and ends in spaces', async () => {
    const w = await world('we[i]rd *{a,b}?\\ !#,  ');
    expect(await run(w, 'grep', { pattern: SECRET })).toMatchObject({ ok: true, details: { shown: 0, more: false } });
  });

  it('leaves it out of a search that starts above the workspace, when one is allowed', async () => {
    const w = await world();
    const above = path.dirname(w.root);
    await writeFile(path.join(above, 'beside.txt'), `${SECRET} beside\n`);
    const plan = await readPlan(w, 'grep', { pattern: SECRET, path: above });
    expect(plan.target.inside).toBe(false);
    expect(await w.tools.execute(plan)).toEqual({
      ok: true,
      output: `${path.join(above, 'beside.txt')}:1:${SECRET} beside`,
      details: { shown: 1, more: false },
    });
  });

  it('plans a grep whose path is in the data folder as outside, and searches it once allowed', async () => {
    const w = await world();
    await rm(path.join(w.dataDir, '.ignore'));
    const plan = await readPlan(w, 'grep', { pattern: SECRET, path: '.gatehouse-data/sessions' });
    expect(plan.target).toMatchObject({ real: path.join(w.dataDir, 'sessions'), inside: false });
    const result = await w.tools.execute(plan);
    expect(result.ok && result.output).toContain(`s1/events.jsonl:1:`);
  });
});

describe('read_file, list_dir and write_file into the data folder', () => {
  it('plan a relative, an absolute and a linked path there as outside, named by the real path', async () => {
    const w = await world();
    const token = path.join(w.dataDir, 'web-token');
    await symlink(token, path.join(w.root, 'readme.txt'));
    for (const p of ['.gatehouse-data/web-token', token, 'readme.txt', 'x/../.gatehouse-data/./web-token']) {
      expect((await readPlan(w, 'read_file', { path: p })).target).toMatchObject({ real: token, inside: false });
    }
  });

  it('shows the absolute path in what it reads once allowed, as for any outside file', async () => {
    const w = await world();
    expect(await run(w, 'read_file', { path: '.gatehouse-data/web-token' })).toMatchObject({
      ok: true,
      details: { path: path.join(w.dataDir, 'web-token') },
    });
  });

  it('list the parent with the data folder as a name, and plan a listing inside as outside', async () => {
    const w = await world();
    const parent = await readPlan(w, 'list_dir', {});
    expect(parent.target.inside).toBe(true);
    expect(await w.tools.execute(parent)).toMatchObject({ ok: true, output: '.gatehouse-data/\nsrc.txt' });
    expect((await readPlan(w, 'list_dir', { path: '.gatehouse-data' })).target).toMatchObject({
      real: w.dataDir,
      inside: false,
    });
  });

  it('plan a write there as a write outside', async () => {
    const w = await world();
    const plan = await w.tools.plan('write_file', { path: '.gatehouse-data/keys.json', content: '{}' });
    expect(plan).toMatchObject({ kind: 'write', target: { real: path.join(w.dataDir, 'keys.json'), inside: false } });
  });

  it('report a relative path into the data folder as an outside target, for the gate to mask', async () => {
    const w = await world();
    const missing = path.join(w.dataDir, 'missing');
    expect(await w.tools.outsideTarget('read_file', { path: '.gatehouse-data/missing' })).toEqual({
      path: missing,
      grant: { kind: 'read', tool: 'read_file', path: missing },
    });
    // The grant that would cover it names the tool's kind of reach: a write tool's is a write grant.
    expect(await w.tools.outsideTarget('write_file', { path: '.gatehouse-data/missing', content: '' })).toEqual({
      path: missing,
      grant: { kind: 'write', path: missing },
    });
    // run takes no path: nothing to mask.
    expect(await w.tools.outsideTarget('run', { argv: ['ls'], path: '.gatehouse-data/missing' })).toBeNull();
    expect(await w.tools.outsideTarget('read_file', { path: 'src.txt' })).toBeNull();
    expect(await w.tools.outsideTarget('read_file', { path: '../x' })).toBeNull();
  });
});
