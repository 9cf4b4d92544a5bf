/**
 * A copy place (SPEC §15), for a folder that is not a repository: `cp -a --reflink=auto`,
 * which shares the blocks where the filesystem can (btrfs, XFS, APFS) and copies them where
 * it cannot. `-a` copies a link as a link, never what it points at, so nothing outside the
 * folder comes in. Run as the app (no shell), through the process room.
 */
import { runToEnd } from '../process/command-run.js';
import { PlaceError } from './place-error.js';

const COPY_TIMEOUT_MS = 60 * 60_000;

export async function copyFolder(origin: string, dir: string): Promise<void> {
  const outcome = await runToEnd({
    argv: ['cp', '-a', '--reflink=auto', '--', `${origin}/.`, dir],
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    timeoutMs: COPY_TIMEOUT_MS,
  });
  if (outcome.exitCode !== 0) {
    throw new PlaceError(`the folder could not be copied: ${outcome.stderr.text.trim().slice(-500) || 'cp failed'}`);
  }
}
