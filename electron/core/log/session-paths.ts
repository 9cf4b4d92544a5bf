/** The layout of a session on disk: `<dataDir>/sessions/<id>/{events.jsonl, meta.json, blobs/}`. */
import path from 'node:path';
import { META_FILE } from './session-meta.js';
import { assertSessionId } from './session-id.js';

export const EVENTS_FILE = 'events.jsonl';

export interface SessionPaths {
  dir: string;
  events: string;
  meta: string;
  blobs: string;
}

export function sessionsDir(dataDir: string): string {
  return path.join(dataDir, 'sessions');
}

/** Throws InvalidSessionIdError for an id that could escape the sessions folder. */
export function sessionPaths(dataDir: string, id: string): SessionPaths {
  assertSessionId(id);
  const dir = path.join(sessionsDir(dataDir), id);
  return {
    dir,
    events: path.join(dir, EVENTS_FILE),
    meta: path.join(dir, META_FILE),
    blobs: path.join(dir, 'blobs'),
  };
}
