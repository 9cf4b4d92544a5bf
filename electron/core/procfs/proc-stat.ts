/**
 * /proc/<pid>/stat (Linux), read and parsed: a process's state, parent, group and
 * session. It sits below both the process room (liveness, a group's members) and the
 * sandbox (a PID namespace's members), so neither imports the other for it.
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
