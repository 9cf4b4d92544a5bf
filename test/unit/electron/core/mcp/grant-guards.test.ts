/**
 * Guards over what a session allowed of MCP servers (SPEC §10), each checked where no
 * other test reaches it: a tool grant's fingerprint after the app restarts (no tool list
 * of before is left to compare with, only the fingerprint), and Settings' Restart and
 * Enable, which start a workspace's server only on a session grant for its exact config.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../core-harness.js';
import { firstOf, lastSeq, loggedCalls, serverLog, testServer, writeMcpJson } from './mcp-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const starts = async (log: string) => (await serverLog(log)).filter((l) => l.event === 'started').length;

describe('an MCP tool grant after the app restarts', () => {
  it('still covers the unchanged tool, and no longer covers it once the server changed it', async () => {
    h = await startHarness();
    const log = path.join(h.outside, 'calls.jsonl');
    const description = path.join(h.outside, 'echo-description.txt');
    await fs.writeFile(description, 'Echoes back the input');
    // The user's own server: no start card; the tool changes through the file, the config never.
    await writeMcpJson(path.join(h.dataDir, 'mcp.json'), {
      t: testServer(log, { MCP_TEST_ECHO_DESCRIPTION_FILE: description }),
    });
    const id = await h.open();
    const echo = { toolCalls: [{ name: 'mcp__t__echo', input: { message: 'a' } }] };
    h.fake.enqueue(echo, { text: 'one' });
    await h.call('session.send', { id, text: 'go' });
    const allowed = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    await h.call('card.answer', { id, cardId: allowed.cardId, answer: 'allow_session' });
    await h.event(id, 'turn_ended');

    await h.restart();
    let after = await lastSeq(h, id);
    h.fake.enqueue(echo, { text: 'two' });
    await h.call('session.send', { id, text: 'again' });
    expect((await firstOf(h, id, after, ['card', 'turn_ended'])).type).toBe('turn_ended');
    expect((await loggedCalls(log)).map((c) => c.tool)).toEqual(['echo', 'echo']);

    await fs.writeFile(description, 'Echoes, and mails it away');
    await h.restart();
    after = await lastSeq(h, id);
    h.fake.enqueue(echo, { text: 'three' });
    await h.call('session.send', { id, text: 'once more' });
    const card = await firstOf(h, id, after, ['card', 'turn_ended']);
    expect(card).toMatchObject({
      type: 'card',
      body: {
        kind: 'mcp',
        description: 'Echoes, and mails it away',
        changedFrom: { description: 'Echoes back the input' },
      },
    });
    if (card.type !== 'card') throw new Error('expected a card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended', (e) => e.seq > card.seq);
    expect((await loggedCalls(log)).map((c) => c.tool)).toEqual(['echo', 'echo']);
  });
});

describe("Settings' Restart and Enable for a workspace's server", () => {
  async function workspaceServer() {
    h = await startHarness();
    const log = path.join(h.workspace, 'calls.jsonl');
    const file = path.join(h.workspace, '.mcp.json');
    await writeMcpJson(file, { t: testServer(log) });
    return { h, log, file, id: await h.open() };
  }

  const state = async (harness: Harness, id: string) => (await harness.call('mcp.list', { id })).servers[0]?.state;

  /** One turn whose start card gets `answer`. */
  async function turnAllowing(harness: Harness, id: string, answer: 'allow_once' | 'allow_session') {
    const after = await lastSeq(harness, id);
    harness.fake.enqueue({ text: 'ok' });
    await harness.call('session.send', { id, text: 'go' });
    const card = await harness.event(id, 'card', (c) => c.body.kind === 'mcp_server' && c.seq > after);
    await harness.call('card.answer', { id, cardId: card.cardId, answer });
    await harness.event(id, 'turn_ended', (e) => e.seq > card.seq);
  }

  it('never start one the session never allowed, and ask nothing', async () => {
    const { h, log, id } = await workspaceServer();
    expect(await state(h, id)).toBe('stopped');
    await h.call('mcp.restart', { id, server: 't' });
    expect(await state(h, id)).toBe('stopped');
    await h.call('mcp.setEnabled', { id, server: 't', enabled: false });
    expect(await state(h, id)).toBe('disabled');
    await h.call('mcp.setEnabled', { id, server: 't', enabled: true });
    expect(await state(h, id)).toBe('stopped');
    expect(await starts(log)).toBe(0);
    expect((await h.events(id)).some((e) => e.type === 'card')).toBe(false);
  });

  it('never start one allowed only once', async () => {
    const { h, log, id } = await workspaceServer();
    await turnAllowing(h, id, 'allow_once');
    expect(await starts(log)).toBe(1);
    await h.call('mcp.restart', { id, server: 't' });
    expect(await state(h, id)).toBe('stopped');
    await h.call('mcp.setEnabled', { id, server: 't', enabled: false });
    await h.call('mcp.setEnabled', { id, server: 't', enabled: true });
    expect(await state(h, id)).toBe('stopped');
    expect(await starts(log)).toBe(1);
  });

  it('start one allowed for the session, but not once its config changed', async () => {
    const { h, log, file, id } = await workspaceServer();
    await turnAllowing(h, id, 'allow_session');
    expect(await starts(log)).toBe(1);
    await h.call('mcp.restart', { id, server: 't' });
    expect(await state(h, id)).toBe('ready');
    await h.call('mcp.setEnabled', { id, server: 't', enabled: false });
    await h.call('mcp.setEnabled', { id, server: 't', enabled: true });
    expect(await state(h, id)).toBe('ready');
    expect(await starts(log)).toBe(3);

    await writeMcpJson(file, { t: testServer(log, { MCP_TEST_STDERR: 'changed' }) });
    await h.call('mcp.restart', { id, server: 't' });
    expect(await state(h, id)).toBe('stopped');
    await h.call('mcp.setEnabled', { id, server: 't', enabled: false });
    await h.call('mcp.setEnabled', { id, server: 't', enabled: true });
    expect(await state(h, id)).toBe('stopped');
    expect(await starts(log)).toBe(3);
    expect((await h.events(id)).filter((e) => e.type === 'card')).toHaveLength(1);
  });
});
