/**
 * What the host wrote to disk, read straight from the data folder (sessions/<id>/events.jsonl):
 * the e2e tests check the record, not only the screen.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SessionEvent } from '../../../shared/events.js';

/** Every session's events, by session id; a torn last line is skipped. */
export async function readSessionLogs(dataDir: string): Promise<Map<string, SessionEvent[]>> {
  const dir = path.join(dataDir, 'sessions');
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const logs = new Map<string, SessionEvent[]>();
  for (const name of names) {
    const text = await fs.readFile(path.join(dir, name, 'events.jsonl'), 'utf8').catch(() => '');
    const events: SessionEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        events.push(JSON.parse(line) as SessionEvent);
      } catch {
        // A line being written right now; the next read sees it whole.
      }
    }
    logs.set(name, events);
  }
  return logs;
}

/** All events of every session, flattened (tests mostly look for one kind of event). */
export async function allLoggedEvents(dataDir: string): Promise<SessionEvent[]> {
  return [...(await readSessionLogs(dataDir)).values()].flat();
}

/** The events of the one session whose log holds a user message with this exact text. */
export async function eventsOfSessionWith(dataDir: string, userText: string): Promise<SessionEvent[]> {
  for (const events of (await readSessionLogs(dataDir)).values()) {
    if (events.some((e) => (e.type === 'user_message' || e.type === 'queued') && e.text === userText)) return events;
  }
  return [];
}
