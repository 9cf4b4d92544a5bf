/**
 * Ending a shell and everything it started. A pty's shell leads its own session (node-pty
 * calls setsid), and with job control every pipeline gets its own process group, so
 * signalling the shell's group alone would miss a `sleep 100 &`. On Linux every live
 * member of the session is found in /proc; elsewhere the shell's group is what we reach.
 */
import { readdirSync } from 'node:fs';
import { pidAlive } from '../process/pid-alive.js';
import { isDeadState, readProcStat } from '../procfs/proc-stat.js';

/** Live (not zombie) processes in the session led by `leader`, the leader included. */
export function sessionMembers(leader: number): number[] {
  if (process.platform !== 'linux') return pidAlive(leader) ? [leader] : [];
  const members: number[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat && !isDeadState(stat.state) && stat.session === leader) members.push(Number(name));
  }
  return members;
}

export function signalSession(leader: number, signal: NodeJS.Signals): void {
  for (const pid of new Set([-leader, leader, ...sessionMembers(leader)])) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone: that is the goal.
    }
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
