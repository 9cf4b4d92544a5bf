/**
 * The data folder through the gate (SPEC §11): a session on a workspace that contains the
 * app's data folder, as a workspace at `~` does. Reads and listings there take the same
 * card as any outside read, naming the absolute path, and its grants work the same; grep
 * of the workspace goes by it without a card and without looking in.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeGrant } from '../../../../../shared/cards.js';
import { DENIED } from '../../../../../electron/core/gate/permission-gate.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import { GateHarness, type GateUnderTest } from './gate-harness.js';
import { unconfined } from '../../../../support/unconfined.js';

const SECRET = 'only-in-the-log-51c2';

interface World {
  h: GateHarness;
  s: GateUnderTest;
  /** The harness's temp root, opened as the workspace: the data folder `data/` is inside it. */
  root: string;
  /** This session's own log, in the data folder. */
  log: string;
  token: string;
}

async function world(): Promise<World> {
  const h = await GateHarness.open();
  const workspace = await Workspace.open(h.root, { dataDir: h.dataDir });
  const s = await h.session(new Tools({ workspace, commandEnv: {}, sandbox: unconfined() }));
  const token = path.join(h.dataDir, 'web-token');
  await fs.writeFile(token, 'web-token-bytes\n');
  await s.record.log.append({ type: 'user_message', messageId: 'm1', text: SECRET });
  await h.put('notes.txt', 'nothing to find here\n');
  return { h, s, root: h.root, log: path.join(h.dataDir, 'sessions', s.record.id, 'events.jsonl'), token };
}

/** Runs a call to its card and denies it: what the model gets, and the card. */
async function deniedAtCard(s: GateUnderTest, tool: string, args: unknown) {
  const pending = s.start(tool, args);
  const card = await pending.card();
  s.gate.answer(card.cardId, 'deny');
  expect(await pending.result).toEqual({ ok: false, error: DENIED });
  return card;
}

describe('reads in the data folder, with the data folder inside the workspace', () => {
  it('card a read_file of another log by a relative path, naming its absolute path', async () => {
    const w = await world();
    const rel = path.relative(w.root, w.log);
    const card = await deniedAtCard(w.s, 'read_file', { path: rel });
    expect(card.body).toEqual({ kind: 'read', tool: 'read_file', path: w.log });
    expect(card.grant).toEqual({ kind: 'read', tool: 'read_file', path: w.log });
    expect(card.scope).toBe(describeGrant(card.grant));
  });

  it('card a read_file of the token by its absolute path and through a link in the workspace', async () => {
    const w = await world();
    await fs.symlink(w.h.dataDir, path.join(w.root, 'ws', 'cache'));
    for (const p of [w.token, 'ws/cache/web-token']) {
      expect((await deniedAtCard(w.s, 'read_file', { path: p })).body).toEqual({
        kind: 'read',
        tool: 'read_file',
        path: w.token,
      });
    }
  });

  it('list the parent freely (the folder is only a name there) but card a listing inside', async () => {
    const w = await world();
    const parent = await w.s.run('list_dir', { path: '.' });
    expect(parent).toMatchObject({ ok: true, output: 'data/\noutside/\nws/' });
    const card = await deniedAtCard(w.s, 'list_dir', { path: 'data' });
    expect(card.body).toEqual({ kind: 'read', tool: 'list_dir', path: w.h.dataDir });
  });

  it('grep the workspace without a card, and find nothing that is only in a log', async () => {
    const w = await world();
    expect(await fs.readFile(w.log, 'utf8')).toContain(SECRET);
    expect(await w.s.run('grep', { pattern: SECRET })).toMatchObject({ ok: true, output: 'No matches in ".".' });
    expect(w.s.types()).not.toContain('card');
  });

  it('card a grep whose path is in the data folder, and search it once allowed', async () => {
    const w = await world();
    const pending = w.s.start('grep', { pattern: SECRET, path: 'data/sessions' });
    const card = await pending.card();
    expect(card.body).toEqual({ kind: 'read', tool: 'grep', path: path.join(w.h.dataDir, 'sessions') });
    w.s.gate.answer(card.cardId, 'allow_once');
    const result = await pending.result;
    expect(result.ok && result.output).toContain(`${w.log}:`);
  });

  it('hide whether a file there exists until something there is allowed', async () => {
    const w = await world();
    const result = await w.s.run('read_file', { path: 'data/sessions/nope/events.jsonl' });
    expect(result).toEqual({
      ok: false,
      error: `read_file: ${path.join(w.h.dataDir, 'sessions/nope/events.jsonl')} is outside the workspace and this call could not be prepared, so the user was not asked. Check the path and the arguments, or ask the user.`,
    });
    expect(w.s.types()).not.toContain('card');
  });
});

describe('answers for the data folder', () => {
  it('allow_session covers that read again, and nothing else there', async () => {
    const w = await world();
    const pending = w.s.start('read_file', { path: 'data/web-token' });
    const card = await pending.card();
    w.s.gate.answer(card.cardId, 'allow_session');
    expect(await pending.result).toMatchObject({ ok: true, output: 'web-token-bytes\n' });
    expect(await w.s.loggedGrants()).toEqual([{ kind: 'read', tool: 'read_file', path: w.token }]);

    const cards = w.s.types().filter((t) => t === 'card').length;
    expect(await w.s.run('read_file', { path: w.token })).toMatchObject({ ok: true, output: 'web-token-bytes\n' });
    expect(w.s.types().filter((t) => t === 'card')).toHaveLength(cards);

    await deniedAtCard(w.s, 'read_file', { path: path.relative(w.root, w.log) });
    await deniedAtCard(w.s, 'list_dir', { path: 'data' });
  });

  it('a write there takes a card that says it is outside', async () => {
    const w = await world();
    const card = await deniedAtCard(w.s, 'write_file', { path: 'data/keys.json', content: '{}' });
    expect(card.body).toMatchObject({ kind: 'write', path: path.join(w.h.dataDir, 'keys.json'), inside: false });
    await expect(fs.access(path.join(w.h.dataDir, 'keys.json'))).rejects.toThrow();
  });
});
