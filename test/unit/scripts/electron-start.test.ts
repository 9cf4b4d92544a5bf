/**
 * `npm start` with a binary that exists but cannot start: a fake script stands in for
 * Electron. Failing as it starts, it is a reason to serve the app to the browser (said in
 * one line); a clean exit, a failure after the start window, or a Ctrl-C is the app's own
 * end, and npm start exits with its code.
 */
import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVING_INSTEAD } from '../../../scripts/electron-exit.js';
import { runElectron, startElectron } from '../../../scripts/electron-start.js';

const ROOT_REFUSED =
  '[4242:1206/101010.123:FATAL:electron_main_delegate.cc(322)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.';
/** Long enough that "at once" holds on a loaded machine; the tests never wait for it. */
const GENEROUS_WINDOW_MS = 60_000;

let dir: string | undefined;
afterEach(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A node_modules/electron whose binary is `script` (sh), writing its argv to argv.txt. */
async function fakeElectron(script: string): Promise<{ electronDir: string; binary: string; argvFile: string }> {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-fake-electron-'));
  const electronDir = path.join(dir, 'electron');
  const binary = path.join(electronDir, 'dist', 'electron');
  const argvFile = path.join(dir, 'argv.txt');
  await fs.mkdir(path.dirname(binary), { recursive: true });
  await fs.writeFile(path.join(electronDir, 'path.txt'), 'electron');
  await fs.writeFile(binary, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\n${script}\n`, { mode: 0o755 });
  return { electronDir, binary, argvFile };
}

/** A stream standing in for the terminal's stderr. */
function terminal(): { stream: Writable; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('npm start with a binary that fails as it starts', () => {
  it('says why in one line and does not run the app, so the web host serves it', async () => {
    const fake = await fakeElectron(`echo '${ROOT_REFUSED}' >&2; exit 1`);
    const err = terminal();
    let built = 0;
    const outcome = await startElectron(
      ['/work/proj'],
      { PATH: process.env.PATH, DISPLAY: ':0' },
      {
        electronDir: fake.electronDir,
        build: () => void built++,
        run: { startWindowMs: GENEROUS_WINDOW_MS, stderr: err.stream },
      },
    );
    expect(outcome).toEqual({
      ran: false,
      reason: `Electron will not run as root with its sandbox on (\`npm start -- --no-sandbox\` turns the sandbox off) — ${SERVING_INSTEAD}`,
    });
    expect(built).toBe(1);
    // Electron's own words still reach the terminal.
    expect(err.text()).toBe(`${ROOT_REFUSED}\n`);
  });

  it('passes --no-sandbox through when the person asks for it', async () => {
    const fake = await fakeElectron('exit 0');
    const outcome = await startElectron(
      ['/work/proj'],
      { PATH: process.env.PATH, DISPLAY: ':0' },
      {
        electronDir: fake.electronDir,
        build: () => undefined,
        noSandbox: true,
      },
    );
    expect(outcome).toEqual({ ran: true, code: 0 });
    expect(await fs.readFile(fake.argvFile, 'utf8')).toBe('--no-sandbox\n.\n/work/proj\n');
  });

  it('says why when Electron dies of a signal at once', async () => {
    const fake = await fakeElectron('kill -SEGV $$');
    const outcome = await runElectron(fake.binary, ['.'], {
      cwd: dir!,
      env: {},
      startWindowMs: GENEROUS_WINDOW_MS,
      stderr: terminal().stream,
    });
    expect(outcome).toMatchObject({ ran: false, reason: expect.stringContaining('stopped by SIGSEGV') });
  });

  it('says why when the binary cannot be run at all', async () => {
    const fake = await fakeElectron('exit 0');
    await fs.chmod(fake.binary, 0o644);
    const outcome = await runElectron(fake.binary, ['.'], { cwd: dir!, env: {}, stderr: terminal().stream });
    expect(outcome).toEqual({
      ran: false,
      reason: `The Electron binary could not be run: EACCES (not a program for this machine, or a damaged download) — ${SERVING_INSTEAD}`,
    });
  });
});

describe("npm start when the app ran and ended (no fallback: the app's own exit)", () => {
  it('a clean quit, even a quick one, exits with 0', async () => {
    const fake = await fakeElectron('exit 0');
    const run = { cwd: dir!, env: {}, startWindowMs: GENEROUS_WINDOW_MS, stderr: terminal().stream };
    expect(await runElectron(fake.binary, ['.'], run)).toEqual({ ran: true, code: 0 });
  });

  it('a failure after the start window exits with its code', async () => {
    const fake = await fakeElectron(`sleep 0.3; echo '${ROOT_REFUSED}' >&2; exit 3`);
    const run = { cwd: dir!, env: {}, startWindowMs: 50, stderr: terminal().stream };
    expect(await runElectron(fake.binary, ['.'], run)).toEqual({ ran: true, code: 3 });
  });

  it('Ctrl-C during start-up is passed on, and is not a failure to start', async () => {
    const fake = await fakeElectron('exec sleep 30');
    const signals = new EventEmitter();
    const run = { cwd: dir!, env: {}, startWindowMs: GENEROUS_WINDOW_MS, stderr: terminal().stream, signals };
    const outcome = runElectron(fake.binary, ['.'], run);
    // The script has written its argv once it runs; then the sleep is what gets the signal.
    await until(() =>
      fs.access(fake.argvFile).then(
        () => true,
        () => false,
      ),
    );
    signals.emit('SIGINT', 'SIGINT');
    expect(await outcome).toEqual({ ran: true, code: 1 });
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });
});

async function until(probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
