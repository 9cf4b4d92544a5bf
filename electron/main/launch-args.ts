/**
 * The folder named on the command line: `gatehouse FOLDER`, `electron . FOLDER` in
 * development, or the argv a second launch hands the running app. Chromium and Electron
 * switches (--foo) are skipped.
 */
import path from 'node:path';

/**
 * argv as Electron gives it: [exe, ...args] packaged, [exe, appPath, ...args] in
 * development. Relative folders are resolved against the launching shell's folder.
 */
export function folderArgument(argv: readonly string[], isPackaged: boolean, cwd: string): string | null {
  const args = argv.slice(isPackaged ? 1 : 2);
  const folder = args.find((a) => a !== '' && !a.startsWith('-'));
  return folder === undefined ? null : path.resolve(cwd, folder);
}
