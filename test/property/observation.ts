/**
 * One look at everything the invariants compare: the watched tree, the marker files
 * commands append to, and each session's log, grants (as the app holds them and as
 * meta.json keeps them) and open cards.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import type { CardEvent } from './consent-ledger.js';
import { withoutRaceZone } from './race-zone.js';
import { readTree, type Tree } from './tree.js';

export interface SessionView {
  id: string;
  /** The workspace's real root when the session was opened. */
  root: string;
  events: readonly SessionEvent[];
  stateGrants: Grant[];
  metaGrants: Grant[];
  openCards: CardEvent[];
}

export interface Observation {
  tree: Tree;
  /** Marker file name to its lines (each the real folder a command started in). */
  markers: Map<string, string[]>;
  sessions: SessionView[];
}

export async function readMarkers(dir: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const name of (await fs.readdir(dir).catch(() => [])).sort()) {
    const text = await fs.readFile(path.join(dir, name), 'utf8');
    out.set(
      name,
      text.split('\n').filter((l) => l !== ''),
    );
  }
  return out;
}

export async function readMetaGrants(dataDir: string, id: string): Promise<Grant[]> {
  const meta = JSON.parse(await fs.readFile(path.join(dataDir, 'sessions', id, 'meta.json'), 'utf8')) as {
    grants: Grant[];
  };
  return meta.grants;
}

export async function observe(root: string, markers: string, sessions: () => Promise<SessionView[]>) {
  const [tree, marks, views] = await Promise.all([readTree(root), readMarkers(markers), sessions()]);
  const seen = views.map((v) => ({ ...v, events: withoutRaceZone(v.events) }));
  return { tree, markers: marks, sessions: seen } satisfies Observation;
}

export function lastSeq(view: SessionView): number {
  return view.events.at(-1)?.seq ?? 0;
}
