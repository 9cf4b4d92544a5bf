/**
 * An "agent" that leaves a detached grandchild behind and never exits by itself: what
 * stop() must end whole. Its argument is a token the test finds processes by.
 */
import { spawn } from 'node:child_process';

const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', process.argv[2]], {
  detached: true,
  stdio: 'ignore',
});
child.unref();
process.stdout.write(`started ${child.pid}\n`);
setInterval(() => {}, 1000);
