/**
 * A Gatehouse session driven by the real, pinned Codex (`codex-acp` and its CLI) in a place
 * of its own (SPEC §15), through the app's contract, against a fake OpenAI Responses API on
 * loopback: the agent's start is a card that names its writable place; then Codex writes a
 * file and runs commands in the place by itself, with no card; the person's folder stays
 * byte for byte as it was and cannot be seen from inside; a host that is not its model's is
 * refused. Codex 0.166 offers the model one tool, `exec` (JavaScript that calls its nested
 * tools `apply_patch` and `exec_command`), so the script speaks through it. The agent comes
 * from the agent cache CI fills (test/support/agent-cache.ts); when it is missing this FAILS
 * saying how to install it.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../../fake-model/server.js';
import type { Move, RealAgent } from './real-agent-harness.js';
import { turnEnd } from './real-agent-harness.js';
import {
  allowStagedStart,
  bootStagedAgent,
  expectProbe,
  folderDigest,
  probeCommand,
  type StagedBooted,
} from './staged-agent-harness.js';

const CODEX: RealAgent = {
  id: 'codex',
  key: { name: 'OPENAI_API_KEY', value: 'sk-test-codex-0123456789abcdef' },
  baseUrlVariable: 'OPENAI_BASE_URL',
  domains: ['api.openai.com'],
  describe: (r) => `${r.path} ${JSON.stringify(inputOf(r).at(-1) ?? null).slice(0, 200)}`,
};

let booted: StagedBooted | null = null;

afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
});

type Item = { type?: string; role?: string; content?: unknown; output?: unknown; call_id?: unknown };

const inputOf = (request: RecordedRequest): Item[] => (request.body as { input?: Item[] } | undefined)?.input ?? [];

/** What Codex sent back for each `exec` call, as text. */
function execOutputs(booted: StagedBooted): string[] {
  // From every request: Codex may ask its model again after the turn's last step (a title, a summary).
  const outputs = new Map<string, string>();
  for (const request of booted.fake.requests) {
    for (const item of inputOf(request)) {
      if (item.type === 'custom_tool_call_output') outputs.set(String(item.call_id), JSON.stringify(item.output));
    }
  }
  return [...outputs.values()];
}

/**
 * The model's script: the person's message names the turn ("TURN-0"); the first answer is
 * one `exec` call with `source`; once its output came back, plain text ends the turn.
 */
function scripted(source: string): Move {
  return (request) => {
    const input = inputOf(request);
    const at = input.findLastIndex((i) => i.role === 'user' && JSON.stringify(i.content).includes('TURN-0'));
    if (at < 0) return { text: 'ok' };
    if (input.slice(at + 1).some((i) => i.type === 'custom_tool_call_output')) return { text: 'Done.' };
    return { toolCalls: [{ name: 'exec', input: source }] };
  };
}

/** The exec source: a patch that adds a file, then the probe (staged-agent-harness.ts). */
function work(origin: string): string {
  const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello from codex\n*** End Patch\n';
  const cmd = probeCommand(origin);
  return [
    `text(JSON.stringify(await tools.apply_patch(${JSON.stringify(patch)})));`,
    `const run = await tools.exec_command({ cmd: ${JSON.stringify(cmd)}, login: false, yield_time_ms: 30000 });`,
    'text(run.output);',
  ].join('\n');
}

describe('a session driven by the real Codex in a place of its own', () => {
  it('writes a file and runs commands in its place with no card; the person’s folder is unseen and unchanged; other hosts are refused', async () => {
    let source = '';
    booted = await bootStagedAgent(CODEX, (request) => scripted(source)(request));
    const { h, id, origin, place } = booted;
    source = work(origin);
    const before = await folderDigest(origin);
    const { agent } = (await h.call('session.state', { id })).summary;
    expect(agent).toMatchObject({ id: 'codex', label: 'Codex', version: '2.6.0' });

    await h.call('session.send', { id, text: 'TURN-0 add hello.txt and run the probe' });
    await allowStagedStart(h, id, CODEX, booted);
    const ended = await turnEnd(h, id);
    expect(ended.reason).toBe('finished');

    expect(await fs.readFile(path.join(place.path, 'hello.txt'), 'utf8')).toBe('hello from codex\n');
    expect(await fs.readFile(path.join(place.path, 'ran.txt'), 'utf8')).toBe('ran\n');
    const cards = (await h.events(id)).flatMap((e) => (e.type === 'card' ? [e.body.kind] : []));
    expect(cards).toEqual(['agent_start']);

    const asked = booted.fake.requests.map((r) => CODEX.describe!(r)).join('\n');
    const probe = execOutputs(booted).find((o) => o.includes('origin holds'));
    expect(probe, `no probe output; the model was asked:\n${asked}`).toBeDefined();
    expectProbe(probe);

    expect(await folderDigest(origin)).toEqual(before);
    expect(existsSync(path.join(origin, 'hello.txt'))).toBe(false);
    const logged = JSON.stringify(await h.events(id));
    expect(logged).not.toContain(CODEX.key.value);
  }, 200_000);
});
