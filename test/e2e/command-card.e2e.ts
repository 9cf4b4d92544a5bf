/**
 * Commands through the window: a denied command never runs, and Cancel during a long
 * allowed command ends the turn as cancelled with the process gone.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { eventsOfSessionWith } from './harness/session-logs.js';
import { useWorld } from './harness/e2e-world.js';
import { runCardLabel, visible } from './harness/gatehouse-page.js';
import { pidAlive } from '../../electron/core/process/pid-alive.js';
import { hostPidOf } from '../unit/electron/core/sandbox/host-pids.js';

const world = useWorld('command-card');

/**
 * The host pid of the confined `sleep SECONDS` whose pid inside its sandbox is in `pidFile`:
 * a confined command has its own PID namespace, so its `$$` is not the host's pid (it is
 * often 2, which on the host is always alive).
 */
async function hostSleepPid(pidFile: string, seconds: number): Promise<number> {
  await expect.poll(() => fs.readFile(pidFile, 'utf8').catch(() => ''), { timeout: 30_000 }).toMatch(/^\d+\n$/);
  const inner = Number((await fs.readFile(pidFile, 'utf8')).trim());
  const marker = `sleep\0${seconds}\0`;
  await expect.poll(() => hostPidOf(inner, marker), { timeout: 10_000 }).not.toBeNull();
  return (await hostPidOf(inner, marker))!;
}

async function turnEndReason(dataDir: string, userText: string): Promise<string | undefined> {
  const ended = (await eventsOfSessionWith(dataDir, userText)).filter((e) => e.type === 'turn_ended');
  const last = ended.at(-1);
  return last?.type === 'turn_ended' ? last.reason : undefined;
}

describe('a command card in the window', () => {
  test('shows the argv as tokens with the cwd, and Deny means it never ran', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('deny-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', 'echo ran > marker'] } }] },
      { text: 'Understood, not running it.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Run the marker script');
    const card = await ui.waitForCard(runCardLabel('sh'));
    const tokens = card.getByRole('listitem');
    await visible(tokens.filter({ hasText: 'echo ran > marker' }), 'the script as one argv token (a list item)');
    expect(await tokens.allTextContents()).toEqual(['sh', '-c', 'echo ran > marker']);
    await visible(card.getByText(/the workspace folder|^\//), 'the cwd (the workspace folder)');
    await world.shot('command-card');

    await ui.answer(card, 'Deny');
    await visible(ui.page.getByText('Understood, not running it.'), "the model's text after the denial");
    await expect.poll(() => turnEndReason(world.folders.dataDir, 'Run the marker script')).toBe('finished');
    await expect(fs.access(path.join(ws, 'marker'))).rejects.toThrow();
    expect(fake.pending()).toBe(0);
  });

  test('Cancel during a long allowed command ends the turn cancelled and the process is gone', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('cancel-ws');
    fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', 'echo $$ > pid; exec sleep 30'] } }] });
    await ui.openWorkspace(ws);
    await ui.send('Sleep for a while');
    const card = await ui.waitForCard(runCardLabel('sh'));
    await ui.answer(card, 'Allow once');

    const pid = await hostSleepPid(path.join(ws, 'pid'), 30);
    expect(pidAlive(pid)).toBe(true);
    await world.shot('command-running');

    await ui.page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect
      .poll(() => turnEndReason(world.folders.dataDir, 'Sleep for a while'), { timeout: 30_000 })
      .toBe('cancelled');
    await expect.poll(() => pidAlive(pid), { timeout: 15_000, message: `sleep (pid ${pid}) still alive` }).toBe(false);
    const send = ui.page.getByRole('button', { name: 'Send', exact: true });
    await ui.composer().fill('next');
    await expect.poll(() => send.isEnabled(), { timeout: 30_000, message: 'Send enabled after cancel' }).toBe(true);
    await ui.composer().fill('');
    expect(fake.pending()).toBe(0);
  });

  test('Esc in the composer cancels a long command too', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('escape-ws');
    fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', 'echo $$ > pid; exec sleep 31'] } }] });
    await ui.openWorkspace(ws);
    await ui.send('Sleep again');
    await ui.answer(await ui.waitForCard(runCardLabel('sh')), 'Allow once');
    const pid = await hostSleepPid(path.join(ws, 'pid'), 31);

    await ui.composer().focus();
    await ui.page.keyboard.press('Escape');
    await expect.poll(() => turnEndReason(world.folders.dataDir, 'Sleep again'), { timeout: 30_000 }).toBe('cancelled');
    await expect.poll(() => pidAlive(pid), { timeout: 15_000, message: `sleep (pid ${pid}) still alive` }).toBe(false);
    expect(fake.pending()).toBe(0);
  });
});
