/**
 * `npm run serve` as the user runs it: one URL with the token in its fragment, a live turn over the
 * socket, then SIGTERM: the process exits 0 and the session log is whole, so the next
 * start finds the turn and marks it interrupted.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCore } from '../../../../electron/core/core.js';
import { SETTINGS_FILE } from '../../../../electron/core/settings/app-settings.js';
import { createHold, startFakeModel, type FakeModel } from '../../../fake-model/server.js';
import { exchange, tokenProtocols } from './web-harness.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

describe('npm run serve', () => {
  it('prints one URL with the token in its fragment, and on SIGTERM exits 0 leaving the log whole', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-serve-')));
    cleanup.push(() => fs.rm(root, { recursive: true, force: true }));
    const fake: FakeModel = await startFakeModel();
    cleanup.push(() => fake.close());
    const [dataDir, home, workspace] = ['data', 'home', 'ws'].map((d) => path.join(root, d)) as [
      string,
      string,
      string,
    ];
    await Promise.all([dataDir, home, workspace].map((d) => fs.mkdir(d)));
    const model = { provider: 'openai-compatible', modelId: 'fake', baseURL: fake.openaiBaseURL };
    await fs.writeFile(path.join(dataDir, SETTINGS_FILE), JSON.stringify({ model }));

    const child = spawn('npm', ['run', 'serve', '--', '--port', '0', '--data-dir', dataDir, '--open', workspace], {
      cwd: REPO,
      env: { ...process.env, HOME: home, GATEHOUSE_HOME: '' },
      stdio: 'pipe',
    });
    cleanup.push(async () => void child.kill('SIGKILL'));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 60 s:\n${output}`)), 60_000);
      child.stdout.on('data', () => {
        const match = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}\S*/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[0]));
        }
      });
    });
    expect(output.match(/http:\/\//g)).toHaveLength(1);
    expect(output).toContain(`opened a session on ${workspace}`);
    // The page shows the session --open made: the printed URL names it.
    const shown = new URLSearchParams(url.hash.slice(1)).get('session');

    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const ws = new WebSocket(`ws://${url.host}/ws`, tokenProtocols(token), {
      headers: { Origin: `http://${url.host}` },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const list = (await exchange(ws, JSON.stringify({ t: 'call', id: 1, name: 'sessions.list', payload: {} }))) as {
      reply: { ok: true; data: { id: string }[] };
    };
    const id = list.reply.data[0]!.id;
    expect(shown).toBe(id);
    const hold = createHold();
    fake.enqueue({ text: 'still working', hold });
    const sent = await exchange(
      ws,
      JSON.stringify({ t: 'call', id: 2, name: 'session.send', payload: { id, text: 'go' } }),
    );
    expect(sent).toMatchObject({ reply: { ok: true, data: { status: 'started' } } });
    await hold.reached;

    const wsClosed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await wsClosed).toBe(1001);
    expect(output).toContain('SIGTERM, shutting down');
    await expect(fs.access(path.join(dataDir, 'web-host.lock'))).rejects.toThrow();

    const lines = (await fs.readFile(path.join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    const events = lines.slice(0, -1).map((l) => JSON.parse(l) as { seq: number; type: string });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['user_message', 'turn_started']));

    const core = await createCore({ dataDir, env: { PATH: process.env.PATH }, home, cipher: null, durability: 'none' });
    try {
      expect(core.unreadable).toEqual([]);
      const state = await core.host.call('session.state', { id });
      expect(state).toMatchObject({ ok: true, data: { summary: { status: 'interrupted' } } });
    } finally {
      await core.dispose();
    }
  }, 90_000);
});

describe('a signal the instant the URL is printed', () => {
  it('still shuts down cleanly (SIGINT, exit 0)', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-serve-')));
    cleanup.push(() => fs.rm(root, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/serve.ts', '--port', '0', '--data-dir', path.join(root, 'data')],
      { cwd: REPO, env: { ...process.env, HOME: root }, stdio: 'pipe' },
    );
    cleanup.push(async () => void child.kill('SIGKILL'));
    let output = '';
    const exited = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => resolve(String(code ?? signal))),
    );
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      output += s;
      if (output.includes('http://')) child.kill('SIGINT');
    });
    expect(await exited).toBe('0');
    expect(output).toContain('SIGINT, shutting down');
  }, 90_000);
});
