/**
 * A confined command sees its own PID namespace: the pid it prints ($$, $!) is not the
 * one the host knows. These find the host's pid from /proc: NSpid in /proc/<pid>/status
 * lists a process's pid in each namespace, outermost first.
 */
import { promises as fs } from 'node:fs';
import { readProcStat } from '../../../../../electron/core/procfs/proc-stat.js';

/** Host pids of live processes whose command line contains `marker` (NUL between arguments). */
export async function pidsWithCommandLine(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await allPids()) {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(pid);
  }
  return found;
}

/**
 * The host pid of the process that is `innerPid` inside a sandbox and whose command line
 * contains `marker`; null when there is none.
 */
export async function hostPidOf(innerPid: number, marker: string): Promise<number | null> {
  for (const pid of await pidsWithCommandLine(marker)) {
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const nspid = /^NSpid:\s*(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
    if (nspid.length > 1 && nspid.at(-1) === innerPid) return pid;
  }
  return null;
}

/** The host's process group of that process. */
export async function hostGroupOf(innerPid: number, marker: string): Promise<number | null> {
  const pid = await hostPidOf(innerPid, marker);
  return pid === null ? null : (readProcStat(pid)?.pgrp ?? null);
}

async function allPids(): Promise<number[]> {
  return (await fs.readdir('/proc')).filter((n) => /^\d+$/.test(n)).map(Number);
}
