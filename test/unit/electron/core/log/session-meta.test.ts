import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MetaError, readMeta, writeMeta, type SessionMeta } from '../../../../../electron/core/log/session-meta.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();

const meta: SessionMeta = {
  id: '20250314T100000000Z-0123456789',
  title: 'fix the test',
  workspace: '/home/dev/project',
  model: { provider: 'anthropic', modelId: 'claude-x' },
  createdAt: '2025-03-14T10:00:00.000Z',
  updatedAt: '2025-03-14T10:00:00.000Z',
  grants: [
    { kind: 'write', path: '/home/dev/project/a.ts' },
    { kind: 'command', argv: ['npm', 'test'], cwd: '/home/dev/project' },
  ],
};

describe('meta.json', () => {
  it('reads back what was written', async () => {
    await writeMeta(tmp.path, meta);
    expect(await readMeta(tmp.path)).toEqual(meta);
    await writeMeta(tmp.path, { ...meta, model: null, title: 'renamed' });
    expect(await readMeta(tmp.path)).toMatchObject({ model: null, title: 'renamed' });
  });

  it('replaces the file by rename and leaves no temporary file behind', async () => {
    await writeMeta(tmp.path, meta);
    await writeMeta(tmp.path, { ...meta, title: 'second' });
    expect(await readdir(tmp.path)).toEqual(['meta.json']);
  });

  it('refuses to write an invalid meta and keeps the old file', async () => {
    await writeMeta(tmp.path, meta);
    const broken = { ...meta, grants: [{ kind: 'command', argv: [], cwd: '/x' }] } as unknown as SessionMeta;
    await expect(writeMeta(tmp.path, broken)).rejects.toThrow(/refusing to write an invalid session meta[\s\S]*argv/);
    expect(await readMeta(tmp.path)).toEqual(meta);
    expect(await readdir(tmp.path)).toEqual(['meta.json']);
  });

  it('says which file is corrupt when it is cut short', async () => {
    await writeMeta(tmp.path, meta);
    const file = path.join(tmp.path, 'meta.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.length / 2));
    const read = readMeta(tmp.path);
    await expect(read).rejects.toBeInstanceOf(MetaError);
    await expect(read).rejects.toThrow(`${file}: is not valid JSON`);
  });

  it('names the bad field when the JSON is not a session meta', async () => {
    await writeFile(path.join(tmp.path, 'meta.json'), JSON.stringify({ ...meta, workspace: 42 }));
    await expect(readMeta(tmp.path)).rejects.toThrow(/is not a valid session meta[\s\S]*workspace/);
  });

  it('says so when there is no meta.json', async () => {
    await expect(readMeta(tmp.path)).rejects.toThrow(/has no meta\.json/);
  });

  it('fails cleanly when the target cannot be replaced, leaving no temporary file', async () => {
    await mkdir(path.join(tmp.path, 'meta.json', 'occupied'), { recursive: true });
    await expect(writeMeta(tmp.path, meta)).rejects.toThrow();
    expect(await readdir(tmp.path)).toEqual(['meta.json']);
  });
});
