import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { runToEnd } from '../../../../../electron/core/process/command-run.js';
import { liveGroupMembers } from '../../../../../electron/core/process/group-liveness.js';
import type { ProcessSpec } from '../../../../../electron/core/process/command-run.js';
import { CommandStartError } from '../../../../../electron/core/process/start-error.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-pg-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

type Mode = 'plain' | 'confined';
let mode: Mode = 'plain';
/** The group's id (the direct child's pid: bwrap's, when confined) of the last run started. */
let spawned: Promise<number>;

/** Runs as the run tool does: plain, or confined by the real bubblewrap with the workspace `dir`. */
function run(argv: string[], extra: Partial<ProcessSpec> = {}) {
  let onSpawn: (pid: number) => void = () => {};
  spawned = new Promise((r) => (onSpawn = r));
  const spec: ProcessSpec = { argv, cwd: dir, env: process.env, timeoutMs: 20_000, onSpawn, ...extra };
  if (mode === 'plain') return runToEnd(spec);
  const sandbox = new BwrapSandbox({
    dataDir: path.join(dir, '.data'),
    home: path.join(dir, '.home'),
    env: process.env,
  });
  const profile = {
    network: false,
    git: false,
    home: path.join(dir, '.home'),
    writable: [dir],
    readOnly: [],
    shown: [],
    hidden: [],
  };
  return runToEnd(spec, { sandbox, profile });
}

/** Polls until no live (non-zombie) process is left in the group; returns ms waited, or Infinity past the limit. */
async function msUntilGroupGone(pgid: number, limitMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitMs) {
    if ((await liveGroupMembers(pgid)).length === 0) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 20));
  }
  return Infinity;
}

/** Resolves with the first line the command prints (these commands print their group id first). */
function firstLine(): { onOutput: ProcessSpec['onOutput']; line: Promise<string> } {
  let seen = '';
  let resolve: (line: string) => void = () => {};
  const line = new Promise<string>((r) => (resolve = r));
  return {
    line,
    onOutput: (stream, chunk) => {
      if (stream !== 'stdout') return;
      seen += chunk;
      const end = seen.indexOf('\n');
      if (end >= 0) resolve(seen.slice(0, end));
    },
  };
}

// sh ignores TERM and so does the sleep it starts (an ignored signal stays ignored across exec).
const TERM_IGNORING_GROUP = 'trap "" TERM; sleep 100 & echo $$; wait';
// sh dies on TERM; only the grandchild, which holds no pipe, ignores it.
const TERM_IGNORING_GRANDCHILD = '(trap "" TERM; exec sleep 100) >/dev/null 2>&1 & echo $$; wait';

