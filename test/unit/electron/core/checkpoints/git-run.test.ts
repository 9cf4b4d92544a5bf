/**
 * One git command of the store never hangs and never leaves a lock behind: at its timeout
 * it is killed with everything it started, and the lock files it may hold are removed; a
 * failure says what failed in words, with the tail of what git said.
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitError, runGit } from '../../../../../electron/core/checkpoints/git-run.js';

let dir: string;
let fakeGit: string;
beforeEach(async () => {
  dir = await fs.mkdtemp('/var/tmp/gatehouse-git-run-');
  // A "git" that drops the git door's own `-c name=value` settings and runs the rest as sh's arguments.
  fakeGit = path.join(dir, 'fake-git');
  await fs.writeFile(
    fakeGit,
    `#!/bin/sh\nwhile [ "$1" = -c ]; do case "$2" in *' '*) break;; *=*) shift 2;; *) break;; esac; done\nexec /bin/sh "$@"\n`,
    { mode: 0o755 },
  );
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Whether a process still runs (a zombie, which nothing may reap here, does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

const sh = (script: string, extra: Partial<Parameters<typeof runGit>[0]> = {}) =>
  runGit({
    what: 'do the thing',
    git: fakeGit,
    args: ['-c', script],
    env: { PATH: '/usr/bin:/bin' },
    cwd: dir,
    timeoutMs: 10_000,
    ...extra,
  });

describe('runGit', () => {
  it.runIf(process.platform === 'linux')(
    'kills the command and what it started at the timeout, and removes its locks',
    async () => {
      const lock = path.join(dir, 'index.lock');
      await fs.writeFile(lock, '');
      const pidFile = path.join(dir, 'grandchild');
      const started = Date.now();
      const run = sh(`sleep 30 & echo $! > '${pidFile}'; wait`, { timeoutMs: 300, locks: [lock] });
      await expect(run).rejects.toThrow(/could not do the thing: it was stopped by SIGKILL \(timeout 0.3 s\)/);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(existsSync(lock)).toBe(false);
      const grandchild = Number(readFileSync(pidFile, 'utf8'));
      await expect.poll(() => running(grandchild), { timeout: 2_000 }).toBe(false);
    },
  );

  it("says what failed, git's exit code and the tail of its stderr", async () => {
    const run = sh(`echo ${'noise '.repeat(2000)} >&2; echo 'fatal: the real reason' >&2; exit 128`);
    await expect(run).rejects.toBeInstanceOf(GitError);
    const message = await run.then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message).toMatch(/^could not do the thing: git exited with 128: …/);
    expect(message).toMatch(/fatal: the real reason$/);
    expect(message.length).toBeLessThan(2_200);
  });

  it('treats the exit codes it is told as answers, and feeds stdin', async () => {
    expect((await sh('cat; exit 1', { okCodes: [1], input: 'fed' })).stdout.toString()).toBe('fed');
    await expect(sh('exit 1')).rejects.toThrow(/exited with 1/);
  });

  it('stops a command whose output passes the cap', async () => {
    await expect(sh('yes', { maxOutput: 1024 * 1024 })).rejects.toThrow(/its output passed the cap/);
  });
});
