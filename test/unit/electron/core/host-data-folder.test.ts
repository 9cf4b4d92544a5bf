/**
 * The app's data folder and the workspace, through the host as a transport calls it.
 * `sessions.open` refuses `/`, the home folder and any folder holding the data folder, or
 * lying in it, with words that say why (SPEC §9, issue 19 item 6); a session made on such
 * a folder before the rule still opens and replays, and refuses every send in the same
 * words. And the data folder stays outside a workspace that links to it (SPEC §11): the
 * model reaching for a file there gets a card and nothing, never the bytes.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { META_FILE } from '../../../../electron/core/log/session-meta.js';
import { providerCases, startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOME_WORDS =
  "Gatehouse will not open your home folder as a workspace: a command there could reach every project and the app's own data. Open a project folder inside it, such as ~/code/myproject.";

describe('sessions.open refuses a workspace that could reach the app or every project', () => {
  it('refuses the home folder, a link to it, and the root, with the words', async () => {
    h = await startHarness(providerCases[0]);
    const link = path.join(h.root, 'home-link');
    await fs.symlink(h.home, link);
    for (const workspace of [h.home, link]) {
      expect(await h.raw('sessions.open', { workspace })).toEqual({ ok: false, error: HOME_WORDS });
    }
    const root = await h.raw('sessions.open', { workspace: '/' });
    expect(!root.ok && root.error).toMatch(
      /^Gatehouse will not open the root folder \/ as a workspace: .* Open a project folder, such as ~\/code\/myproject\.$/,
    );
    expect((await h.call('sessions.list', {})).map((s) => s.workspace)).toEqual([]);
  });

  it('refuses a folder holding the data folder (and home), the data folder, and a folder inside it', async () => {
    h = await startHarness(providerCases[0]);
    // The harness's root holds the data folder `data/` and the home folder `home/`: home is named first.
    const holding = await h.raw('sessions.open', { workspace: h.root });
    expect(!holding.ok && holding.error).toContain(
      `Gatehouse will not open ${h.root} as a workspace: it holds your home folder`,
    );
    const itself = await h.raw('sessions.open', { workspace: h.dataDir });
    expect(!itself.ok && itself.error).toContain("it is the app's own data folder");
    await fs.mkdir(path.join(h.dataDir, 'inner'));
    const inside = await h.raw('sessions.open', { workspace: path.join(h.dataDir, 'inner') });
    expect(!inside.ok && inside.error).toContain("it is inside the app's own data folder");
    expect((await h.call('sessions.list', {})).map((s) => s.workspace)).toEqual([]);
  });

  it('opens a project folder inside the home folder', async () => {
    h = await startHarness(providerCases[0]);
    const project = path.join(h.home, 'code', 'myproject');
    await fs.mkdir(project, { recursive: true });
    expect((await h.call('sessions.open', { workspace: project })).workspace).toBe(project);
  });

  it('a session made on the home folder before the rule opens and replays, and refuses a send in the same words', async () => {
    h = await startHarness(providerCases[0]);
    const id = await h.open();
    h.fake.enqueue({ text: 'hello from before' });
    await h.call('session.send', { id, text: 'before the rule' });
    await h.event(id, 'turn_ended');
    const before = await h.events(id);
    // As meta.json would read had the session been opened on ~ before the rule.
    const meta = path.join(h.dataDir, 'sessions', id, META_FILE);
    await fs.writeFile(meta, JSON.stringify({ ...JSON.parse(await fs.readFile(meta, 'utf8')), workspace: h.home }));
    await h.restart();

    expect(await h.events(id)).toEqual(before);
    expect((await h.call('sessions.list', {})).find((s) => s.id === id)?.workspace).toBe(h.home);
    const send = await h.raw('session.send', { id, text: 'after the rule' });
    expect(send).toEqual({ ok: false, error: `${HOME_WORDS} This session can only be read.` });
    expect(await h.events(id)).toEqual(before);
    expect(h.fake.requests).toHaveLength(1);
  });
});

describe('a workspace that links to the data folder', () => {
  it('asks before reading a file there, never sends it to the model when denied, nor finds it by grep', async () => {
    h = await startHarness(providerCases[0]);
    const secret = `tok-${randomBytes(16).toString('hex')}`;
    const file = path.join(h.dataDir, 'private-notes.txt');
    await fs.writeFile(file, `${secret}\n`);
    await fs.symlink(h.dataDir, path.join(h.workspace, 'data'));
    const id = await h.open();
    h.fake.enqueue(
      { toolCalls: [{ name: 'read_file', input: { path: path.join(h.workspace, 'data', 'private-notes.txt') } }] },
      { toolCalls: [{ name: 'grep', input: { pattern: 'tok-[0-9a-f]{32}' } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 'could not read it' } }] },
    );
    await h.call('session.send', { id, text: 'read the notes' });

    const card = await h.event(id, 'card');
    expect(card.body).toEqual({ kind: 'read', tool: 'read_file', path: file });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');

    const events = await h.events(id);
    expect(events.filter((e) => e.type === 'card')).toHaveLength(1);
    const results = events.flatMap((e) => (e.type === 'tool_result' && e.tool !== 'finish' ? [e.output] : []));
    expect(results).toEqual(['denied by the user', expect.stringMatching(/^No matches in "\."\./)]);
    for (const request of h.fake.requests) expect(request.rawBody).not.toContain(secret);
  });
});
