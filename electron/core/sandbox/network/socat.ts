/**
 * The bridge needs socat inside the sandbox (bridge.ts). Found on the app's PATH, as
 * bwrap is; when it is missing, a command with network cannot be confined, and this says
 * what to install.
 */
import { findOnPath } from '../program-path.js';

export const INSTALL_SOCAT =
  'socat is not installed, so a confined command cannot reach the network through the proxy. Install socat (Debian and Ubuntu: sudo apt install socat; Fedora: sudo dnf install socat; Arch: sudo pacman -S socat), then restart Gatehouse.';

/** The first executable socat on PATH (absolute entries only), or null. */
export function findSocat(pathVar: string | undefined): Promise<string | null> {
  return findOnPath('socat', pathVar);
}
