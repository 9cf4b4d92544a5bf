/**
 * Signals every process inside a sandbox's PID namespace, found from outside through
 * /proc (Linux). The wrapper (bwrap) is left alone: its death ends the whole sandbox at
 * once, which is what SIGKILL is for, not SIGTERM. The namespace's init (bwrap as PID 1)
 * takes from an outer namespace only signals it handles, so a SIGTERM reaches the
 * command and its descendants, setsid or not, and nothing else.
 */
import { promises as fs } from 'node:fs';
import { parseProcStat } from '../procfs/proc-stat.js';

/** Returns how many processes were signalled (none while the sandbox is still starting). */
export async function signalNamespaceOf(wrapperPid: number, signal: NodeJS.Signals): Promise<number> {
  const pids = await listPids();
  const ours = await pidNamespace('self');
  let inner: string | null = null;
  let init: number | null = null;
  for (const pid of pids) {
    if ((await parentOf(pid)) !== wrapperPid) continue;
    const ns = await pidNamespace(String(pid));
    if (ns !== null && ns !== ours) [inner, init] = [ns, pid];
  }
  if (inner === null) return 0;
  const sent = await Promise.all(
    pids.map(async (pid) => {
      if (pid === wrapperPid || (await pidNamespace(String(pid))) !== inner) return 0;
      try {
        process.kill(pid, signal);
        return pid === init ? 0 : 1; // the init ignores it; only the command counts
      } catch {
        return 0; // gone meanwhile
      }
    }),
  );
  return sent.reduce<number>((a, b) => a + b, 0);
}

async function listPids(): Promise<number[]> {
  const entries = await fs.readdir('/proc').catch(() => [] as string[]);
  return entries.filter((name) => /^\d+$/.test(name)).map(Number);
}

async function parentOf(pid: number): Promise<number | null> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return text === null ? null : (parseProcStat(text)?.ppid ?? null);
}

async function pidNamespace(pid: string): Promise<string | null> {
  return fs.readlink(`/proc/${pid}/ns/pid`).catch(() => null);
}
