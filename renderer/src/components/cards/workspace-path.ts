/**
 * A path as a card names it: relative to the session's workspace when inside it, else
 * absolute. Pure string work: the core has already resolved the real path.
 */
export function workspaceRelative(workspace: string, path: string): string {
  const root = workspace.replace(/[/\\]+$/, '');
  if (path === root) return '.';
  for (const sep of ['/', '\\']) {
    if (path.startsWith(root + sep)) return path.slice(root.length + 1);
  }
  return path;
}
