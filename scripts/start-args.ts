/** `npm start -- [FOLDER] [--data-dir DIR] [--no-sandbox]`, parsed strictly; FOLDER is made absolute. */
import path from 'node:path';

export const START_USAGE = 'usage: npm start -- [FOLDER] [--data-dir DIR] [--no-sandbox]';

export interface StartArgs {
  folder?: string;
  dataDir?: string;
  /** Passed to Electron: Chromium's sandbox off (root, or a sandbox helper that is not set up). */
  noSandbox?: boolean;
}

/** `cwd` is the folder the user ran npm from (INIT_CWD), not the package root npm moves to. */
export function parseStartArgs(argv: readonly string[], cwd: string): StartArgs {
  const args: StartArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--data-dir') {
      const value = argv[++i];
      if (!value || value.startsWith('-')) throw new Error(`--data-dir needs a folder\n${START_USAGE}`);
      args.dataDir = path.resolve(cwd, value);
    } else if (arg === '--no-sandbox') {
      args.noSandbox = true;
    } else if (arg.startsWith('-') || args.folder !== undefined) {
      throw new Error(`unexpected argument ${JSON.stringify(arg)}\n${START_USAGE}`);
    } else {
      args.folder = path.resolve(cwd, arg);
    }
  }
  return args;
}
