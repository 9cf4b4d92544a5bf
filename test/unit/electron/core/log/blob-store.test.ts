import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobStore } from '../../../../../electron/core/log/blob-store.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();

describe('BlobStore', () => {
  it('names a blob by the sha256 of its bytes and gives the bytes back', async () => {
    const blobs = new BlobStore(path.join(tmp.path, 'blobs'));
    const bytes = Buffer.from([0, 1, 2, 255]);
    const id = await blobs.put(bytes);
    expect(id).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await blobs.get(id)).equals(bytes)).toBe(true);
    expect(await blobs.has(id)).toBe(true);
  });

  it('stores the same bytes once, however often they are put', async () => {
    const dir = path.join(tmp.path, 'blobs');
    const blobs = new BlobStore(dir);
    const ids = await Promise.all([blobs.put('same'), blobs.put('same'), blobs.put(Buffer.from('same'))]);
    expect(new Set(ids).size).toBe(1);
    expect(await readdir(dir)).toEqual([ids[0]]);
  });

  it('says plainly when a blob is missing', async () => {
    const blobs = new BlobStore(path.join(tmp.path, 'blobs'));
    await expect(blobs.get('a'.repeat(64))).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await blobs.has('a'.repeat(64))).toBe(false);
  });

  it('refuses an id that is not a digest, such as a path', async () => {
    const blobs = new BlobStore(path.join(tmp.path, 'blobs'));
    await expect(blobs.get('../meta.json')).rejects.toThrow(/not a blob id/);
    await expect(blobs.get('A'.repeat(64))).rejects.toThrow(/not a blob id/);
  });
});
