/**
 * The core's "never" rules between rooms, as eslint.config.js holds them: an import from a
 * room into one it must never name is an error carrying the rule's words, nested folders
 * included; an allowed import is not; and a room's own block keeps the core's rules.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../../..');
let eslint: ESLint;

// Loading the config takes seconds on a busy machine: done once here, with room to spare.
beforeAll(async () => {
  eslint = new ESLint({ cwd: repo });
  await eslint.calculateConfigForFile(path.join(repo, 'electron/core/gate/probe.ts'));
}, 60_000);

/** The no-restricted-imports messages for one import written in a file of the core at `file`. */
async function refusals(file: string, from: string): Promise<string[]> {
  const code = `import type { Probe } from '${from}';\nexport type Seen = Probe;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(repo, 'electron/core', file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the core never rules', () => {
  it.each([
    ['gate/probe.ts', '../mcp/server-state.js', 'The gate names no tool'],
    ['context/probe.ts', '../tools/tool-def.js', 'The context names no tool room'],
    ['context/probe.ts', '../runner/runner.js', 'The runner asks the context, never the reverse'],
    ['sandbox/probe.ts', '../tools/tool-def.js', 'The sandbox knows processes, not tools'],
    ['tools/probe.ts', '../gate/permission-gate.js', 'Tools plan, the gate decides'],
    ['chat/probe.ts', '../context/history.js', 'Chat is transport'],
    ['log/probe.ts', '../gate/permission-gate.js', 'The log is the bottom'],
    ['sandbox/probe.ts', '../process/pid-alive.js', 'The sandbox plans, the process room runs'],
    ['sandbox/network/probe.ts', '../../process/pid-alive.js', 'The sandbox plans, the process room runs'],
  ])('%s importing %s is refused: "%s"', async (file, from, rule) => {
    const messages = await refusals(file, from);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(rule);
  });

  it.each([
    ['runner/probe.ts', '../context/session-context.js'],
    ['gate/probe.ts', '../tools/tool-def.js'],
    ['context/probe.ts', '../tool-shape/tool-shown.js'],
    ['sandbox/probe.ts', '../procfs/proc-stat.js'],
    ['process/probe.ts', '../sandbox/sandbox.js'],
  ])('%s importing %s is allowed', async (file, from) => {
    expect(await refusals(file, from)).toEqual([]);
  });

  it('a room with rules of its own still holds the core below the shell and without electron', async () => {
    expect(await refusals('gate/probe.ts', '../../web/server.js')).toEqual([
      expect.stringContaining('electron/core sits below main, preload, web and renderer'),
    ]);
    expect(await refusals('context/probe.ts', 'electron')).toEqual([
      expect.stringContaining('electron/core runs in plain Node'),
    ]);
  });
});
