/**
 * Whether a process id names a live process, and the /proc reading behind it. Signal 0
 * alone is not enough: it also reaches a zombie, which has exited and only waits to be
 * reaped, and where nothing reaps orphans (a container without an init) it waits forever.
 * A web host killed with SIGKILL there would hold its data-folder lock as a zombie. So on
 * Linux the state in /proc/<pid>/stat decides; elsewhere the signal probe does.
 */
import { readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat the app reads. */
export interface ProcStat {
  /** R, S, D, T, Z (zombie), X (dead), …; see proc(5). */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
}

export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (!signalReaches(pid)) return false;
  if (process.platform !== 'linux') return true;
  // No stat to read (gone since the probe, or /proc hidden from us): the probe stands.
  const stat = readProcStat(pid);
  return stat === null || !isDeadState(stat.state);
}

/** Z: exited, waiting for its parent to reap it; X: being torn down. Neither runs code again. */
export function isDeadState(state: string): boolean {
  return state === 'Z' || state === 'X';
}

/** /proc/<pid>/stat, parsed; null when it cannot be read (gone, not Linux). */
export function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** One /proc/<pid>/stat line: `pid (comm) state ppid pgrp session …`. */
export function parseProcStat(text: string): ProcStat | null {
  // The command name may hold spaces and parentheses; the fields after its last ")" do not.
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const [state, ppid, pgrp, session] = text.slice(close + 2).split(' ');
  if (!state || ppid === undefined || pgrp === undefined || session === undefined) return null;
  return { state, ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) };
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
