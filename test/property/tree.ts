/**
 * The whole watched tree (workspace, its parent, outside) as it is on disk, keyed by
 * absolute path, and the comparison of two of them. Links are recorded, never followed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { inRaceZone } from './race-zone.js';
import { UNWATCHED } from './world.js';

export type Entry =
  | { type: 'file'; bytes: Buffer; mode: number }
  | { type: 'dir' }
  | { type: 'link'; target: string }
  | { type: 'other' };

export type Tree = Map<string, Entry>;

export async function readTree(root: string): Promise<Tree> {
  const tree: Tree = new Map();
  const names = await fs.readdir(root);
  for (const name of names.sort()) {
    if (!UNWATCHED.includes(name)) await walk(path.join(root, name), tree);
  }
  return tree;
}

async function walk(abs: string, into: Tree): Promise<void> {
  if (inRaceZone(abs)) return; // the racer's, swapped all the time (race-zone.ts)
  const st = await fs.lstat(abs).catch(() => null);
  if (st === null) return;
  if (st.isSymbolicLink()) {
    into.set(abs, { type: 'link', target: await fs.readlink(abs) });
  } else if (st.isFile()) {
    into.set(abs, { type: 'file', bytes: await fs.readFile(abs), mode: st.mode & 0o7777 });
  } else if (st.isDirectory()) {
    into.set(abs, { type: 'dir' });
    for (const name of (await fs.readdir(abs)).sort()) await walk(path.join(abs, name), into);
  } else {
    into.set(abs, { type: 'other' });
  }
}

export function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === 'file' && b.type === 'file') return a.bytes.equals(b.bytes) && a.mode === b.mode;
  if (a.type === 'link' && b.type === 'link') return a.target === b.target;
  return true;
}

/** Every path whose entry differs between the two trees (added, removed or changed). */
export function changedPaths(before: Tree, after: Tree): string[] {
  const all = new Set([...before.keys(), ...after.keys()]);
  return [...all].filter((p) => !sameEntry(before.get(p), after.get(p))).sort();
}

/** The bytes of the regular file at `abs`, or null when there is none. */
export function fileBytes(tree: Tree, abs: string): Buffer | null {
  const e = tree.get(abs);
  return e?.type === 'file' ? e.bytes : null;
}
