/**
 * The reference for SPEC §2 "Paths", written plainly and apart from the core's: walk the
 * path one name at a time from "/", following each link where it is met (a relative
 * target from the real folder it sits in, `..` in a target climbing from there), and
 * once a name is missing, keep the rest as written.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export type Reference =
  { ok: true; real: string; inside: boolean; exists: boolean } | { ok: false; why: 'dotdot' | 'symlink' | 'bad' };

export async function referenceResolve(root: string, input: string): Promise<Reference> {
  if (typeof input !== 'string' || input === '' || input.includes('\0')) return { ok: false, why: 'bad' };
  const joined = path.isAbsolute(input) ? path.resolve(input) : path.resolve(root, input);
  if (!path.isAbsolute(input) && !within(root, joined)) return { ok: false, why: 'dotdot' };
  const walked = await follow('/', names(joined), 0);
  if (walked === null) return { ok: false, why: 'bad' };
  const inside = within(root, walked.real);
  if (!path.isAbsolute(input) && !inside) return { ok: false, why: 'symlink' };
  return { ok: true, real: walked.real, inside, exists: walked.exists };
}

export function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);
}

function names(p: string): string[] {
  return p.split('/').filter((n) => n !== '' && n !== '.');
}

/** From the real folder `cur`, takes `rest` name by name. null when links loop. */
async function follow(cur: string, rest: string[], depth: number): Promise<{ real: string; exists: boolean } | null> {
  if (depth > 40) return null;
  for (let i = 0; i < rest.length; i++) {
    const name = rest[i]!;
    if (name === '..') {
      cur = path.dirname(cur);
      continue;
    }
    const next = path.join(cur, name);
    const st = await fs.lstat(next).catch(() => null);
    if (st === null) return { real: path.join(next, ...rest.slice(i + 1)), exists: false };
    if (!st.isSymbolicLink()) {
      cur = next;
      continue;
    }
    const target = await fs.readlink(next);
    const start = path.isAbsolute(target) ? '/' : cur;
    const via = await follow(start, names(target), depth + 1);
    if (via === null) return null;
    if (!via.exists) return { real: path.join(via.real, ...rest.slice(i + 1)), exists: false };
    cur = via.real;
  }
  return { real: cur, exists: true };
}
