import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidSessionIdError } from '../../../../../electron/core/log/session-id.js';
import { MetaError, writeMeta } from '../../../../../electron/core/log/session-meta.js';
import { SessionNotFoundError, SessionStore } from '../../../../../electron/core/log/session-store.js';
import type { Grant } from '../../../../../shared/cards.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();

function clockFrom(iso: string, stepMs = 1000) {
  let t = Date.parse(iso) - stepMs;
  return () => new Date((t += stepMs));
}

const init = {
  workspace: '/home/dev/project',
  title: 'first',
  model: { provider: 'openai' as const, modelId: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1' },
};

describe('SessionStore.create', () => {
  it('lays out a session folder with an empty log and a meta.json', async () => {
    const store = new SessionStore({ dataDir: tmp.path, clock: clockFrom('2025-03-14T10:00:00.000Z') });
    const session = await store.create(init);
    const dir = path.join(tmp.path, 'sessions', session.id);

    expect(session.dir).toBe(dir);
    expect((await readdir(dir)).sort()).toEqual(['events.jsonl', 'meta.json']);
    expect(await readFile(path.join(dir, 'events.jsonl'), 'utf8')).toBe('');
    expect(JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8'))).toEqual({
      id: session.id,
      ...init,
      createdAt: '2025-03-14T10:00:00.000Z',
      updatedAt: '2025-03-14T10:00:00.000Z',
      grants: [],
    });
    expect(await readdir(path.join(tmp.path, 'sessions'))).toEqual([session.id]);
    await store.dispose();
  });

  it('gives ids that sort by creation time and are plain folder names', async () => {
    const store = new SessionStore({ dataDir: tmp.path, clock: clockFrom('2025-12-31T23:59:58.000Z') });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await store.create(init)).id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9T]+Z-[0-9a-f]{10}$/);
    await store.dispose();
  });

  it('refuses a relative workspace', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    await expect(store.create({ ...init, workspace: 'project' })).rejects.toThrow(/absolute/);
  });
});

describe('SessionStore.list', () => {
  it('lists every session, most recently updated first', async () => {
    const store = new SessionStore({ dataDir: tmp.path, clock: clockFrom('2025-03-14T10:00:00.000Z') });
    const a = await store.create({ ...init, title: 'a' });
    const b = await store.create({ ...init, title: 'b' });
    await a.updateMeta((m) => ({ ...m, title: 'a, renamed' }));
    const { sessions, unreadable } = await store.list();
    expect(sessions.map((s) => s.title)).toEqual(['a, renamed', 'b']);
    expect(sessions.map((s) => s.id)).toEqual([a.id, b.id]);
    expect(unreadable).toEqual([]);
    await store.dispose();
  });

  it('reports folders whose meta is damaged or missing, and still lists the rest', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const good = await store.create(init);
    const sessions = path.join(tmp.path, 'sessions');
    await mkdir(path.join(sessions, 'damaged'));
    await writeFile(path.join(sessions, 'damaged', 'meta.json'), '{"id": "damaged", "tit');
    await mkdir(path.join(sessions, 'empty'));
    await mkdir(path.join(sessions, 'not an id'));
    await mkdir(path.join(sessions, '.creating-leftover'));

    const listing = await store.list();
    expect(listing.sessions.map((s) => s.id)).toEqual([good.id]);
    const problems = Object.fromEntries(listing.unreadable.map((u) => [u.name, u.error]));
    expect(Object.keys(problems).sort()).toEqual(['damaged', 'empty', 'not an id']);
    expect(problems.damaged).toMatch(/damaged[/\\]meta\.json: is not valid JSON/);
    expect(problems.empty).toMatch(/has no meta\.json/);
    expect(problems['not an id']).toMatch(/not a session id/);
    await store.dispose();
  });

  it('lists nothing for a data folder that has no sessions yet', async () => {
    expect(await new SessionStore({ dataDir: path.join(tmp.path, 'fresh') }).list()).toEqual({
      sessions: [],
      unreadable: [],
    });
  });
});

