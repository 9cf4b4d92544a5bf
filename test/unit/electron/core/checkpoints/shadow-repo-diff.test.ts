/**
 * A file's diff between two snapshots: git's unified format (diff2html reads it) with
 * DIFF_CONTEXT_LINES of context, whole up to DIFF_WHOLE_MAX_BYTES and cut to its first
 * DIFF_TRUNCATED_LINES lines above, none for a binary file.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'diff2html';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIFF_CONTEXT_LINES, DIFF_TRUNCATED_LINES, DIFF_WHOLE_MAX_BYTES } from '../../../../../shared/limits.js';
import { cutDiff } from '../../../../../electron/core/checkpoints/file-diff.js';
import { disposeFixture, makeFixture, open, writeTree, type Fixture } from './shadow-fixture.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

const numbered = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}\n`).join('');

describe('diff between two snapshots', () => {
  it("is git's unified diff with 3 lines of context, which diff2html parses", async () => {
    await writeTree(f.ws, { 'src/a.ts': numbered(20) });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(path.join(f.ws, 'src/a.ts'), numbered(20).replace('line 10\n', 'line ten\n'));
    const b = await store.snapshot();
    const { diff, truncated } = await store.diff(a.id, b.id, 'src/a.ts');
    expect(truncated).toBe(false);
    expect(diff).toMatch(/^diff --git a\/src\/a.ts b\/src\/a.ts\n/);
    expect(diff).toMatch(
      /@@ -7,7 \+7,7 @@.*\n line 7\n line 8\n line 9\n-line 10\n\+line ten\n line 11\n line 12\n line 13\n$/,
    );
    const [file] = parse(diff as string);
    expect(file?.newName).toBe('src/a.ts');
    expect(file?.addedLines).toBe(1);
    expect(file?.deletedLines).toBe(1);
    expect(file?.blocks[0]?.lines).toHaveLength(1 + 2 * DIFF_CONTEXT_LINES + 1);
  });

  it('shows an added and a deleted file whole, and a mode change', async () => {
    await writeTree(f.ws, { 'gone.txt': 'bye\n', 'run.sh': 'echo\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.rm(path.join(f.ws, 'gone.txt'));
    await writeTree(f.ws, { 'new.txt': 'hi\n' });
    await fs.chmod(path.join(f.ws, 'run.sh'), 0o755);
    const b = await store.snapshot();
    expect((await store.diff(a.id, b.id, 'new.txt')).diff).toContain('new file mode 100644\n');
    expect((await store.diff(a.id, b.id, 'gone.txt')).diff).toContain('deleted file mode 100644\n');
    expect((await store.diff(a.id, b.id, 'run.sh')).diff).toContain('old mode 100644\nnew mode 100755\n');
    expect(parse((await store.diff(a.id, b.id, 'new.txt')).diff as string)[0]?.isNew).toBe(true);
  });

  it('has none for a binary file, and names a link change by its target', async () => {
    await writeTree(f.ws, { 'img.png': '\x89PNG\x00\x01', link: { link: 'a' } });
    const store = await open(f);
    const a = await store.snapshot();
    await writeTree(f.ws, { 'img.png': '\x89PNG\x00\x02' });
    await fs.rm(path.join(f.ws, 'link'));
    await fs.symlink('b', path.join(f.ws, 'link'));
    const b = await store.snapshot();
    expect(await store.diff(a.id, b.id, 'img.png')).toEqual({ diff: null, truncated: false });
    expect((await store.diff(a.id, b.id, 'link')).diff).toContain('-a\n\\ No newline at end of file\n+b\n');
  });

  it(`is cut to its first ${DIFF_TRUNCATED_LINES} lines past ${DIFF_WHOLE_MAX_BYTES} bytes`, async () => {
    await writeTree(f.ws, { 'big.txt': numbered(5000) });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(path.join(f.ws, 'big.txt'), numbered(5000, ' changed'));
    const b = await store.snapshot();
    const { diff, truncated } = await store.diff(a.id, b.id, 'big.txt');
    expect(truncated).toBe(true);
    expect(diff?.split('\n')).toHaveLength(DIFF_TRUNCATED_LINES + 1);
    expect(diff?.endsWith('\n')).toBe(true);
    expect(parse(diff as string)[0]?.newName).toBe('big.txt');
  });
});

describe('cutDiff', () => {
  it('keeps a diff of exactly the limit whole and cuts one byte more', () => {
    const head = 'diff --git a/x b/x\n';
    const whole = head + 'x'.repeat(DIFF_WHOLE_MAX_BYTES - head.length - 1) + '\n';
    expect(cutDiff(whole)).toEqual({ diff: whole, truncated: false });
    expect(cutDiff(`${whole}y`).truncated).toBe(true);
  });

  it('counts bytes, not characters', () => {
    const text = '€'.repeat(Math.ceil(DIFF_WHOLE_MAX_BYTES / 3) + 1);
    expect(cutDiff(text).truncated).toBe(true);
  });

  it("recognises git's binary notices", () => {
    expect(cutDiff('diff --git a/b b/b\nindex 1..2\nBinary files a/b and b/b differ\n').diff).toBeNull();
    expect(cutDiff('diff --git a/t b/t\n+Binary files are fun\n').diff).not.toBeNull();
  });
});
