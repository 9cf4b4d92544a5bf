/**
 * A spare sandbox with the real bubblewrap: started ahead, it becomes exactly the program
 * a fresh start would have run (its arguments byte for byte, whatever they hold; the
 * same environment; an empty standard input; its exit code), in the same view; and one
 * stopped unused leaves no process. A fake home under /var/tmp (a confined process has a
 * private /tmp) holds a secret outside the view.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessGroup } from '../../../../../electron/core/process/process-group.js';
import { quoteArgv, SpareSandbox } from '../../../../../electron/core/process/spare-sandbox.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { readOnlyProfile } from '../../../../../electron/core/sandbox/helper-view.js';
import type { Confine } from '../../../../../electron/core/sandbox/sandbox.js';
import { ripgrepPath } from '../../../../../electron/core/tools/ripgrep.js';
import { eventually, groupMembers } from './group-members.js';

let root: string;
let ws: string;
let sandbox: BwrapSandbox;
let view: Confine;
let env: NodeJS.ProcessEnv;
const spares: SpareSandbox[] = [];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-spare-'));
  const home = path.join(root, 'home');
  ws = path.join(home, 'ws');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(path.join(root, 'data'));
  await fs.writeFile(path.join(ws, 'inside.txt'), 'in the view\n');
  await fs.writeFile(path.join(home, 'secret.txt'), 'outside the view\n');
  sandbox = new BwrapSandbox({ dataDir: path.join(root, 'data'), home, env: process.env });
  const command = await sandbox.profile(ws, { network: false, git: false, toolchains: false });
  // ripgrep's own folder is shown as the grep's view shows it: a checkout under /var/tmp (a
  // hidden personal place) would otherwise have no ripgrep inside.
  const ripgrepFolder = path.dirname(await fs.realpath(ripgrepPath));
  view = { sandbox, profile: readOnlyProfile(command, [ws, ripgrepFolder]) };
  env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' };
});
afterEach(async () => {
  await Promise.all(spares.splice(0).map((s) => s.stop()));
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function spare(): Promise<SpareSandbox> {
  const started = await SpareSandbox.start({ confine: view, cwd: ws, env });
  spares.push(started);
  return started;
}

/** A group's output and exit, once it has ended (and everything of it is gone). */
async function ended(group: ProcessGroup): Promise<{ out: string; err: string; code: number | null }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  group.stdout?.on('data', (c: Buffer) => out.push(c));
  group.stderr?.on('data', (c: Buffer) => err.push(c));
  const exit = await group.exited;
  await group.closed;
  await group.settle();
  await group.release();
  return { out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8'), code: exit.code };
}

const fresh = async (argv: string[]) =>
  ended(await ProcessGroup.start({ argv, cwd: ws, env, stdin: 'ignore', confine: view }));

describe('a spare sandbox', () => {
  it('becomes the program, in the view and nothing outside it', async () => {
    const inside = await ended((await spare()).become(['cat', 'inside.txt']));
    const outside = await ended((await spare()).become(['cat', path.join(root, 'home', 'secret.txt')]));
    expect(inside).toMatchObject({ out: 'in the view\n', code: 0 });
    expect(outside.out).toBe('');
    expect(outside.code).toBe(1);
  });

  it('hands every argument over byte for byte, whatever it holds', async () => {
    const args = [
      "it's",
      'two\nlines',
      '$(touch pwned) `id` $HOME',
      '\\n \\\\',
      '"',
      "'",
      '',
      ' ',
      '-e',
      '\t*?[',
      'ünï ☃',
    ];
    const result = await ended((await spare()).become(['printf', '[%s]\\n', ...args]));
    expect(result.out).toBe(args.map((a) => `[${a}]\n`).join(''));
    await expect(fs.stat(path.join(ws, 'pwned'))).rejects.toThrow();
  });

  it('gives the program the environment and exit code of a fresh start, and an empty standard input', async () => {
    const sorted = (text: string) => text.trim().split('\n').sort();
    expect(sorted((await ended((await spare()).become(['env']))).out)).toEqual(sorted((await fresh(['env'])).out));
    // ripgrep given no path searches its standard input when that is a pipe or a file:
    // empty (/dev/null), it searches its working folder instead, as started afresh.
    expect(await ended((await spare()).become([ripgrepPath, '--no-config', 'view']))).toMatchObject({
      out: 'inside.txt:in the view\n',
      code: 0,
    });
    expect((await ended((await spare()).become(['sh', '-c', 'exit 3']))).code).toBe(3);
  });

  it('is used once', async () => {
    const s = await spare();
    const group = s.become(['true']);
    expect(s.usable).toBe(false);
    expect(() => s.become(['true'])).toThrow(/used/);
    await ended(group);
  });

  it('is not usable once dead, and leaves no process once stopped', { timeout: 30_000 }, async () => {
    const dying = await spare();
    process.kill(-dying.pid, 'SIGKILL');
    expect(await eventually(() => !dying.usable)).toBe(true);
    const waiting = await spare();
    expect(await eventually(() => groupMembers(waiting.pid).includes('sh'))).toBe(true);
    await waiting.stop();
    expect(groupMembers(waiting.pid)).toEqual([]);
  });

  it('quotes an argv as one line of shell', () => {
    expect(quoteArgv(['a b', "c'd", 'e\nf'])).toBe(`'a b' 'c'\\''d' 'e'"$nl"'f'`);
  });
});
