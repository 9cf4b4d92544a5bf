/**
 * The terminal panel's shell, through the host in Node with a real pty: it runs in the
 * session's workspace, echoes what is typed, follows resizes, dies with everything it
 * started when closed, and never carries the app's keys.
 */
import { promises as fs } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../../../../electron/core/process/pid-alive.js';
import { TERMINAL_FLUSH_BYTES, TERMINAL_WRITE_MAX_CHARS } from '../../../../../shared/limits.js';
import { API_KEY, providerCases, startHarness, type Harness } from '../core-harness.js';
import { openTerminal, waitUntil } from './terminal-driver.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// Typed as `$((6*7))` so the echo of the typed line never matches the answer the shell prints.
const MARK = (name: string) => `echo ${name}-$((6*7))`;

describe('a session terminal through the host', () => {
  it('runs a shell in the workspace that answers what is typed', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    await t.type(`${MARK('hello')}; pwd`);
    await t.waitFor(/hello-42/);
    await t.waitFor(new RegExp(`\\n${h.workspace}\\r?\\n`));
  });

  it('gives a session the same live shell when it is opened again', async () => {
    h = await startHarness();
    const id = await h.open();
    const [a, b] = await Promise.all([h.call('terminal.open', { id }), h.call('terminal.open', { id })]);
    expect(b.terminalId).toBe(a.terminalId);
    expect((await h.call('terminal.open', { id })).terminalId).toBe(a.terminalId);
    const elsewhere = await h.call('sessions.open', { workspace: h.outside });
    const other = await h.call('terminal.open', { id: elsewhere.id });
    expect(other.terminalId).not.toBe(a.terminalId);
  });

  it('follows a resize (stty size shows the new rows and columns)', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    expect(await h.call('terminal.resize', { terminalId: t.terminalId, cols: 123, rows: 41 })).toEqual({
      cols: 123,
      rows: 41,
    });
    await t.type('echo size=$(stty size)');
    await t.waitFor(/size=41 123/);
  });

  it('kills the shell and what it started on close, then forgets the id', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    await t.type(`echo shell=$$; sleep 301 & echo bg=$!`);
    const shell = Number((await t.waitFor(/shell=(\d+)/))[1]);
    const bg = Number((await t.waitFor(/bg=(\d+)/))[1]);
    // A foreground program that runs when the tab closes.
    await t.type(`sh -c 'echo fg=$$; exec sleep 302'`);
    const fg = Number((await t.waitFor(/fg=(\d+)/))[1]);
    expect([shell, bg, fg].map(pidAlive)).toEqual([true, true, true]);

    expect(await h.call('terminal.close', { terminalId: t.terminalId })).toEqual({ closed: true });
    expect([shell, bg, fg].map(pidAlive)).toEqual([false, false, false]);
    const exit = h.pushes.find((p) => p.name === 'terminal.exit' && p.payload.terminalId === t.terminalId);
    expect(exit).toBeDefined();
    const again = await h.raw('terminal.write', { terminalId: t.terminalId, data: 'ls\r' });
    expect(again).toEqual({ ok: false, error: `no open terminal with id ${t.terminalId}` });
  });

  it('kills every shell when the core closes (quit)', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    await t.type('echo shell=$$');
    const shell = Number((await t.waitFor(/shell=(\d+)/))[1]);
    await h.restart();
    expect(pidAlive(shell)).toBe(false);
  });

  it('pushes terminal.exit with the code when the shell ends by itself, and forgets it', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    await t.type('exit 3');
    const exit = await waitUntil(
      () => h!.pushes.find((p) => p.name === 'terminal.exit' && p.payload.terminalId === t.terminalId),
      10_000,
      'terminal.exit',
    );
    expect(exit.payload).toEqual({ terminalId: t.terminalId, exitCode: 3, signal: null });
    expect((await h.raw('terminal.resize', { terminalId: t.terminalId, cols: 80, rows: 24 })).ok).toBe(false);
    // The session can open a fresh one.
    const next = await h.call('terminal.open', { id: (await h.call('sessions.list', {}))[0]!.id });
    expect(next.terminalId).not.toBe(t.terminalId);
  });

  it('carries no provider key and no saved key in its environment, under any name', async () => {
    const openaiCompatible = providerCases.find((c) => c.name === 'openai-compatible');
    const anthropic = providerCases.find((c) => c.name === 'anthropic')!;
    h = await startHarness(anthropic);
    expect(h.env.ANTHROPIC_API_KEY).toBe(API_KEY);
    const saved = 'saved-key-9c1e77f0b2d44a18';
    await h.call('settings.set', { key: { provider: 'openai', value: saved } });
    // The same values under innocent names: commandEnv drops a variable by its value too.
    h.env.INNOCENT_LOOKING = API_KEY;
    h.env.ALSO_INNOCENT = `prefix-${saved}`;
    h.env.VISIBLE_MARKER = 'present';
    const t = await openTerminal(h, await h.open());
    await t.type(`env; ${MARK('done')}`);
    await t.waitFor(/done-42/);
    const out = t.output();
    expect(out).toContain('VISIBLE_MARKER=present');
    expect(out).toContain('TERM=xterm-256color');
    expect(out).not.toContain(API_KEY);
    expect(out).not.toContain(saved);
    expect(out).not.toMatch(/ANTHROPIC_API_KEY|INNOCENT_LOOKING|ALSO_INNOCENT/);
    expect(openaiCompatible).toBeDefined();
  });

  it('coalesces output: thousands of lines arrive in few pushes, none above the flush size', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    await t.type('for i in $(seq 1 5000); do echo line$i; done');
    await t.waitFor(/line5000\r?\n/);
    const pushes = t.outputPushes();
    expect(pushes.length).toBeLessThan(100);
    for (const p of pushes) expect(Buffer.byteLength(p.payload.data)).toBeLessThanOrEqual(TERMINAL_FLUSH_BYTES);
  });

  it('gathers many small writes into few pushes', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    await t.type(MARK('ready'));
    await t.waitFor(/ready-42/);
    const before = t.outputPushes().length;
    const keys = 'echo typed-one-key-at-a-time-$((40+2))\r';
    await Promise.all([...keys].map((key) => h!.call('terminal.write', { terminalId: t.terminalId, data: key })));
    await t.waitFor(/typed-one-key-at-a-time-42/);
    expect(t.outputPushes().length - before).toBeLessThan(keys.length / 2);
  });
});

