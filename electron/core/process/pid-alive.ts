/**
 * Whether a process id names a live process. Signal 0 alone is not enough: it also
 * reaches a zombie, which has exited and only waits to be reaped, and where nothing reaps
 * orphans (a container without an init) it waits forever. A web host killed with SIGKILL
 * there would hold its data-folder lock as a zombie. So on Linux the state in
 * /proc/<pid>/stat decides (procfs/proc-stat.ts); elsewhere the signal probe does.
 */
import { isDeadState, readProcStat } from '../procfs/proc-stat.js';

export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (!signalReaches(pid)) return false;
  if (process.platform !== 'linux') return true;
  // No stat to read (gone since the probe, or /proc hidden from us): the probe stands.
  const stat = readProcStat(pid);
  return stat === null || !isDeadState(stat.state);
}

/** EPERM means the process exists under another user: it is there, so it counts. */
function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
