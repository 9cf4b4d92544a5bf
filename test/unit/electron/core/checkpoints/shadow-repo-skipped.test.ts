/**
 * What a snapshot leaves out, and says it left out: ignored folders (never entered), files
 * over CHECKPOINT_FILE_MAX_BYTES (never read), nested repositories (never entered). And
 * what that means later: a file that grew past the cap is "modified", not "deleted", and a
 * restore never deletes or overwrites what no snapshot holds.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_FILE_MAX_BYTES, CHECKPOINT_SKIPPED_MAX } from '../../../../../shared/limits.js';
import {
  disposeFixture,
  makeFixture,
  open,
  personsGit,
  sparseFile,
  writeTree,
  type Fixture,
} from './shadow-fixture.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

const MIB_50 = 50 * 1024 * 1024;

describe('what a snapshot leaves out', () => {
  it('names an ignored node_modules, a 50 MiB file and a nested repository, and stores none of them', async () => {
    await writeTree(f.ws, {
      '.gitignore': 'node_modules/\n*.log\n',
      'node_modules/pkg/index.js': 'module.exports = 1;\n',
      'src/app.ts': 'app\n',
      'debug.log': 'log\n',
      'vendor/lib/a.txt': 'nested repo file\n',
    });
    await sparseFile(path.join(f.ws, 'data/huge.bin'), MIB_50);
    personsGit(path.join(f.ws, 'vendor/lib'), ['init', '-q']);
    const store = await open(f);
    const a = await store.snapshot();
    expect(a.skipped).toEqual({
      paths: [
        { path: 'data/huge.bin', why: 'too_large', bytes: MIB_50 },
        { path: 'vendor/lib', why: 'nested_repository' },
        { path: 'debug.log', why: 'ignored' },
        { path: 'node_modules/', why: 'ignored' },
      ],
      more: 0,
    });

    await writeTree(f.ws, {
      'node_modules/pkg/index.js': 'changed\n',
      'vendor/lib/a.txt': 'changed\n',
      'debug.log': 'more\n',
      'src/app.ts': 'app 2\n',
    });
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'src/app.ts', change: 'modified', bytes: 6 }]);
  });

  it('never hashes a file over the cap into the store (random bytes, which do not compress)', async () => {
    await fs.writeFile(path.join(f.ws, 'noise.bin'), randomBytes(CHECKPOINT_FILE_MAX_BYTES + 1));
    await writeTree(f.ws, { 'ok.txt': 'ok\n' });
    const store = await open(f);
    const a = await store.snapshot();
    expect(a.skipped.paths).toEqual([{ path: 'noise.bin', why: 'too_large', bytes: CHECKPOINT_FILE_MAX_BYTES + 1 }]);
    expect(await store.size()).toBeLessThan(1024 * 1024);
  });

  it('keeps a file of exactly the cap', async () => {
    await sparseFile(path.join(f.ws, 'edge.bin'), CHECKPOINT_FILE_MAX_BYTES);
    const store = await open(f);
    const empty = await store.snapshot();
    expect(empty.skipped.paths).toEqual([]);
  });

  it(`names the first ${CHECKPOINT_SKIPPED_MAX} and counts the rest`, async () => {
    await writeTree(f.ws, { '.gitignore': 'out-*/\n' });
    for (let i = 0; i < CHECKPOINT_SKIPPED_MAX + 7; i++) await writeTree(f.ws, { [`out-${i}/x`]: 'x' });
    const store = await open(f);
    const { skipped } = await store.snapshot();
    expect(skipped.paths).toHaveLength(CHECKPOINT_SKIPPED_MAX);
    expect(skipped.more).toBe(7);
  });
});

describe('a file that crosses the cap', () => {
  it('is "modified" when it grows past it, and no restore overwrites or deletes it', async () => {
    await writeTree(f.ws, { 'model.bin': 'small\n', 'other.txt': 'o\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await sparseFile(path.join(f.ws, 'model.bin'), CHECKPOINT_FILE_MAX_BYTES + 10);
    const b = await store.snapshot();
    expect(b.skipped.paths).toEqual([{ path: 'model.bin', why: 'too_large', bytes: CHECKPOINT_FILE_MAX_BYTES + 10 }]);
    expect(await store.changes(a.id, b.id)).toEqual([
      { path: 'model.bin', change: 'modified', bytes: CHECKPOINT_FILE_MAX_BYTES + 10 },
    ]);
    expect(await store.diff(a.id, b.id, 'model.bin')).toEqual({ diff: null, truncated: false });

    // Back to `a` would overwrite bytes no snapshot holds; back to `b` would delete them.
    expect(await store.restore(a.id, ['model.bin'])).toEqual(['model.bin']);
    expect(await store.restore(b.id, ['model.bin'])).toEqual(['model.bin']);
    expect((await fs.stat(path.join(f.ws, 'model.bin'))).size).toBe(CHECKPOINT_FILE_MAX_BYTES + 10);
  });

  it('is "modified" when it shrinks back under it, and the snapshot that skipped it leaves it alone', async () => {
    await sparseFile(path.join(f.ws, 'model.bin'), CHECKPOINT_FILE_MAX_BYTES + 10);
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(path.join(f.ws, 'model.bin'), 'small now\n');
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'model.bin', change: 'modified', bytes: 10 }]);
    expect(await store.restore(a.id, ['model.bin'])).toEqual(['model.bin']);
    expect(await fs.readFile(path.join(f.ws, 'model.bin'), 'utf8')).toBe('small now\n');
  });

  it('is named when a command creates or deletes one, though no undo can bring its bytes back', async () => {
    await writeTree(f.ws, { 'keep.txt': 'k\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await sparseFile(path.join(f.ws, 'dump.bin'), MIB_50);
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'dump.bin', change: 'added', bytes: MIB_50 }]);
    expect(await store.restore(a.id, ['dump.bin'])).toEqual(['dump.bin']);
    await fs.rm(path.join(f.ws, 'dump.bin'));
    const c = await store.snapshot();
    expect(await store.changes(b.id, c.id)).toEqual([{ path: 'dump.bin', change: 'deleted', bytes: MIB_50 }]);
  });
});
