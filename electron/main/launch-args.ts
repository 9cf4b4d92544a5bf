/**
 * The folder named on the command line: `gatehouse FOLDER`, `electron . FOLDER` in
 * development, or the argv a second launch hands the running app. Read as Electron reads
 * it, since switches come anywhere: Playwright puts its own first (`-r loader.js
 * --no-sandbox --inspect=0 . FOLDER`), and Chromium hands a second instance its argv with
 * every switch moved before the words.
 *
 * - A switch is a word starting with `-`; it never takes the next word as its value
 *   (Chromium's parser has only `--switch=value`), except Electron's default app's own
 *   `-r`/`--require MODULE` before the app's path.
 * - `--` ends the switches: every word after it is a word, even one starting with `-`.
 * - Under the default app (`electron . FOLDER`, `process.defaultApp`) the first word is
 *   the app's path, which Electron took (or `--app=PATH` named it); packaged, the first
 *   word is the user's.
 */
import path from 'node:path';

/**
 * argv as Electron gives it, argv[0] the executable. Relative folders are resolved against
 * the launching shell's folder.
 */
export function folderArgument(argv: readonly string[], defaultApp: boolean, cwd: string): string | null {
  const folder = userWords(argv.slice(1), defaultApp)[0];
  return folder === undefined ? null : path.resolve(cwd, folder);
}

/** The words that are not switches, without the app's path under the default app. */
function userWords(args: readonly string[], defaultApp: boolean): string[] {
  const words: string[] = [];
  let appPathTaken = !defaultApp;
  let switches = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (switches && arg === '--') {
      switches = false;
    } else if (switches && !appPathTaken && (arg === '-r' || arg === '--require')) {
      i++; // the default app preloads the module named next
    } else if (switches && !appPathTaken && arg.startsWith('--app=')) {
      appPathTaken = true;
    } else if (switches && arg.length > 1 && arg.startsWith('-')) {
      // a switch for Chromium, Node or Electron; its value, if any, is after its `=`
    } else if (arg.trim() === '') {
      // Chromium trims each word; an empty one names nothing
    } else if (!appPathTaken) {
      appPathTaken = true;
    } else {
      words.push(arg);
    }
  }
  return words;
}
