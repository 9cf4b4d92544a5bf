/**
 * The window's CSP has no 'unsafe-eval': zod must never make a Function there, not even
 * to probe whether it may (the probe alone raises a securitypolicyviolation each start).
 * Loading the contract and the wire format and parsing payloads with them makes none.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../../..');

it.each(['wire', 'contract'])('with %s loaded first, parses payloads without ever making a Function', (first) => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'fixtures', 'count-compiles.ts'), first],
    {
      cwd: REPO,
      encoding: 'utf8',
    },
  );
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe('0\n');
});
