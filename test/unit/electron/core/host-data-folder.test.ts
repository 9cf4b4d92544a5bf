/**
 * A whole turn on a workspace that contains the app's data folder (SPEC §11), as a
 * workspace at `~` contains Electron's userData: the model reaches for the web host's
 * token and another session's log, and gets a card and nothing, never the bytes.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { providerCases, startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The harness with the web host's token in its data folder; the token itself, and a pattern matching it without containing it. */
async function withToken(): Promise<{ h: Harness; token: string; file: string; pattern: string }> {
  const harness = await startHarness(providerCases[0]);
  const token = `tok-${randomBytes(16).toString('hex')}`;
  const file = path.join(harness.dataDir, 'web-token');
  await fs.writeFile(file, `${token}\n`);
  await fs.writeFile(path.join(harness.workspace, 'notes.txt'), 'no token here\n');
  return { h: harness, token, file, pattern: 'tok-[0-9a-f]{32}' };
}

describe('a turn on a workspace that contains the data folder', () => {
  it('asks before reading the token, and never sends it to the model when denied, nor finds it by grep', async () => {
    const t = await withToken();
    h = t.h;
    // The harness's root holds the data folder `data/` beside the usual workspace.
    const { id } = await h.call('sessions.open', { workspace: h.root });
    h.fake.enqueue(
      { toolCalls: [{ name: 'read_file', input: { path: 'data/web-token' } }] },
      { toolCalls: [{ name: 'grep', input: { pattern: t.pattern } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 'could not read it' } }] },
    );
    await h.call('session.send', { id, text: 'read the web token' });

    const card = await h.event(id, 'card');
    expect(card.body).toEqual({ kind: 'read', tool: 'read_file', path: t.file });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');

    const events = await h.events(id);
    expect(events.filter((e) => e.type === 'card')).toHaveLength(1);
    const results = events.flatMap((e) => (e.type === 'tool_result' && e.tool !== 'finish' ? [e.output] : []));
    expect(results).toEqual(['denied by the user', 'No matches in ".".']);
    for (const request of h.fake.requests) expect(request.rawBody).not.toContain(t.token);
  });

  it('hands the token over only when the person allows that read', async () => {
    const t = await withToken();
    h = t.h;
    const { id } = await h.call('sessions.open', { workspace: h.root });
    h.fake.enqueue(
      { toolCalls: [{ name: 'read_file', input: { path: t.file } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 'read it' } }] },
    );
    await h.call('session.send', { id, text: 'read the web token' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await h.event(id, 'turn_ended');
    expect(h.fake.requests.at(-1)!.rawBody).toContain(t.token);
  });

  it('refuses to open a workspace inside the data folder', async () => {
    h = await startHarness(providerCases[0]);
    const reply = await h.raw('sessions.open', { workspace: h.dataDir });
    expect(reply).toMatchObject({ ok: false });
    expect(!reply.ok && reply.error).toContain("inside the app's data folder");
  });
});
