/**
 * The racer of issue 31: a confined process that keeps exchanging the workspace's folder
 * `d` with its link `dl` (to a folder outside) by renameat2(RENAME_EXCHANGE), so that any
 * path through `d` the app checked may lead outside by the time it is used. It runs the
 * way a model's process would: as a `run` command through the run tool, or as a
 * long-lived confined process group (a workspace MCP server is one), and stops when the
 * test makes `race-stop` in the workspace, or after `maxSeconds` in any case.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ProcessGroup } from '../../../../../electron/core/process/process-group.js';
import type { Sandbox } from '../../../../../electron/core/sandbox/sandbox.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import type { ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';

/** renameat2's number: x86_64 316, arm64 276 (AT_FDCWD is -100, RENAME_EXCHANGE 2). */
const RENAMEAT2 = process.arch === 'arm64' ? 276 : 316;

/**
 * Prints how many exchanges it made; checks for the stop file every 256 tries. A try can
 * fail (the app's restore replaced the link `d` by a folder, say): it goes on regardless.
 */
const SCRIPT = [
  // syscall may write to a string argument, so the names are variables, not literals.
  'my ($max) = @ARGV; my $end = time + $max; my ($n, $tries) = (0, 0); my ($d, $dl) = ("d", "dl");',
  'while (time <= $end) {',
  `  $n++ if syscall(${RENAMEAT2}, -100, $d, -100, $dl, 2) == 0;`,
  '  last if ++$tries % 256 == 0 && -e "race-stop";',
  '}',
  'print "$n\\n";',
].join('\n');

export function racerArgv(maxSeconds: number): string[] {
  return ['perl', '-e', SCRIPT, String(maxSeconds)];
}

/** Makes `d` (a folder) and `dl` (a link to `outside`) in the workspace. */
export async function setUpRace(ws: string, outside: string): Promise<void> {
  await fs.mkdir(path.join(ws, 'd'), { recursive: true });
  await fs.symlink(outside, path.join(ws, 'dl'));
  await fs.rm(path.join(ws, 'race-stop'), { force: true });
}

/** Starts the racer as a `run` command would; `done` is its result, once it stopped. */
export async function raceAsCommand(ctx: ToolContext, maxSeconds: number): Promise<{ done: Promise<ToolResult> }> {
  const plan = await runTool.plan(parseToolArgs(runTool, { argv: racerArgv(maxSeconds) }), ctx);
  // Wrapped, or awaiting the start would wait for the end.
  return { done: runTool.execute(plan, ctx, {}) };
}

/** Starts the racer as a long-lived confined process, as a workspace MCP server runs. */
export async function raceAsServer(sandbox: Sandbox, ws: string, maxSeconds: number): Promise<ProcessGroup> {
  const profile = await sandbox.profile(ws, { network: false, git: false });
  return ProcessGroup.start({
    argv: racerArgv(maxSeconds),
    cwd: ws,
    env: { PATH: process.env.PATH },
    stdin: 'ignore',
    confine: { sandbox, profile },
  });
}

/** Resolves once the racer has swapped `d` for the link at least once (it may take a while to start). */
export async function racing(ws: string): Promise<void> {
  for (const until = Date.now() + 30_000; Date.now() < until;) {
    if ((await fs.lstat(path.join(ws, 'd')).catch(() => null))?.isSymbolicLink()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the racer never swapped d');
}

/** Tells the racers to stop. */
export async function stopRace(ws: string): Promise<void> {
  await fs.writeFile(path.join(ws, 'race-stop'), '');
}

/** Puts `d` back as the folder and `dl` as the link, once the racers have stopped. */
export async function untangle(ws: string): Promise<void> {
  await fs.rm(path.join(ws, 'race-stop'), { force: true });
  if (!(await fs.lstat(path.join(ws, 'd')).catch(() => null))?.isSymbolicLink()) return;
  const aside = path.join(ws, 'd-aside');
  await fs.rename(path.join(ws, 'd'), aside);
  await fs.rename(path.join(ws, 'dl'), path.join(ws, 'd'));
  await fs.rename(aside, path.join(ws, 'dl'));
}

/** How many exchanges a racer made (what it printed), to show that it really raced. */
export function exchanges(output: string): number {
  return Number(/^(\d+)$/m.exec(output)?.[1] ?? 0);
}
