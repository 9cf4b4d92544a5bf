import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogCorruptError } from '../../../../../electron/core/log/event-lines.js';
import { SessionLog } from '../../../../../electron/core/log/session-log.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();

function text(n: number) {
  return { type: 'assistant_text', turnId: 't1', text: `step ${n}` } as const;
}

/** A clock that moves one second per call from a fixed start. */
function steppingClock() {
  let t = Date.UTC(2025, 2, 14, 10, 0, 0);
  return () => new Date((t += 1000));
}

async function fileLines(file: string): Promise<string[]> {
  const raw = await readFile(file, 'utf8');
  expect(raw.endsWith('\n')).toBe(true);
  return raw.slice(0, -1).split('\n');
}

describe('SessionLog', () => {
  it('numbers events from 1, stamps them with the clock, and writes one JSON line each', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const log = new SessionLog({ file, clock: steppingClock() });
    const a = await log.append(text(1));
    const b = await log.append({ type: 'error', message: 'oops' });
    await log.close();

    expect(a).toEqual({ seq: 1, ts: '2025-03-14T10:00:01.000Z', ...text(1) });
    expect(b).toMatchObject({ seq: 2, ts: '2025-03-14T10:00:02.000Z', type: 'error' });
    expect((await fileLines(file)).map((l) => JSON.parse(l))).toEqual([a, b]);
  });

  it('continues the seq after being reopened', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const first = new SessionLog({ file });
    await first.append(text(1));
    await first.append(text(2));
    await first.close();

    const second = new SessionLog({ file });
    const next = await second.append(text(3));
    expect(next.seq).toBe(3);
    expect((await second.readEvents()).map((e) => e.seq)).toEqual([1, 2, 3]);
    await second.close();
  });

  it('gives concurrent appends seqs in call order, and the file holds them in seq order', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const log = new SessionLog({ file });
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => log.append(text(i))));
    await log.close();

    expect(results.map((e) => e.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(results.map((e) => (e as { text: string }).text)).toEqual(results.map((_, i) => `step ${i}`));
    expect((await fileLines(file)).map((l) => JSON.parse(l).seq)).toEqual(results.map((e) => e.seq));
  });

  it('tells listeners each event exactly as written, in order, until they unsubscribe', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const log = new SessionLog({ file });
    const seen: SessionEvent[] = [];
    const stop = log.onAppend((e) => seen.push(e));
    await Promise.all([log.append(text(1)), log.append(text(2)), log.append(text(3))]);
    stop();
    await log.append(text(4));
    await log.close();

    const lines = await fileLines(file);
    expect(seen.map((e) => JSON.stringify(e))).toEqual(lines.slice(0, 3));
  });

  it('keeps appending when a listener throws, and reports the exception', async () => {
    const errors: unknown[] = [];
    const log = new SessionLog({ file: path.join(tmp.path, 'events.jsonl'), onListenerError: (e) => errors.push(e) });
    log.onAppend(() => {
      throw new Error('listener bug');
    });
    await expect(log.append(text(1))).resolves.toMatchObject({ seq: 1 });
    await log.close();
    expect(errors).toEqual([new Error('listener bug')]);
  });

  it('returns only the events after sinceSeq', async () => {
    const log = new SessionLog({ file: path.join(tmp.path, 'events.jsonl') });
    for (let i = 1; i <= 5; i++) await log.append(text(i));
    expect((await log.readEvents(3)).map((e) => e.seq)).toEqual([4, 5]);
    await log.close();
  });

  it('writes the same lines with durability none', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const log = new SessionLog({ file, durability: 'none' });
    await log.append(text(1));
    await log.append(text(2));
    await log.close();
    expect(await fileLines(file)).toHaveLength(2);
  });

  it('refuses appends after close', async () => {
    const log = new SessionLog({ file: path.join(tmp.path, 'events.jsonl') });
    await log.append(text(1));
    await log.close();
    await expect(log.append(text(2))).rejects.toThrow(/closed/);
  });

  it('reads a missing file as an empty log', async () => {
    const log = new SessionLog({ file: path.join(tmp.path, 'events.jsonl') });
    expect(await log.readEvents()).toEqual([]);
    await log.close();
  });
});

describe('SessionLog with a torn last line', () => {
  it('keeps every complete event, sets the torn bytes aside, and appends cleanly after them', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const before = new SessionLog({ file });
    for (let i = 1; i <= 3; i++) await before.append(text(i));
    await before.close();
    const torn = '{"seq":4,"ts":"2025-03-14T10:00:04.000Z","type":"assistant_te';
    await appendFile(file, torn);

    const after = new SessionLog({ file });
    expect((await after.readEvents()).map((e) => e.seq)).toEqual([1, 2, 3]);
    const [kept] = after.tornTails();
    expect(kept?.bytes).toBe(torn.length);
    expect(await readFile(kept?.keptAt ?? '', 'utf8')).toBe(torn);
    expect(path.basename(kept?.keptAt ?? '')).toMatch(/^events\.jsonl\.torn-/);

    const next = await after.append(text(4));
    await after.close();
    expect(next.seq).toBe(4);
    const lines = await fileLines(file);
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3, 4]);
  });

  it('repairs the tail before the first append even when nothing was read first', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const before = new SessionLog({ file });
    await before.append(text(1));
    await before.close();
    await appendFile(file, '{"seq":2');

    const after = new SessionLog({ file });
    expect((await after.append(text(2))).seq).toBe(2);
    await after.close();
    expect((await fileLines(file)).map((l) => JSON.parse(l).seq)).toEqual([1, 2]);
  });
});

describe('SessionLog with a damaged middle line', () => {
  it('refuses to read or append, names the line, and leaves the file as it was', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const ok = (seq: number) => JSON.stringify({ seq, ts: 'x', ...text(seq) });
    const content = `${ok(1)}\n{"seq":2,"ts":"x","ty\n${ok(3)}\n`;
    await writeFile(file, content);

    const log = new SessionLog({ file });
    const failure = log.readEvents();
    await expect(failure).rejects.toBeInstanceOf(LogCorruptError);
    await expect(failure).rejects.toThrow(/damaged at line 2/);
    await expect(log.append(text(4))).rejects.toBeInstanceOf(LogCorruptError);
    await log.close();

    expect(await readFile(file, 'utf8')).toBe(content);
    expect((await readdir(tmp.path)).filter((n) => n.includes('torn'))).toEqual([]);
  });
});

describe('SessionLog after a failed fsync', () => {
  it('never acknowledges a later append, even when the next fsync would succeed', async () => {
    const file = path.join(tmp.path, 'events.jsonl');
    const log = new SessionLog({ file });
    await log.append(text(1));
    const handle = (log as unknown as { open: { handle: { datasync: () => Promise<void> } } }).open.handle;
    const real = handle.datasync.bind(handle);
    let failures = 1;
    handle.datasync = () => (failures-- > 0 ? Promise.reject(new Error('EIO: simulated')) : real());
    await expect(log.append(text(2))).rejects.toThrow('EIO');
    await expect(log.append(text(3))).rejects.toThrow(/fdatasync failed/);
    await log.close().catch(() => undefined);
  });
});