describe.each<Mode>(['plain', 'confined'])('a command run to its end, %s', (m) => {
  beforeEach(async () => {
    mode = m;
    dir = await fs.realpath(dir);
  });

  it('reports exit code 0 and a non-zero exit code', async () => {
    expect((await run(['true'])).exitCode).toBe(0);
    const failed = await run(['sh', '-c', 'echo out; echo err >&2; exit 3']);
    expect(failed).toMatchObject({ exitCode: 3, signal: null, timedOut: false, cancelled: false });
    expect(failed.stdout.text).toBe('out\n');
    expect(failed.stderr.text).toBe('err\n');
  });

  it('reports the signal that ended the command', async () => {
    const killed = await run(['sh', '-c', 'kill -KILL $$']);
    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
    const segv = await run([process.execPath, '-e', 'process.kill(process.pid, "SIGSEGV")']);
    expect(segv.signal).toBe('SIGSEGV');
  });

  it('passes argv to the program literally, with no shell in between', async () => {
    const result = await run(['echo', '$HOME', '|', 'x', '*', '&&', '"q"']);
    expect(result.stdout.text).toBe('$HOME | x * && "q"\n');
  });

  it('gives the command an empty standard input', async () => {
    expect((await run(['cat'])).stdout).toEqual({ text: '', totalBytes: 0, omittedBytes: 0 });
    const read = await run(['sh', '-c', 'read line; echo "read exit $?"']);
    expect(read.stdout.text).toBe('read exit 1\n');
  });

  it('runs in the given folder with the given environment', async () => {
    const result = await run(['sh', '-c', 'pwd; echo "$LC_ONLY_HERE"'], {
      // An allow-listed name (LC_*): a confined run keeps only those.
      env: { PATH: process.env.PATH, LC_ONLY_HERE: 'yes' },
    });
    expect(result.stdout.text).toBe(`${await fs.realpath(dir)}\nyes\n`);
  });

  it('on timeout stops the whole group, SIGKILLing members that ignore SIGTERM', async () => {
    const { onOutput, line } = firstLine();
    const done = run(['sh', '-c', TERM_IGNORING_GROUP], { timeoutMs: 300, onOutput });
    await line;
    const pgid = await spawned;
    expect((await liveGroupMembers(pgid)).length).toBeGreaterThanOrEqual(2);
    const result = await done;
    expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: 'SIGKILL' });
    expect(await msUntilGroupGone(pgid, 1000)).toBeLessThan(1000);
  });

  it('SIGKILLs a grandchild ignoring SIGTERM even after the direct child died of SIGTERM', async () => {
    const { onOutput, line } = firstLine();
    const done = run(['sh', '-c', TERM_IGNORING_GRANDCHILD], { timeoutMs: 300, onOutput });
    await line;
    const pgid = await spawned;
    const result = await done;
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGTERM' });
    expect(await msUntilGroupGone(pgid, 1000)).toBeLessThan(1000);
  });

  it('on abort stops the whole group within 2.5 s', async () => {
    const abort = new AbortController();
    const { onOutput, line } = firstLine();
    const done = run(['sh', '-c', TERM_IGNORING_GROUP], { signal: abort.signal, onOutput });
    await line;
    const pgid = await spawned;
    expect((await liveGroupMembers(pgid)).length).toBeGreaterThanOrEqual(2);
    const abortedAt = performance.now();
    abort.abort();
    const result = await done;
    const waited = performance.now() - abortedAt + (await msUntilGroupGone(pgid, 2500));
    expect(result).toMatchObject({ cancelled: true, timedOut: false });
    expect(waited).toBeLessThan(2500);
  });

  it('returns at once, having started nothing, when aborted before the start', async () => {
    const abort = new AbortController();
    abort.abort();
    const marker = path.join(dir, 'ran');
    const result = await run(['touch', marker], { signal: abort.signal });
    expect(result).toMatchObject({ cancelled: true, exitCode: null, signal: null });
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('stops the command when the abort comes while it is being spawned', async () => {
    const abort = new AbortController();
    const done = run(['sleep', '100'], { signal: abort.signal });
    abort.abort();
    // Confined, the abort lands while the sandbox is being prepared: nothing is started at all.
    expect(await done).toMatchObject({ cancelled: true, signal: mode === 'plain' ? 'SIGTERM' : null });
  });

  it('stops background processes the command leaves behind when it exits', async () => {
    const result = await run(['sh', '-c', 'sleep 100 >/dev/null 2>&1 & echo $$']);
    expect(result.exitCode).toBe(0);
    expect(await msUntilGroupGone(await spawned, 1000)).toBeLessThan(1000);
  });

  it('does not wait for the timeout when a leftover process holds the output open', async () => {
    const result = await run(['sh', '-c', 'sleep 100 & echo $$'], { timeoutMs: 60_000 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.durationMs).toBeLessThan(10_000);
    expect(await msUntilGroupGone(await spawned, 1000)).toBeLessThan(1000);
  });

  it('returns 64 KiB of a 50 MB stream as head plus tail, with the omitted bytes counted', async () => {
    const script = 'echo START; head -c 50000000 /dev/zero | tr "\\0" x; echo; echo END';
    const result = await run(['sh', '-c', script]);
    const total = 6 + 50_000_000 + 1 + 4;
    expect(result.stdout.totalBytes).toBe(total);
    expect(result.stdout.omittedBytes).toBe(total - 64 * 1024);
    expect(result.stdout.text.startsWith('START\nxxx')).toBe(true);
    expect(result.stdout.text.endsWith('xxx\nEND\n')).toBe(true);
    expect(result.stdout.text).toContain(`[... ${total - 64 * 1024} bytes left out of ${total}:`);
    expect(Buffer.byteLength(result.stdout.text)).toBeLessThan(64 * 1024 + 200);
  });

  it('caps stdout and stderr separately', async () => {
    const script = 'head -c 100000 /dev/zero | tr "\\0" o; head -c 10 /dev/zero | tr "\\0" e >&2';
    const result = await run(['sh', '-c', script]);
    expect(result.stdout.omittedBytes).toBe(100_000 - 64 * 1024);
    expect(result.stderr).toEqual({ text: 'eeeeeeeeee', totalBytes: 10, omittedBytes: 0 });
  });

  it('streams live output without breaking a character split across writes', async () => {
    const chunks: string[] = [];
    const script =
      'process.stdout.write(Buffer.from([0xc3])); setTimeout(() => process.stdout.write(Buffer.from([0xa9, 0x0a])), 100)';
    const result = await run([process.execPath, '-e', script], {
      onOutput: (stream, chunk) => void (stream === 'stdout' && chunks.push(chunk)),
    });
    expect(chunks.join('')).toBe('é\n');
    expect(result.stdout.text).toBe('é\n');
  });

  it('says "command not found" for a program that does not exist', async () => {
    const failure = run(['gatehouse-no-such-program']);
    await expect(failure).rejects.toBeInstanceOf(CommandStartError);
    await expect(failure).rejects.toThrow('command not found: gatehouse-no-such-program');
  });

  it('says "permission denied" for a file that is not executable', async () => {
    const file = path.join(dir, 'script.sh');
    await fs.writeFile(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    await expect(run([file])).rejects.toThrow(`permission denied: ${file} is not executable`);
  });

  it('says which working folder is missing rather than blaming the program', async () => {
    const missing = path.join(dir, 'gone');
    await expect(run(['true'], { cwd: missing })).rejects.toThrow(`working folder does not exist: ${missing}`);
  });
});