describe('SessionStore.open', () => {
  it('refuses ids that could leave the sessions folder, even when the target exists', async () => {
    await writeMeta(path.join(tmp.path), {
      id: 'x',
      title: 't',
      workspace: '/w',
      model: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      grants: [],
    });
    await mkdir(path.join(tmp.path, 'x'));
    const store = new SessionStore({ dataDir: tmp.path });
    for (const id of ['../x', '..', '.', '', 'a/b', 'a\\b', '/etc', '.hidden', 'x\0']) {
      await expect(store.open(id), id).rejects.toThrow(InvalidSessionIdError);
    }
  });

  it('says when there is no such session', async () => {
    await expect(new SessionStore({ dataDir: tmp.path }).open('nope')).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it('refuses a session whose meta is corrupt, with a clear error', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    await session.close();
    await writeFile(path.join(session.dir, 'meta.json'), '');
    await expect(store.open(session.id)).rejects.toThrow(MetaError);
    await expect(store.open(session.id)).rejects.toThrow(/meta\.json: is not valid JSON/);
  });

  it('refuses a folder whose meta names another session', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    await session.close();
    await writeMeta(session.dir, { ...(await readMetaOf(session.dir)), id: 'someone-else' });
    await expect(store.open(session.id)).rejects.toThrow(/belongs to session someone-else/);
  });

  it('hands out one record per open session, so a log has a single writer', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    const [a, b] = await Promise.all([store.open(session.id), store.open(session.id)]);
    expect(a).toBe(session);
    expect(b).toBe(session);
    await session.close();
    const reopened = await store.open(session.id);
    expect(reopened).not.toBe(session);
    await reopened.close();
  });

  it('clears temporary files a killed process left in the session folder', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    await session.close();
    await writeFile(path.join(session.dir, 'meta.json.tmp-999999-abcd'), '{"half');
    const reopened = await store.open(session.id);
    expect((await readdir(session.dir)).sort()).toEqual(['events.jsonl', 'meta.json']);
    await reopened.close();
  });
});

describe('SessionRecord meta', () => {
  it('serializes concurrent updates so none is lost, and stamps updatedAt', async () => {
    const store = new SessionStore({ dataDir: tmp.path, clock: clockFrom('2025-03-14T10:00:00.000Z') });
    const session = await store.create(init);
    const grants: Grant[] = Array.from({ length: 20 }, (_, i) => ({
      kind: 'read' as const,
      tool: 'read_file' as const,
      path: `/outside/${i}`,
    }));
    await Promise.all(grants.map((g) => session.updateMeta((m) => ({ ...m, grants: [...m.grants, g] }))));

    const onDisk = await readMetaOf(session.dir);
    expect(onDisk.grants).toEqual(grants);
    expect(onDisk.updatedAt > onDisk.createdAt).toBe(true);
    expect(await session.meta()).toEqual(onDisk);
    await session.close();
  });

  it('records a grant once however often it is added', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    const grant: Grant = { kind: 'command', argv: ['make'], cwd: '/home/dev/project' };
    await Promise.all([session.addGrant(grant), session.addGrant({ ...grant, argv: ['make'] })]);
    expect((await session.meta()).grants).toEqual([grant]);
    await session.close();
  });

  it('refuses to change the id, and leaves the meta as it was', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    await expect(session.updateMeta((m) => ({ ...m, id: 'other' }))).rejects.toThrow(/cannot change id/);
    expect((await readMetaOf(session.dir)).id).toBe(session.id);
    await session.close();
  });

  it('does not let a caller change the meta by mutating what it was given', async () => {
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create(init);
    const copy = await session.meta();
    copy.title = 'mutated';
    expect((await session.meta()).title).toBe('first');
    await session.close();
  });
});

async function readMetaOf(dir: string) {
  return JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8'));
}
