/**
 * The bridge needs socat inside the sandbox (bridge.ts). Found on the app's PATH, as
 * bwrap is; when it is missing, a command with network cannot be confined, and this says
 * what to install.
 */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';

export const INSTALL_SOCAT =
  'socat is not installed, so a confined command cannot reach the network through the proxy. Install socat (Debian and Ubuntu: sudo apt install socat; Fedora: sudo dnf install socat; Arch: sudo pacman -S socat), then restart Gatehouse.';

/**
 * The first executable socat on PATH (absolute entries only), or null. The same lookup as
 * bwrap-sandbox.ts's findOnPath, kept apart so the bridge does not import the sandbox
 * that will import it.
 */
export async function findSocat(pathVar: string | undefined): Promise<string | null> {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, 'socat');
    const usable = await fs.access(candidate, constants.X_OK).then(
      async () => (await fs.stat(candidate)).isFile(),
      () => false,
    );
    if (usable) return candidate;
  }
  return null;
}
