/**
 * The program a resident sandbox runs inside its view (resident-sandbox.ts): a tiny Node
 * script, run with the app's own node (`node -e`), that starts programs there on request
 * and streams their output back. A string, not a file: it needs no place of its own in
 * the view (nor unpacking from the app's asar archive), and it is the whole program.
 *
 * The wire, both ways on the server's standard streams:
 * - in, one JSON line per request: `{"id":n,"argv":[…],"cwd":"…","env":{…}}` starts a
 *   program (standard input empty); `{"kill":n}` kills program n (SIGKILL).
 * - out, frames: a byte (the FRAME kind), the run's id (uint32 BE), the payload's length
 *   (uint32 BE), the payload. `ready` once, when the server listens (id 0); then per run
 *   `stdout` and `stderr` chunks, and last either `exit` (JSON `{"code","signal"}`, after
 *   both streams ended) or `failed` (the program could not start: the message).
 * Standard input's end (the app hung up, or died) kills every program and ends the server.
 */

/** The kinds of frames the server writes. */
export const FRAME = { ready: 0, stdout: 1, stderr: 2, exit: 3, failed: 4 } as const;

/** The bytes before a frame's payload: its kind, the run's id, the payload's length. */
export const FRAME_HEADER_BYTES = 9;

/** Plain CommonJS for `node -e`; no dependency but Node's own. */
export const RESIDENT_SERVER_SOURCE = `'use strict';
const { spawn } = require('node:child_process');
const FRAME = ${JSON.stringify(FRAME)};
const runs = new Map();
function send(kind, id, payload) {
  const header = Buffer.alloc(${FRAME_HEADER_BYTES});
  header.writeUInt8(kind, 0);
  header.writeUInt32BE(id, 1);
  header.writeUInt32BE(payload.length, 5);
  process.stdout.write(Buffer.concat([header, payload]));
}
function start(req) {
  let child;
  let over = false;
  const fail = (err) => {
    if (over) return;
    over = true;
    runs.delete(req.id);
    send(FRAME.failed, req.id, Buffer.from(String(err && err.message ? err.message : err)));
  };
  try {
    child = spawn(req.argv[0], req.argv.slice(1), { cwd: req.cwd, env: req.env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    fail(err);
    return;
  }
  let spawned = false;
  runs.set(req.id, child);
  child.once('spawn', () => (spawned = true));
  // After the start, an error is only a kill that found nothing to kill: its close still comes.
  child.on('error', (err) => {
    if (!spawned) fail(err);
  });
  child.stdout.on('data', (chunk) => send(FRAME.stdout, req.id, chunk));
  child.stderr.on('data', (chunk) => send(FRAME.stderr, req.id, chunk));
  child.on('close', (code, signal) => {
    if (over) return;
    over = true;
    runs.delete(req.id);
    send(FRAME.exit, req.id, Buffer.from(JSON.stringify({ code, signal })));
  });
}
function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof req.kill === 'number') {
    const child = runs.get(req.kill);
    if (child) child.kill('SIGKILL');
  } else if (typeof req.id === 'number' && Array.isArray(req.argv) && req.argv.length > 0) {
    start(req);
  }
}
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  pending += text;
  for (let nl = pending.indexOf('\\n'); nl !== -1; nl = pending.indexOf('\\n')) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    handle(line);
  }
});
process.stdin.on('end', () => {
  for (const child of runs.values()) child.kill('SIGKILL');
  process.exit(0);
});
process.stdout.on('error', () => process.exit(0));
send(FRAME.ready, 0, Buffer.alloc(0));
`;
