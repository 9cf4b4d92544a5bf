import { execFileSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { runRipgrep } from '../../../../../electron/core/tools/ripgrep.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
const SECRET = 'sk-ant-test-never-reaches-ripgrep-1234';
const saved = process.env.ANTHROPIC_API_KEY;

afterEach(() => {
  if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = saved;
});

/**
 * Runs ripgrep with a `--pre` preprocessor that prints the environment it inherited from
 * ripgrep, and returns what ripgrep then printed: the honest view of ripgrep's own env.
 */
async function envSeenByRipgrep(env: NodeJS.ProcessEnv): Promise<string> {
  const script = path.join(tmp.path, 'show-env.sh');
  await writeFile(
    script,
    '#!/bin/sh\necho "seen key=${ANTHROPIC_API_KEY:-unset}"\necho "seen marker=${MARKER:-unset}"\n',
  );
  await chmod(script, 0o755);
  await writeFile(path.join(tmp.path, 'file.txt'), 'anything\n');
  const chunks: Buffer[] = [];
  const args = ['--no-config', '--no-filename', '--pre', script, '--regexp', 'seen', '--', 'file.txt'];
  const exit = await runRipgrep(args, { cwd: tmp.path, env }, (chunk) => chunks.push(chunk));
  expect(exit).toMatchObject({ code: 0, signal: null });
  return Buffer.concat(chunks).toString();
}

describe('runRipgrep', () => {
  it('runs ripgrep with exactly the environment it is given, not process.env', async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    const seen = await envSeenByRipgrep({ MARKER: 'from-the-given-env' });
    expect(seen).toBe('seen key=unset\nseen marker=from-the-given-env\n');
  });

  it('keeps a provider key in process.env away from ripgrep when given commandEnv', async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    const seen = await envSeenByRipgrep(commandEnv({ ...process.env, MARKER: 'kept' }));
    expect(seen).not.toContain(SECRET);
    expect(seen).toBe('seen key=unset\nseen marker=kept\n');
  });

  it('is stopped when the caller has enough, and says so', async () => {
    await writeFile(path.join(tmp.path, 'a.txt'), 'needle\n');
    // ripgrep blocks on this for good, so only the stop can end the search.
    execFileSync('mkfifo', [path.join(tmp.path, '.gitignore')]);
    const enough = new AbortController();
    setTimeout(() => enough.abort(), 100);
    const exit = await runRipgrep(
      ['--no-config', '--regexp', 'needle'],
      { cwd: tmp.path, env: {}, enough: enough.signal },
      () => {},
    );
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL', stopped: 'enough' });
  });
});
