/**
 * A Gatehouse session driven by the real, pinned opencode (`opencode acp`, its native
 * program) in a place of its own (SPEC §15), through the app's contract, against a fake
 * Anthropic API on loopback (opencode's Anthropic provider reads ANTHROPIC_BASE_URL): the
 * agent's start is a card that names its writable place; then opencode writes a file with
 * its `write` tool and runs commands with its `bash` tool in the place, with no card (its
 * settings allow both there, and it is offered no file callbacks); the person's folder stays
 * byte for byte as it was and cannot be seen from inside; a host that is not its model's is
 * refused; its own permission request (a web fetch) is still a card. The agent comes from the agent cache CI fills (test/support/agent-cache.ts); when
 * it is missing this FAILS saying how to install it.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OPENCODE, opencodeScript, toolResults, type OpencodeCall } from './opencode-script.js';
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

describe('a session driven by the real opencode in a place of its own', () => {
  it('writes a file and runs commands in its place with no card; the person’s folder is unseen and unchanged; other hosts are refused; its web fetch is still a card', async () => {
    let turns: OpencodeCall[][] = [];
    booted = await bootStagedAgent(
      OPENCODE,
      opencodeScript(() => turns),
    );
    const { h, id, origin, place } = booted;
    turns = [
      [
        { name: 'write', input: { filePath: path.join(place.path, 'hello.txt'), content: 'hello from opencode\n' } },
        { name: 'bash', input: { command: probeCommand(origin), description: 'probe the jail' } },
      ],
      [{ name: 'webfetch', input: { url: 'https://example.com/', format: 'text' } }],
    ];
    const before = await folderDigest(origin);
    const { agent } = (await h.call('session.state', { id })).summary;
    expect(agent).toMatchObject({ id: 'opencode', label: 'opencode', version: '1.18.33' });

    await h.call('session.send', { id, text: 'TURN-0 add hello.txt and run the probe' });
    await allowStagedStart(h, id, OPENCODE, booted);
    const ended = await turnEnd(h, id);
    expect(ended.reason).toBe('finished');

    expect(await fs.readFile(path.join(place.path, 'hello.txt'), 'utf8')).toBe('hello from opencode\n');
    expect(await fs.readFile(path.join(place.path, 'ran.txt'), 'utf8')).toBe('ran\n');
    const cards = (await h.events(id)).flatMap((e) => (e.type === 'card' ? [e.body.kind] : []));
    expect(cards).toEqual(['agent_start']);
    const results = toolResults(booted.fake.requests);
    expect(results).toHaveLength(2);
    expectProbe(results[1]);

    expect(await folderDigest(origin)).toEqual(before);
    expect(existsSync(path.join(origin, 'hello.txt'))).toBe(false);
    expect(JSON.stringify(await h.events(id))).not.toContain(OPENCODE.key.value);

    // Its own permission request (a web fetch) is still a card, with its words; denied, nothing is fetched.
    await h.call('session.send', { id, text: 'TURN-1 fetch example.com' });
    const ask = await h.event(id, 'card', (c) => c.body.kind === 'agent_ask');
    expect(JSON.stringify(ask.body)).toContain('example.com');
    await h.call('card.answer', { id, cardId: ask.cardId, answer: 'deny' });
    const second = await turnEnd(h, id, ended.seq);
    expect(second.reason).toBe('finished');
    expect(booted.fake.requests.every((r) => !r.path.includes('example.com'))).toBe(true);
  }, 200_000);
});
