/**
 * Undo through the contract when the workspace holds what no snapshot can: a confined
 * command that runs `mkfifo .gitignore` (it froze every later snapshot and undo for the
 * 15-minute timeout) and a file whose name is not UTF-8 (it was missing from Changes and
 * survived undo unsaid). Every step and undo goes on, and says what it could not hold.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { encodePath } from '../../../../../electron/core/checkpoints/path-names.js';
import { STATUS_WATCHDOG_BASE_MS } from '../../../../../electron/core/checkpoints/workspace-status.js';
import { startHarness, type Harness } from '../core-harness.js';
import { unconfined } from '../../../../support/unconfined.js';
import { allowEveryCard, runTurn } from './checkpoint-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function checkpoints(events: SessionEvent[]) {
  return events.flatMap((e) => (e.type === 'checkpoint' ? [e] : []));
}

describe('a confined command that makes .gitignore a FIFO', () => {
  it('leaves every later step recorded and the turn undoable, the FIFO named', async () => {
    h = await startHarness(); // real bubblewrap
    await fs.writeFile(path.join(h.workspace, 'kept.txt'), 'kept\n');
    allowEveryCard(h);
    h.fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', 'mkfifo .gitignore && echo made > made.txt'] } }] },
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'after the FIFO\n' } }] },
      { text: 'done' },
    );
    const id = await h.open();
    const turnId = await runTurn(h, id, 'go');

    const cps = checkpoints(await h.events(id));
    expect(cps.map((c) => c.changed.map((f) => f.path))).toEqual([['made.txt'], ['a.txt']]);
    expect(cps[0]?.skipped?.paths).toEqual([{ path: '.gitignore', why: 'special_file', kind: 'fifo' }]);
    expect(await h.call('session.changes', { id, turnId })).toMatchObject({ undo: { ok: true } });

    const undone = await h.call('session.undo', { id, turnId });
    expect(undone.restored.map((f) => f.path)).toEqual(['a.txt', 'made.txt']);
    expect(await fs.readdir(h.workspace)).toEqual(expect.arrayContaining(['.gitignore', 'kept.txt']));
    await expect(fs.access(path.join(h.workspace, 'made.txt'))).rejects.toThrow();
    expect((await fs.lstat(path.join(h.workspace, '.gitignore'))).isFIFO()).toBe(true);
  });
});

describe('a FIFO .gitattributes', () => {
  it('makes an undo refuse at once, in words, rather than wait on it; once gone the undo works', async () => {
    h = await startHarness(undefined, { sandboxFor: () => unconfined().sandbox });
    allowEveryCard(h);
    h.fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'written\n' } }] },
      { text: 'done' },
    );
    const id = await h.open();
    const turnId = await runTurn(h, id, 'go');
    execFileSync('mkfifo', [path.join(h.workspace, '.gitattributes')]);

    // git reads the attributes before it writes a file, and to compare one written within
    // the second of its snapshot: the snapshot before the restore would wait forever.
    const started = Date.now();
    expect(await h.raw('session.undo', { id, turnId })).toEqual({
      ok: false,
      error: expect.stringMatching(/could not be taken back: .*git waits on \.gitattributes \(a FIFO\)/),
    });
    expect(Date.now() - started).toBeLessThan(STATUS_WATCHDOG_BASE_MS); // looked at before any status
    expect(await fs.readFile(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('written\n');

    await fs.rm(path.join(h.workspace, '.gitattributes'));
    await h.call('session.undo', { id, turnId });
    await expect(fs.access(path.join(h.workspace, 'a.txt'))).rejects.toThrow();
  });
});

describe('a FIFO .gitattributes in a folder an undo writes to', () => {
  it('makes the undo refuse in words before it writes anything', async () => {
    h = await startHarness(undefined, { sandboxFor: () => unconfined().sandbox });
    await fs.mkdir(path.join(h.workspace, 'd'));
    await fs.writeFile(path.join(h.workspace, 'd/x.txt'), 'one\n');
    await fs.utimes(path.join(h.workspace, 'd/x.txt'), new Date('2020-01-01'), new Date('2020-01-01'));
    allowEveryCard(h);
    // Its own time stamp in the past, so no snapshot after it compares (and reads attributes).
    const script = 'printf "two, longer\\n" > d/x.txt && touch -d 2021-01-01 d/x.txt';
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', script] } }] }, { text: 'done' });
    const id = await h.open();
    const turnId = await runTurn(h, id, 'go');
    execFileSync('mkfifo', [path.join(h.workspace, 'd/.gitattributes')]);
    await h.core.checkpoints.state.specialFiles.findAndRemember(h.workspace); // as an earlier snapshot's walk would have

    expect(await h.raw('session.undo', { id, turnId })).toEqual({
      ok: false,
      error: expect.stringMatching(/could not be taken back: git waits on d\/\.gitattributes \(a FIFO\)/),
    });
    expect(await fs.readFile(path.join(h.workspace, 'd/x.txt'), 'utf8')).toBe('two, longer\n');
  });
});

describe('a file whose name is not UTF-8', () => {
  const name = 'caf\udce9.txt'; // byte 0xE9 alone, as a Latin-1 "café.txt"

  it('shows in the checkpoint and Changes, and an undo says it cannot take it back', async () => {
    h = await startHarness(undefined, { sandboxFor: () => unconfined().sandbox });
    allowEveryCard(h);
    const script = `printf made > "$(printf 'caf\\351.txt')"; echo plain > plain.txt`;
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', script] } }] }, { text: 'done' });
    const id = await h.open();
    const turnId = await runTurn(h, id, 'go');

    const [cp] = checkpoints(await h.events(id));
    expect(cp?.changed).toEqual([
      { path: name, change: 'added', bytes: 4 },
      { path: 'plain.txt', change: 'added', bytes: 6 },
    ]);
    const view = await h.call('session.changes', { id, turnId });
    expect(view.files.map((f) => [f.path, f.change])).toEqual([
      [name, 'added'],
      ['plain.txt', 'added'],
    ]);

    const undone = await h.call('session.undo', { id, turnId });
    expect(undone.restored.map((f) => f.path)).toEqual(['plain.txt']);
    expect(undone.kept).toEqual([{ path: name, why: 'skipped_by_snapshot' }]);
    const onDisk = Buffer.concat([Buffer.from(`${h.workspace}/`), encodePath(name)]);
    expect(await fs.readFile(onDisk, 'utf8')).toBe('made');
  });
});
