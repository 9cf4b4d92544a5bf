import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTemps, writeFileAtomic } from '../../../../../electron/core/files/atomic-file.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();

describe('writeFileAtomic', () => {
  it('creates or replaces the file with exactly the new bytes', async () => {
    const file = path.join(tmp.path, 'f.txt');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, Buffer.from('two'));
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readdir(tmp.path)).toEqual(['f.txt']);
  });
});

describe('removeStaleTemps', () => {
  it('deletes temporary files of other processes and keeps this process’s own and real files', async () => {
    const names = ['meta.json', 'meta.json.tmp-1-aa', `meta.json.tmp-${process.pid}-bb`, 'events.jsonl.torn-x'];
    for (const name of names) await writeFile(path.join(tmp.path, name), '');
    await removeStaleTemps(tmp.path);
    expect((await readdir(tmp.path)).sort()).toEqual(
      ['events.jsonl.torn-x', 'meta.json', `meta.json.tmp-${process.pid}-bb`].sort(),
    );
  });

  it('does nothing for a folder that does not exist', async () => {
    await expect(removeStaleTemps(path.join(tmp.path, 'none'))).resolves.toBeUndefined();
  });
});
