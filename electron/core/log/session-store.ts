/**
 * The sessions under a data folder (Electron's userData, GATEHOUSE_HOME or --data-dir):
 * create one, list them all, open one by id. Each session is opened at most once per
 * store, so there is a single writer per log and seqs cannot clash.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { syncDir, removeStaleTemps } from '../files/atomic-file.js';
import { systemClock, type Clock } from './clock.js';
import type { Durability } from './session-log.js';
import { makePrivateDir, PRIVATE_FILE_MODE, tightenDir, tightenFolder } from '../files/private-files.js';
import { assertSessionId, isSessionId, newSessionId } from './session-id.js';
import type { SessionAgent } from '../../../shared/agents.js';
import { MetaError, readMeta, writeMeta, type ModelRef, type SessionMeta } from './session-meta.js';
import { EVENTS_FILE, sessionPaths, sessionsDir, type SessionPaths } from './session-paths.js';
import { SessionRecord } from './session-record.js';
import type { ErrorKind } from '../error-kind.js';

export interface SessionStoreOptions {
  dataDir: string;
  clock?: Clock;
  durability?: Durability;
}

export interface NewSession {
  /** Absolute path of the workspace folder. */
  workspace: string;
  title: string;
  model: ModelRef | null;
  /** The external agent that drives it (SPEC §14); absent: Gatehouse's own runner. */
  agent?: SessionAgent;
  /** An id chosen ahead (newSessionId): a session in a place of its own names its place by it first. */
  id?: string;
}

/** A folder under sessions/ whose meta could not be used, and why. */
export interface UnreadableSession {
  name: string;
  error: string;
}

export interface SessionListing {
  /** Most recently updated first. */
  sessions: SessionMeta[];
  unreadable: UnreadableSession[];
}

export class SessionNotFoundError extends Error {
  readonly errorKind: ErrorKind = 'not-found';
  override readonly name = 'SessionNotFoundError';
  constructor(readonly id: string) {
    super(`no session ${id}`);
  }
}

/** Prefix of a session folder being built; it is renamed to its id when complete. */
const STAGING_PREFIX = '.creating-';

export class SessionStore {
  readonly dataDir: string;
  private readonly clock: Clock;
  private readonly durability: Durability | undefined;
  private readonly opened = new Map<string, Promise<SessionRecord>>();

  constructor(options: SessionStoreOptions) {
    this.dataDir = options.dataDir;
    this.clock = options.clock ?? systemClock;
    this.durability = options.durability;
  }

  /**
   * Builds the folder under a hidden name and renames it into place, so a crash never
   * leaves a session folder without its meta.json.
   */
  async create(init: NewSession): Promise<SessionRecord> {
    if (!path.isAbsolute(init.workspace)) throw new Error(`workspace must be an absolute path: ${init.workspace}`);
    const now = this.clock();
    const id = init.id ?? newSessionId(now);
    assertSessionId(id);
    const meta: SessionMeta = {
      id,
      title: init.title,
      workspace: init.workspace,
      model: init.model,
      ...(init.agent ? { agent: init.agent } : {}),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      grants: [],
    };
    const root = sessionsDir(this.dataDir);
    const staging = path.join(root, `${STAGING_PREFIX}${id}`);
    // Also makes the data folder and sessions/ private when this creates them.
    await makePrivateDir(staging);
    await fs.writeFile(path.join(staging, EVENTS_FILE), '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
    await writeMeta(staging, meta);
    await fs.rename(staging, sessionPaths(this.dataDir, id).dir);
    await syncDir(root);
    return this.open(id);
  }

  /** Every session's meta. A folder with a missing or damaged meta is reported, not fatal. */
  async list(): Promise<SessionListing> {
    const root = sessionsDir(this.dataDir);
    const entries = await fs.readdir(root, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
    const results = await Promise.all(folders.map((name) => this.readListed(name)));
    const sessions = results.filter((r): r is SessionMeta => !('error' in r));
    const unreadable = results.filter((r): r is UnreadableSession => 'error' in r);
    sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
    return { sessions, unreadable };
  }

  /** Opens a session, or returns the one already open. Refuses ids that are not plain names. */
  async open(id: string): Promise<SessionRecord> {
    const paths = sessionPaths(this.dataDir, id);
    const existing = this.opened.get(id);
    if (existing) return existing;
    const opening = this.openRecord(id, paths);
    this.opened.set(id, opening);
    opening.catch(() => this.opened.delete(id));
    return opening;
  }

  /** Closes every session this store opened. */
  async dispose(): Promise<void> {
    const records = await Promise.allSettled([...this.opened.values()]);
    await Promise.all(records.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }

  private async openRecord(id: string, paths: SessionPaths): Promise<SessionRecord> {
    const stat = await fs.stat(paths.dir).catch(() => null);
    if (!stat?.isDirectory()) throw new SessionNotFoundError(id);
    const meta = await readMeta(paths.dir);
    if (meta.id !== id) throw new MetaError(paths.meta, `belongs to session ${meta.id}, not ${id}`);
    await removeStaleTemps(paths.dir);
    await removeStaleTemps(paths.blobs);
    await this.tighten(paths);
    return new SessionRecord({
      paths,
      meta,
      clock: this.clock,
      durability: this.durability,
      onClosed: () => this.opened.delete(id),
    });
  }

  /** A session written before folders were private (0755/0644) becomes 0700/0600 when opened. */
  private async tighten(paths: SessionPaths): Promise<void> {
    // Only the folder sessions/ itself: listing it on every open would cost O(sessions).
    await tightenDir(sessionsDir(this.dataDir));
    await tightenFolder(paths.dir);
    await tightenFolder(paths.blobs);
  }

  private async readListed(name: string): Promise<SessionMeta | UnreadableSession> {
    if (!isSessionId(name)) return { name, error: 'the folder name is not a session id' };
    const dir = sessionPaths(this.dataDir, name).dir;
    try {
      const meta = await readMeta(dir);
      if (meta.id !== name) return { name, error: `meta.json belongs to session ${meta.id}` };
      return meta;
    } catch (err) {
      return { name, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
