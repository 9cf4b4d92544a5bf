/**
 * The web host's binding cost: one contract call (session.state of a 200-event session)
 * over the real server's WebSocket — frame check, Host.call, reply — against the floor of
 * the transport: a bare `ws` server on loopback that parses the frame and serialises the
 * same reply object (target <= 2x). Also the start of `npm run serve` to its printed URL,
 * and SIGTERM to exit.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { createCore } from '../../electron/core/core.js';
import { startWebServer } from '../../electron/web/server.js';
import { newToken } from '../../electron/web/token.js';
import { WIRE_PROTOCOL, WIRE_TOKEN_PROTOCOL } from '../../shared/wire.js';
import { measure, reportRatio, reportValue } from './measure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CALLS = 2000;

function roundTrip(ws: WebSocket, frame: string): Promise<void> {
  return new Promise((resolve) => {
    ws.once('message', () => resolve());
    ws.send(frame);
  });
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
}

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-web-')));
try {
  const dataDir = path.join(root, 'data');
  const workspace = path.join(root, 'ws');
  await fs.mkdir(workspace, { recursive: true });
  // A session with some history: 50 finished turns, written as the log would hold them.
  const first = await createCore({ dataDir, env: {}, home: root, cipher: null, durability: 'none' });
  const id = ((await first.host.call('sessions.open', { workspace })) as { ok: true; data: { id: string } }).data.id;
  await first.dispose();
  const lines = Array.from({ length: 50 }, (_, n) => [
    { type: 'user_message', messageId: `m${n}`, text: `Please make test ${n} pass.` },
    { type: 'turn_started', turnId: `t${n}`, messageId: `m${n}` },
    { type: 'assistant_text', turnId: `t${n}`, text: 'Looking at the failing test first. '.repeat(12) },
    { type: 'turn_ended', turnId: `t${n}`, reason: 'finished' },
  ])
    .flat()
    .map((e, i) => JSON.stringify({ seq: i + 1, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), ...e }));
  await fs.appendFile(path.join(dataDir, 'sessions', id, 'events.jsonl'), `${lines.join('\n')}\n`);
  const core = await createCore({ dataDir, env: {}, home: root, cipher: null, durability: 'none' });
  const token = newToken();
  const server = await startWebServer({ host: core.host, token, staticDir: root, port: 0 });
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, [WIRE_PROTOCOL, `${WIRE_TOKEN_PROTOCOL}${token}`], {
    headers: { Origin: `http://127.0.0.1:${server.port}` },
  });
  await opened(ws);
  const frame = JSON.stringify({ t: 'call', id: 1, name: 'session.state', payload: { id } });
  const reply = { t: 'reply', id: 1, reply: await core.host.call('session.state', { id }) };

  const bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  bare.on('connection', (socket) =>
    socket.on('message', (data) => {
      JSON.parse(String(data));
      socket.send(JSON.stringify(reply));
    }),
  );
  await new Promise((r) => bare.once('listening', r));
  const bareClient = new WebSocket(`ws://127.0.0.1:${(bare.address() as { port: number }).port}`);
  await opened(bareClient);

  const ours = await measure(() => roundTrip(ws, frame), CALLS, 200);
  const floor = await measure(() => roundTrip(bareClient, frame), CALLS, 200);
  console.log(`reply size: ${(JSON.stringify(reply).length / 1024).toFixed(1)} KiB`);
  reportRatio('session.state over the web host vs a bare ws echo of the same reply (p50)', ours.p50, floor.p50, 2);
  reportValue('session.state over the web host, p99', ours.p99, 20, 'ms');

  ws.close();
  bareClient.close();
  await new Promise((r) => bare.close(r));
  await server.close();
  await core.dispose();

  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/serve.ts', '--port', '0', '--data-dir', path.join(root, 'serve-data')],
    { cwd: ROOT, stdio: 'pipe' },
  );
  let out = '';
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      out += String(d);
      if (/http:\/\/\S+/.test(out)) resolve();
    }),
  );
  // Mostly tsx compiling the sources on the fly; it varies with the machine's load.
  reportValue('npm run serve: start to printed URL', performance.now() - started, 10_000, 'ms');
  const exited = new Promise<string>((r) => child.once('exit', (code, signal) => r(String(code ?? signal))));
  const stopping = performance.now();
  child.kill('SIGTERM');
  const code = await exited;
  reportValue(`SIGTERM to exit (exit ${code})`, performance.now() - stopping, 2000, 'ms');
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
