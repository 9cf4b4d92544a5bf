/**
 * Where a user's own stdio MCP server runs when its config names no `cwd` (SPEC §10): a
 * folder of its own, `<data folder>/mcp-cwd/<server>`, made 0700 and empty.
 *
 * Why not the workspace: launchers run code from their working folder (`npx -y pkg` runs
 * a planted `./node_modules/.bin/pkg`, `python3 -m mod` a planted `./mod.py`), and a
 * user's server starts with no card, unconfined, so a checkout could run as the person.
 * Why not the data folder itself: it holds sessions, settings and keys, which a server's
 * launcher would then search (and a server could write beside). Why not the home folder
 * or /tmp: the home folder holds whatever the person left there, and /tmp is shared with
 * every other user. Why one per server: what one server writes into its folder never
 * becomes code another one's launcher finds. The data folder is the person's alone, and
 * neither the agent's tools nor a confined command reach it without a card.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE } from '../files/private-files.js';

/** The folder under the data folder that holds one folder per user server. */
export const SERVER_FOLDERS = 'mcp-cwd';

/** A server's own folder. Server names are checked ([A-Za-z0-9_-]), so one is always one path segment. */
export function serverFolder(dataDir: string, server: string): string {
  return path.join(dataDir, SERVER_FOLDERS, server);
}

/**
 * Makes the folder (0700) if it is not there, and tightens one that is. Refuses anything
 * but a real folder at that path: a link there could point the server anywhere.
 */
export async function makeServerFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stat = await fs.lstat(folder);
  if (!stat.isDirectory()) throw new Error(`its folder ${folder} is not a folder (a link, or a file)`);
  if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) await fs.chmod(folder, PRIVATE_DIR_MODE);
}
