/**
 * The checkpoint store of one workspace (SPEC §12): snapshots of the workspace's files in
 * a shadow git repository in the data folder, and the three things done with them. The
 * session side (session-checkpoints.ts) decides when to snapshot and what an undo takes
 * back; this decides nothing, it only keeps and compares trees.
 */
import type { ChangedFile, Skipped } from '../../../shared/checkpoints.js';

/** One snapshot: its id (a commit in the store) and what it left out. */
export interface Snapshot {
  id: string;
  skipped: Skipped;
}

export interface CheckpointStore {
  /**
   * Records the workspace as it is now. Follows the workspace's ignore rules, leaves out
   * files over CHECKPOINT_FILE_MAX_BYTES and nested repositories (before hashing them), and
   * never opens the person's `.git` for writing.
   */
  snapshot(): Promise<Snapshot>;
  /** The files that differ between two snapshots, optionally only these paths, sorted by path. */
  changes(from: string, to: string, paths?: readonly string[]): Promise<ChangedFile[]>;
  /** One file's unified diff between two snapshots, cut like a card's; null diff for a binary file. */
  diff(from: string, to: string, path: string): Promise<{ diff: string | null; truncated: boolean }>;
  /**
   * Makes these paths in the workspace match the snapshot, byte for byte with their mode:
   * written where the snapshot has them, deleted where it does not. Touches no other path,
   * never `.git`, and never follows a link out of the workspace.
   *
   * Answers the paths it left alone: those the snapshot left out (too large, in a nested
   * repository), which it cannot bring back, and those whose file is now over
   * CHECKPOINT_FILE_MAX_BYTES, which no snapshot holds (a redo could not bring it back).
   * Throws, after the deletions among these paths and before writing any file, when a
   * folder stands where a file goes, or a file or link where a folder goes.
   */
  restore(snapshot: string, paths: readonly string[]): Promise<string[]>;
  /**
   * One file's bytes as a snapshot holds them, or null when it holds none at that path (never
   * there, a link, or left out: too large, a name not UTF-8). The places' review reads a
   * file's base this way (SPEC §15).
   */
  read(snapshot: string, path: string): Promise<Buffer | null>;
  /** Whether a snapshot is still in the store (the limit may have pruned it). */
  has(snapshot: string): Promise<boolean>;
  /** The store's size on disk, in bytes. */
  size(): Promise<number>;
  /** Drops the oldest snapshots until the store is under limitBytes; returns how many went. */
  prune(limitBytes: number): Promise<{ removed: number; bytes: number }>;
}

/** Whether checkpoints can run here: they need the system git. */
export type GitAvailability = { ok: true; git: string; version: string } | { ok: false; reason: string; fix: string };
