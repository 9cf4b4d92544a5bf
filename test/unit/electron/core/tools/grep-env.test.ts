/**
 * Which environment the grep tool gives ripgrep. spawn is wrapped, not replaced: ripgrep
 * really runs, and the wrapper only records the options it was started with. (That
 * ripgrep then sees exactly that env is shown in ripgrep.test.ts.)
 */
import type * as ChildProcess from 'node:child_process';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { ripgrepPath } from '../../../../../electron/core/tools/ripgrep.js';
import { tempWorkspace } from './temp-workspace.js';

vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcess>();
  return { ...actual, spawn: vi.fn(actual.spawn) };
});

const SECRET = 'sk-ant-test-never-reaches-ripgrep-5678';
const saved = process.env.ANTHROPIC_API_KEY;

afterEach(() => {
  if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = saved;
  vi.mocked(spawn).mockClear();
});

function ripgrepEnvs(): unknown[] {
  return vi
    .mocked(spawn)
    .mock.calls.filter(([command]) => command === ripgrepPath)
    .map((call) => (call[2] as ChildProcess.SpawnOptions | undefined)?.env);
}

describe('grep and the environment', () => {
  it("starts ripgrep with the tool context's commandEnv, so a provider key in process.env stays out", async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    const t = await tempWorkspace();
    t.ctx.commandEnv = commandEnv(process.env);
    await t.put('a.txt', 'needle\n');
    const r = await t.tools.execute(await t.tools.plan('grep', { pattern: 'needle' }));
    expect(r).toMatchObject({ ok: true, output: 'a.txt:1:needle' });
    const envs = ripgrepEnvs();
    expect(envs).toHaveLength(1);
    expect(envs[0]).toBe(t.ctx.commandEnv);
    expect(envs[0]).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(JSON.stringify(envs[0])).not.toContain(SECRET);
  });
});
