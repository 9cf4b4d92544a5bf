/**
 * A workspace's `${VAR}` reaches a server only as its card says (SPEC §10): the start card
 * names each of the person's variables and the field it feeds, the log never holds a
 * value, and the fingerprint hashes the values, so a changed value asks again.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../core-harness.js';
import { firstOf, lastSeq, serverLog, TEST_SERVER, writeMcpJson } from './mcp-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIRST = 'ghp_first0123456789abcdef';
const SECOND = 'ghp_second0123456789abcdef';

/** A workspace server given the person's GITHUB_TOKEN in its env. */
async function withTokenServer() {
  h = await startHarness();
  h.env.GITHUB_TOKEN = FIRST;
  const log = path.join(h.workspace, 'calls.jsonl');
  await writeMcpJson(path.join(h.workspace, '.mcp.json'), {
    t: { command: process.execPath, args: [TEST_SERVER], env: { MCP_TEST_LOG: log, GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
  });
  return { h, log, id: await h.open() };
}

const starts = async (log: string) => (await serverLog(log)).filter((l) => l.event === 'started').length;

/** Every file the session and the app wrote into the data folder, as text. */
async function dataFolderText(dataDir: string): Promise<string> {
  const files = await fs.readdir(dataDir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    files.filter((f) => f.isFile()).map((f) => fs.readFile(path.join(f.parentPath, f.name), 'utf8')),
  );
  return texts.join('\n');
}

describe("a workspace server's ${VAR}", () => {
  it('is named on its start card with the field it feeds, and its value is in no card and no file', async () => {
    const { h, id } = await withTokenServer();
    h.fake.enqueue({ text: 'ok' });
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card', (c) => c.body.kind === 'mcp_server');
    expect(card.body).toMatchObject({
      envNames: ['GITHUB_TOKEN', 'MCP_TEST_LOG'],
      variables: [{ field: 'env GITHUB_TOKEN', variable: 'GITHUB_TOKEN' }],
    });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_session' });
    await h.event(id, 'turn_ended');
    expect(JSON.stringify(await h.events(id))).not.toContain(FIRST);
    expect(await dataFolderText(h.dataDir)).not.toContain(FIRST);
  });

  it('asks again when the value changes, though the config file did not', async () => {
    const { h, log, id } = await withTokenServer();
    h.fake.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    await h.call('session.send', { id, text: 'go' });
    const first = await h.event(id, 'card', (c) => c.body.kind === 'mcp_server');
    await h.call('card.answer', { id, cardId: first.cardId, answer: 'allow_session' });
    await h.event(id, 'turn_ended');
    expect(await starts(log)).toBe(1);

    // The same value: the server goes on, and nothing asks.
    let after = await lastSeq(h, id);
    await h.call('session.send', { id, text: 'again' });
    expect((await firstOf(h, id, after, ['card', 'turn_ended'])).type).toBe('turn_ended');

    // A changed value: a card again, saying the config changed, before the server restarts.
    h.env.GITHUB_TOKEN = SECOND;
    after = await lastSeq(h, id);
    await h.call('session.send', { id, text: 'rotated' });
    const second = await firstOf(h, id, after, ['card', 'turn_ended']);
    expect(second).toMatchObject({ type: 'card', body: { kind: 'mcp_server', server: 't' } });
    if (second.type !== 'card' || second.body.kind !== 'mcp_server') throw new Error('expected a start card');
    expect(second.body.changed).toMatch(/differ from what you allowed before/);
    expect(second.body.fingerprint).not.toBe((first.body as { fingerprint: string }).fingerprint);
    expect(await starts(log)).toBe(1);
    await h.call('card.answer', { id, cardId: second.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended', (e) => e.seq > second.seq);
    expect(await starts(log)).toBe(1);
    expect(JSON.stringify(await h.events(id))).not.toContain(SECOND);
  });
});
