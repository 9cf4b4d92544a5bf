/**
 * What the store accepts from its callers: snapshot ids that are object names (never a
 * revision expression or an option), and workspace paths that stay inside the workspace
 * and out of any `.git`. Anything else is refused with an Error that names it.
 */

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function checkSnapshotId(id: string): string {
  if (!OBJECT_ID.test(id)) throw new Error(`not a snapshot id: ${JSON.stringify(id)}`);
  return id;
}

/** A path relative to the workspace root, with forward slashes, as changes() names them. */
export function checkWorkspacePath(p: string): string {
  const refuse = (why: string) => new Error(`refused path ${JSON.stringify(p)}: ${why}`);
  if (p.length === 0) throw refuse('it is empty');
  if (p.includes('\0')) throw refuse('it holds a NUL character');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.startsWith('\\')) throw refuse('it is absolute');
  const parts = p.split(/[/\\]/);
  if (parts.some((part) => part === '..')) throw refuse('it climbs out with ".."');
  if (parts.some((part) => part === '' || part === '.')) throw refuse('it is not in plain form');
  // Case-insensitively, and with the trailing dots and spaces Windows drops: `.GIT`, `.git.` are `.git` there.
  if (parts.some((part) => /^\.git[. ]*$/i.test(part))) throw refuse('it is inside a .git folder');
  return p;
}
