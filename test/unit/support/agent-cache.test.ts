/**
 * The tests that need a real agent find it in CI's cache, or fail saying why: never a skip.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogSpec } from '../../../electron/core/agents/agent-catalog.js';
import { cachedAgent } from '../../support/agent-cache.js';

let root: string;
let saved: string | undefined;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-agent-cache-'));
  saved = process.env.GATEHOUSE_AGENT_CACHE;
  process.env.GATEHOUSE_AGENT_CACHE = root;
});

afterEach(async () => {
  if (saved === undefined) delete process.env.GATEHOUSE_AGENT_CACHE;
  else process.env.GATEHOUSE_AGENT_CACHE = saved;
  await fs.rm(root, { recursive: true, force: true });
});

/** Lays out `<root>/gemini-cli/pkg` as an install of `version` would. */
async function cacheGemini(version: string): Promise<string> {
  const spec = catalogSpec('gemini-cli');
  const prefix = path.join(root, 'gemini-cli', 'pkg');
  const entry = path.join(prefix, spec.entry);
  await fs.mkdir(path.dirname(entry), { recursive: true });
  await fs.writeFile(entry, '');
  await fs.writeFile(path.join(prefix, 'node_modules/@google/gemini-cli/package.json'), JSON.stringify({ version }));
  return prefix;
}

describe('the agent cache', () => {
  it('finds an agent cached at its pin', async () => {
    const prefix = await cacheGemini('0.61.0');

    expect(await cachedAgent('gemini-cli')).toEqual({
      version: '0.61.0',
      prefix,
      entryPath: path.join(prefix, 'node_modules/@google/gemini-cli/bundle/gemini.js'),
    });
  });

  it('throws saying how to fill it when the agent is missing', async () => {
    await expect(cachedAgent('claude-code')).rejects.toThrow(
      /^Claude Code 0\.101\.0 is not in the agent cache \(.*claude-code\/pkg\/node_modules\/@agentclientprotocol\/claude-agent-acp\/dist\/index\.js is missing\): run .*install-agents-cache\.ts/,
    );
  });

  it('throws when the cached version is not the pin', async () => {
    await cacheGemini('0.60.0');

    await expect(cachedAgent('gemini-cli')).rejects.toThrow(
      /^the agent cache has Gemini CLI 0\.60\.0, but the catalog pins 0\.61\.0/,
    );
  });
});
