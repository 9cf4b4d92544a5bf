/**
 * A Gatehouse session driven by the real, pinned Codex (`codex-acp` and its CLI) in a place
 * of its own (SPEC §15), through the app's contract, against a fake OpenAI Responses API on
 * loopback: the agent's start is a card that names its writable place; then Codex writes a
 * file and runs commands in the place by itself, with no card; the person's folder stays
 * byte for byte as it was and cannot be seen from inside; a host that is not its model's is
 * refused (the model's moves: codex-script.ts). The agent comes
 * from the agent cache CI fills (test/support/agent-cache.ts); when it is missing this FAILS
 * saying how to install it.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX, codexScript, execOutputs, patchThenRun } from './codex-script.js';
import { turnEnd } from './real-agent-harness.js';
import {
  allowStagedStart,
  bootStagedAgent,
  expectProbe,
  folderDigest,
  probeCommand,
  type StagedBooted,
} from './staged-agent-harness.js';

let booted: StagedBooted | null = null;

afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
});

/** The exec source: a patch that adds a file, then the probe (staged-agent-harness.ts). */
function work(origin: string): string {
  return patchThenRun(
    '*** Begin Patch\n*** Add File: hello.txt\n+hello from codex\n*** End Patch\n',
    probeCommand(origin),
  );
}

describe('a session driven by the real Codex in a place of its own', () => {
  it('writes a file and runs commands in its place with no card; the person’s folder is unseen and unchanged; other hosts are refused', async () => {
    let source = '';
    booted = await bootStagedAgent(
      CODEX,
      codexScript(() => [source]),
    );
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
    const probe = execOutputs(booted.fake.requests).find((o) => o.includes('origin holds'));
    expect(probe, `no probe output; the model was asked:\n${asked}`).toBeDefined();
    expectProbe(probe);

    expect(await folderDigest(origin)).toEqual(before);
    expect(existsSync(path.join(origin, 'hello.txt'))).toBe(false);
    const logged = JSON.stringify(await h.events(id));
    expect(logged).not.toContain(CODEX.key.value);
  }, 200_000);
});
