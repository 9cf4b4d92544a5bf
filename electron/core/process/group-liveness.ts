/**
 * Whether a process group still has a member that can run code. `kill(-pgid, 0)` alone
 * is not enough: it also counts zombies, and a zombie orphan stays one for as long as
 * its new parent does not reap it (this machine's init never does). On Linux the members
 * are read from /proc and zombies are left out; elsewhere the signal probe decides.
 */
import { promises as fs } from 'node:fs';
import { isDeadState, parseProcStat } from '../procfs/proc-stat.js';

export async function groupHasLiveMember(pgid: number): Promise<boolean> {
  if (!signalReachesGroup(pgid)) return false;
  if (process.platform !== 'linux') return true;
  return (await liveGroupMembers(pgid)).length > 0;
}

/** Pids of the group's members that are not zombies, read from /proc (Linux only). */
export async function liveGroupMembers(pgid: number): Promise<number[]> {
  const entries = await fs.readdir('/proc');
  const pids = entries.filter((name) => /^\d+$/.test(name)).map(Number);
  const members = await Promise.all(pids.map(async (pid) => ((await isLiveMember(pid, pgid)) ? pid : null)));
  return members.filter((pid): pid is number => pid !== null);
}

function signalReachesGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM means a member exists that we may not signal: it is still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isLiveMember(pid: number, pgid: number): Promise<boolean> {
  // Read asynchronously (unlike readProcStat): a group check walks all of /proc.
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null); // null: gone since readdir
  const stat = text === null ? null : parseProcStat(text);
  return stat !== null && stat.pgrp === pgid && !isDeadState(stat.state);
}
