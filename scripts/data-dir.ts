/** The data folder for `npm start` and `npm run serve`: --data-dir, else GATEHOUSE_HOME, else Electron's userData. */
import os from 'node:os';
import path from 'node:path';

export function dataDir(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag) return path.resolve(flag);
  if (env.GATEHOUSE_HOME) return path.resolve(env.GATEHOUSE_HOME);
  // Where Electron's userData lives on Linux for an app named Gatehouse.
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'Gatehouse');
}
