/**
 * Ending a shell and everything it started. A pty's shell leads its own session (node-pty
 * calls setsid), and with job control every pipeline gets its own process group, so
 * signalling the shell's group alone would miss a `sleep 100 &`. On Linux every live
 * member of the session is found in /proc; elsewhere the shell's group is what we reach.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pidAlive } from '../process/pid-alive.js';

/** Live (not zombie) processes in the session led by `leader`, the leader included. */
export function sessionMembers(leader: number): number[] {
  if (process.platform !== 'linux') return pidAlive(leader) ? [leader] : [];
  const members: number[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = safeRead(`/proc/${name}/stat`);
    // The command name in parentheses may hold spaces and parentheses: split after the last ')'.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields: state ppid pgrp session ...
    if (fields && fields[0] !== 'Z' && Number(fields[3]) === leader) members.push(Number(name));
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

function safeRead(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
