/**
 * The host's processes, read from /proc, for tests that count what a sandbox runs: every
 * process of its group (the wrapper's pid is the group's id; inside the sandbox nothing
 * makes a group of its own), and the bubblewrap processes this test's process started.
 * Zombies count as gone (DESIGN: zombies linger here).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isDeadState, readProcStat } from '../../../../../electron/core/procfs/proc-stat.js';

interface Seen {
  pid: number;
  comm: string;
  ppid: number;
  pgrp: number;
}

function live(): Seen[] {
  const seen: Seen[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readProcStat(pid);
    if (!stat || isDeadState(stat.state)) continue;
    const comm = commOf(pid);
    if (comm !== null) seen.push({ pid, comm, ppid: stat.ppid, pgrp: stat.pgrp });
  }
  return seen;
}

function commOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The live processes of a group, by name (`rg`, `bwrap`, `sh`, `sleep`). */
export function groupMembers(pgrp: number): string[] {
  return groupPids(pgrp).map((p) => p.comm);
}

/** The live processes of a group, with their host pids. */
export function groupPids(pgrp: number): { pid: number; comm: string }[] {
  return live()
    .filter((p) => p.pgrp === pgrp)
    .map(({ pid, comm }) => ({ pid, comm }));
}

/** The live bubblewrap wrappers this process started (spares waiting, greps running). */
export function ownBwraps(): number[] {
  return live()
    .filter((p) => p.ppid === process.pid && p.comm === 'bwrap')
    .map((p) => p.pid);
}

/** Waits, polling, until `check` holds, or the time is up; whether it held. */
export async function eventually(check: () => boolean, withinMs = 10_000): Promise<boolean> {
  for (const until = Date.now() + withinMs; Date.now() < until;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
