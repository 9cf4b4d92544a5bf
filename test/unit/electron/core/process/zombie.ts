/**
 * A real zombie for tests: a node process starts `sleep`, prints its pid and stops itself
 * (SIGSTOP), so when the sleep exits nobody reaps it. Continuing the parent lets it reap
 * the zombie and exit, so a test leaves nothing behind, even where pid 1 never reaps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readProcStat } from '../../../../../electron/core/procfs/proc-stat.js';

const PARENT = `
const child = require('node:child_process').spawn('sleep', ['0.3'], { stdio: 'ignore' });
child.on('exit', () => process.exit(0));
process.stdout.write(child.pid + '\\n');
process.kill(process.pid, 'SIGSTOP');
`;

export interface Zombie {
  pid: number;
  /** The stopped parent: alive (state T), though it runs nothing. */
  parent: ChildProcess;
  /** Continues the parent, which reaps the zombie and exits. */
  release(): Promise<void>;
}

export async function makeZombie(): Promise<Zombie> {
  const parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(parent, 'exit');
  const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  await until(() => readProcStat(pid)?.state === 'Z', `pid ${pid} to become a zombie`);
  const release = async () => {
    parent.kill('SIGCONT');
    const timer = setTimeout(() => parent.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { pid, parent, release };
}

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