describe('terminal requests that cannot be done', () => {
  it.each([
    [
      'an unknown terminal id for write',
      'terminal.write',
      { terminalId: 'nope', data: 'x' },
      'no open terminal with id nope',
    ],
    [
      'an unknown terminal id for resize',
      'terminal.resize',
      { terminalId: 'nope', cols: 80, rows: 24 },
      'no open terminal',
    ],
    ['an unknown terminal id for close', 'terminal.close', { terminalId: 'nope' }, 'no open terminal'],
    ['zero columns', 'terminal.resize', { terminalId: 'nope', cols: 0, rows: 24 }, 'cols'],
    ['too many rows', 'terminal.resize', { terminalId: 'nope', cols: 80, rows: 1001 }, 'rows'],
    ['a fractional size', 'terminal.resize', { terminalId: 'nope', cols: 80.5, rows: 24 }, 'cols'],
    ['data that is not text', 'terminal.write', { terminalId: 'nope', data: 42 }, 'data'],
    ['an unknown field', 'terminal.open', { id: 'x', shell: '/bin/evil' }, 'shell'],
  ])('refuses %s with a clear error', async (_what, name, payload, message) => {
    h = await startHarness();
    const reply = await h.raw(name, payload);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toContain(message);
  });

  it('refuses a write above the size cap and the shell sees none of it', async () => {
    h = await startHarness();
    const t = await openTerminal(h, await h.open());
    const reply = await h.raw('terminal.write', {
      terminalId: t.terminalId,
      data: `echo ${'z'.repeat(TERMINAL_WRITE_MAX_CHARS)}\r`,
    });
    expect(reply).toEqual({ ok: false, error: expect.stringContaining('longer than') });
    await t.type(MARK('after'));
    await t.waitFor(/after-42/);
    expect(t.output()).not.toContain('zzzz');
  });

  it('refuses a terminal in a workspace folder that is gone, saying so', async () => {
    h = await startHarness();
    const id = await h.open();
    await fs.rm(h.workspace, { recursive: true });
    const reply = await h.raw('terminal.open', { id });
    expect(reply).toEqual({
      ok: false,
      error: expect.stringContaining(`the workspace folder ${h.workspace} is missing`),
    });
  });

  it('refuses a terminal for an unknown session and starts no shell', async () => {
    h = await startHarness();
    const reply = await h.raw('terminal.open', { id: 'no-such-session' });
    expect(reply.ok).toBe(false);
    expect(h.pushes.filter((p) => p.name.startsWith('terminal.'))).toEqual([]);
  });
});
