import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_INLINE_MAX_BYTES } from '../../../../../shared/limits.js';
import { BlobStore } from '../../../../../electron/core/log/blob-store.js';
import { loadToolArgs, storeToolArgs } from '../../../../../electron/core/log/stored-tool-args.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();

/** Args whose JSON is exactly `bytes` long: {"c":"xxx..."} has 8 bytes of framing. */
function argsOfSize(bytes: number) {
  return { c: 'x'.repeat(bytes - 8) };
}

describe('storeToolArgs', () => {
  it('keeps args inline up to EVENT_INLINE_MAX_BYTES of JSON', async () => {
    const args = argsOfSize(EVENT_INLINE_MAX_BYTES);
    expect(Buffer.byteLength(JSON.stringify(args))).toBe(EVENT_INLINE_MAX_BYTES);
    const stored = await storeToolArgs(args, new BlobStore(path.join(tmp.path, 'blobs')));
    expect(stored).toEqual({ args });
  });

  it('moves args one byte larger into a blob, and loads them back unchanged', async () => {
    const blobs = new BlobStore(path.join(tmp.path, 'blobs'));
    const args = argsOfSize(EVENT_INLINE_MAX_BYTES + 1);
    const stored = await storeToolArgs(args, blobs);
    expect(stored).toEqual({ argsBlob: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await loadToolArgs(stored, blobs)).toEqual(args);
  });

  it('counts bytes, not characters', async () => {
    const args = { c: 'é'.repeat(EVENT_INLINE_MAX_BYTES / 2) };
    const stored = await storeToolArgs(args, new BlobStore(path.join(tmp.path, 'blobs')));
    expect('argsBlob' in stored).toBe(true);
  });

  it('returns inline args as they are', async () => {
    expect(await loadToolArgs({ args: { path: 'a' } }, new BlobStore(tmp.path))).toEqual({ path: 'a' });
  });
});
