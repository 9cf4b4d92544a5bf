/**
 * Keeps a store under its limit: drops the oldest snapshot refs, then repacks what is still
 * reachable (`repack -a -d`) and deletes the rest (`prune --expire=now`), until the store
 * fits. Objects are shared between snapshots, so dropping a tenth of them may free little:
 * each round drops at least twice as many as the one before.
 *
 * Each session's last snapshot (its worktree HEAD) and everything its index names stay:
 * git counts every worktree's HEAD and index as reachable, and the next snapshot of that
 * session builds on them. A session idle for STALE_WORKTREE_MS loses its worktree (index
 * and HEAD) when the store is still over the limit; it starts afresh if it comes back.
 *
 * Run with the store lock held alone (store-lock.ts): nothing of this process is writing,
 * so any temporary file or lock file found is a dead process's and goes too.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { packRefs, repack } from './repack-policy.js';
import { SNAPSHOT_REFS } from './snapshot.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import { storeBytes } from './store-size.js';

const STALE_WORKTREE_MS = 14 * 24 * 60 * 60 * 1000;

interface SnapshotRef {
  ref: string;
  id: string;
}

export async function pruneStore(
  shadow: ShadowGit,
  ownWorktree: string,
  limitBytes: number,
): Promise<{ removed: number; bytes: number }> {
  await clearLeftovers(shadow);
  let bytes = await storeBytes(shadow.layout.storeDir);
  if (bytes <= limitBytes) return { removed: 0, bytes };
  const refs = await snapshotRefs(shadow);
  let heads = await worktreeHeads(shadow);
  const removable = refs.filter((r) => !heads.has(r.id));
  const dropped = new Set<string>();
  for (let round = 1; bytes > limitBytes && removable.length > 0; round *= 2) {
    const share = Math.ceil((removable.length * (bytes - limitBytes)) / bytes);
    const batch = removable.splice(0, Math.max(round, share));
    await deleteRefs(shadow, batch);
    for (const r of batch) dropped.add(r.ref);
    bytes = await consolidate(shadow);
  }
  if (bytes > limitBytes && (await dropIdleWorktrees(shadow, ownWorktree)) > 0) {
    heads = await worktreeHeads(shadow);
    bytes = await consolidate(shadow);
  }
  const kept = new Set([...refs.filter((r) => !dropped.has(r.ref)).map((r) => r.id), ...heads]);
  const removed = new Set(refs.filter((r) => dropped.has(r.ref) && !kept.has(r.id)).map((r) => r.id)).size;
  return { removed, bytes };
}

/** The snapshot refs, oldest first (their names start with the time). */
async function snapshotRefs(shadow: ShadowGit): Promise<SnapshotRef[]> {
  const out = await shadow.text({
    what: 'list the snapshots',
    args: ['for-each-ref', '--sort=refname', '--format=%(refname) %(objectname)', SNAPSHOT_REFS],
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ref, id] = line.split(' ') as [string, string];
      return { ref, id };
    });
}

/** The commit each session's HEAD holds (none before its first snapshot). */
async function worktreeHeads(shadow: ShadowGit): Promise<Set<string>> {
  const heads = new Set<string>();
  for (const name of await readdir(shadow.layout.worktreesDir()).catch(() => [])) {
    const head = await shadow
      .text({
        what: 'read a session head',
        args: ['rev-parse', '--verify', '-q', 'HEAD'],
        gitDir: shadow.layout.worktree(name),
        okCodes: [1],
      })
      .catch(() => '');
    if (/^[0-9a-f]{40,64}$/.test(head)) heads.add(head);
  }
  return heads;
}

async function deleteRefs(shadow: ShadowGit, refs: readonly SnapshotRef[]): Promise<void> {
  await shadow.run({
    what: 'drop the oldest snapshots',
    args: ['update-ref', '--stdin'],
    input: refs.map((r) => `delete ${r.ref}\n`).join(''),
  });
}

/** Repacks what is reachable, deletes the rest now; returns the store's size after. */
async function consolidate(shadow: ShadowGit): Promise<number> {
  await repack(shadow, ['-a', '-d']);
  await shadow.run({ what: 'delete dropped snapshots', args: ['prune', '--expire=now'], timeoutMs: LONG_TIMEOUT_MS });
  await packRefs(shadow);
  return storeBytes(shadow.layout.storeDir);
}

/** Drops the worktrees of sessions (not this one) whose last snapshot is older than STALE_WORKTREE_MS. */
async function dropIdleWorktrees(shadow: ShadowGit, ownWorktree: string): Promise<number> {
  let dropped = 0;
  for (const name of await readdir(shadow.layout.worktreesDir()).catch(() => [])) {
    const dir = shadow.layout.worktree(name);
    if (dir === ownWorktree) continue;
    const st = await stat(path.join(dir, 'HEAD')).catch(() => null);
    if (st && Date.now() - st.mtimeMs < STALE_WORKTREE_MS) continue;
    await rm(dir, { recursive: true, force: true });
    dropped++;
  }
  return dropped;
}

/** Temporary files and lock files of killed processes: restore indexes, half-written packs and objects, ref locks. */
async function clearLeftovers(shadow: ShadowGit): Promise<void> {
  const { repo, tmp } = shadow.layout;
  await removeFiles(tmp, () => true);
  await removeFiles(path.join(repo, 'objects'), (name) => name.startsWith('tmp_') || name.startsWith('.tmp-'));
  await removeFiles(path.join(repo, 'refs'), (name) => name.endsWith('.lock'));
  await rm(path.join(repo, 'packed-refs.lock'), { force: true });
  for (const name of await readdir(shadow.layout.worktreesDir()).catch(() => [])) {
    await rm(path.join(shadow.layout.worktree(name), 'index.lock'), { force: true });
    await rm(path.join(shadow.layout.worktree(name), 'HEAD.lock'), { force: true });
  }
}

/** Removes the files under dir (at any depth) whose names match. */
async function removeFiles(dir: string, match: (name: string) => boolean): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await removeFiles(full, match);
    else if (match(entry.name)) await rm(full, { force: true });
  }
}
