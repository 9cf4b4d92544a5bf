/**
 * What a snapshot left out, kept in its commit's message so the store can read it back:
 * the too-large files (with their sizes) and nested repositories in full (restore must
 * never delete such a path, and changes() must not call a file that grew past the cap
 * "deleted"), the files whose names are not UTF-8 in full with their size and
 * modification time (so changes() still names one a step made, changed or deleted), the
 * special files (FIFOs, sockets, devices) and the ignored paths only as far as a
 * checkpoint names them.
 */
import { CHECKPOINT_SKIPPED_MAX } from '../../../shared/limits.js';
import type { Skipped, SkippedPath } from '../../../shared/checkpoints.js';
import type { SpecialFile } from './special-files.js';

/** A message names at most this many too-large files and nested repositories; past it, restore may treat more as absent. */
const RECORD_MAX = 10_000;
const TITLE = 'Gatehouse snapshot';

/** A file whose name is not UTF-8: what tells one version of it from another without reading it. */
export interface UnreadableName {
  path: string;
  bytes: number;
  mtimeMs: number;
}

export interface LeftOut {
  tooLarge: { path: string; bytes: number }[];
  nested: string[];
  ignored: string[];
  unreadable: UnreadableName[];
  special: SpecialFile[];
}

/** A snapshot's record, read back from its commit. */
export interface LeftOutRecord {
  tooLarge: Map<string, number>;
  nested: string[];
  unreadable: Map<string, { bytes: number; mtimeMs: number }>;
}

/**
 * The first CHECKPOINT_SKIPPED_MAX left-out paths (special files first, as what can stop
 * a snapshot, then too large, unreadable names, nested, ignored shallow first) and how many more.
 */
export function summarize(left: LeftOut): Skipped {
  const all: SkippedPath[] = [
    ...left.special.map(({ path, kind }) => ({ path, why: 'special_file' as const, kind })),
    ...left.tooLarge.map(({ path, bytes }) => ({ path, why: 'too_large' as const, bytes })),
    ...left.unreadable.map(({ path, bytes }) => ({ path, why: 'name_not_utf8' as const, bytes })),
    ...left.nested.map((path) => ({ path, why: 'nested_repository' as const })),
    ...[...left.ignored].sort(shallowFirst).map((path) => ({ path, why: 'ignored' as const })),
  ];
  return { paths: all.slice(0, CHECKPOINT_SKIPPED_MAX), more: Math.max(0, all.length - CHECKPOINT_SKIPPED_MAX) };
}

function shallowFirst(a: string, b: string): number {
  const depth = (p: string) => p.replace(/\/$/, '').split('/').length;
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The commit message: a title, then the record as one JSON line. */
export function leftOutMessage(left: LeftOut): string {
  const ignored = [...left.ignored].sort(shallowFirst);
  const record = {
    tooLarge: left.tooLarge.slice(0, RECORD_MAX).map(({ path, bytes }) => [path, bytes]),
    nested: left.nested.slice(0, RECORD_MAX),
    unreadable: left.unreadable.slice(0, RECORD_MAX).map(({ path, bytes, mtimeMs }) => [path, bytes, mtimeMs]),
    special: left.special.slice(0, CHECKPOINT_SKIPPED_MAX).map(({ path, kind }) => [path, kind]),
    ignored: ignored.slice(0, CHECKPOINT_SKIPPED_MAX),
    ignoredMore: Math.max(0, ignored.length - CHECKPOINT_SKIPPED_MAX),
  };
  return `${TITLE}\n\n${JSON.stringify(record)}\n`;
}

/** Reads the record from a raw commit object (`git cat-file commit`); empty when it has none. */
export function parseLeftOut(rawCommit: string): LeftOutRecord {
  const body = rawCommit.slice(rawCommit.indexOf('\n\n') + 2);
  const line = body.split('\n').find((l) => l.startsWith('{'));
  const empty: LeftOutRecord = { tooLarge: new Map(), nested: [], unreadable: new Map() };
  if (!line) return empty;
  try {
    const parsed = JSON.parse(line) as {
      tooLarge?: [string, number][];
      nested?: string[];
      unreadable?: [string, number, number][];
    };
    return {
      tooLarge: new Map(parsed.tooLarge ?? []),
      nested: parsed.nested ?? [],
      unreadable: new Map((parsed.unreadable ?? []).map(([p, bytes, mtimeMs]) => [p, { bytes, mtimeMs }])),
    };
  } catch {
    return empty;
  }
}

/** Why a snapshot left this path out, or null when it did not (the path is in its tree or absent). */
export function leftOutWhy(
  record: LeftOutRecord,
  p: string,
): { why: 'too_large'; bytes: number } | { why: 'nested_repository' } | { why: 'name_not_utf8' } | null {
  const bytes = record.tooLarge.get(p);
  if (bytes !== undefined) return { why: 'too_large', bytes };
  if (record.unreadable.has(p)) return { why: 'name_not_utf8' };
  if (record.nested.some((dir) => p === dir || p.startsWith(`${dir}/`))) return { why: 'nested_repository' };
  return null;
}
