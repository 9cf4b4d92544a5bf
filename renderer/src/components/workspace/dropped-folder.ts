/**
 * What a drop onto the window gives Gatehouse: a folder's real path, or the words that say
 * why not. A file is refused; a browser cannot tell a page the path of what was dropped.
 */
export const BROWSER_DROP_MESSAGE =
  "This browser cannot give Gatehouse the folder's path: use Open folder (Ctrl+O) and type or paste it.";

export type DropOutcome = { path: string } | { error: string };

export function droppedFolder(data: DataTransfer, getPathForFile?: (file: File) => string): DropOutcome {
  const item = [...data.items].find((i) => i.kind === 'file');
  const file = data.files[0];
  if (!item || !file) return { error: 'Drop a folder to open a session on it.' };
  const entry = item.webkitGetAsEntry?.() ?? null;
  if (entry && !entry.isDirectory) {
    return { error: `"${file.name}" is a file. Gatehouse opens folders: drop the folder that holds it.` };
  }
  if (!getPathForFile) return { error: BROWSER_DROP_MESSAGE };
  const path = getPathForFile(file);
  return path ? { path } : { error: BROWSER_DROP_MESSAGE };
}
