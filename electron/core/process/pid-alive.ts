/**
 * Whether a process id names a live process. Signal 0 checks without sending anything;
 * EPERM means it exists under another user, so it counts as alive.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
