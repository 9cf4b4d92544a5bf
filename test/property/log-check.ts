/**
 * Invariant 5's log half: events.jsonl on disk parses line by line, its seqs run 1, 2, 3
 * without a gap, it folds with the shared reducer without throwing, and it holds exactly
 * what the running app holds (which may already be ahead of it). A torn last line is allowed only after a kill.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SessionEvent } from '../../shared/events.js';
import { foldEvents } from '../../shared/reducer.js';

export async function logFolds(
  dataDir: string,
  id: string,
  /** What the app holds, asked after the disk was read (it may be ahead, never behind). */
  inMemory: (() => Promise<readonly SessionEvent[]>) | null,
  allowTorn = false,
): Promise<string[]> {
  const file = path.join(dataDir, 'sessions', id, 'events.jsonl');
  const text = await fs.readFile(file, 'utf8');
  const lines = text.split('\n');
  const tail = lines.pop();
  if (tail !== '' && !allowTorn) return [`inv5: ${id}'s events.jsonl ends in a torn line`];
  const events: SessionEvent[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      events.push(JSON.parse(line) as SessionEvent);
    } catch {
      return [`inv5: ${id}'s events.jsonl line ${i + 1} is not JSON`];
    }
  }
  const gap = events.findIndex((e, i) => e.seq !== i + 1);
  if (gap >= 0) return [`inv5: ${id}'s events.jsonl has seq ${events[gap]!.seq} at line ${gap + 1}`];
  try {
    foldEvents(events);
  } catch (err) {
    return [`inv5: ${id}'s log does not fold: ${(err as Error).message}`];
  }
  const held = inMemory ? await inMemory() : null;
  if (
    held &&
    (held.length < events.length || events.some((e, i) => e.seq !== held[i]!.seq || e.type !== held[i]!.type))
  ) {
    return [
      `inv5: ${id} holds ${held.length} events in memory, which are not what its ${events.length} on disk begin with`,
    ];
  }
  return [];
}
