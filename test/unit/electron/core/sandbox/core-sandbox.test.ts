/**
 * The sandbox through the whole core: Settings says whether it runs here and what to
 * install; where it cannot run every command card says unconfined and why, and the
 * setting "Refuse commands that cannot be confined" turns them into plain refusals.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeSandbox } from '../../../../../shared/cards.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('with bubblewrap here', () => {
  it('Settings says commands are confined, and a command card says what it can reach', async () => {
    h = await startHarness();
    expect(await h.call('settings.get', {})).toMatchObject({
      sandbox: { available: true },
      refuseUnconfined: false,
      home: h.home,
    });
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['touch', 'made'], network: true } }] });
    h.fake.enqueue({ text: 'done' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    if (card.body.kind !== 'command') throw new Error('expected a command card');
    expect(card.body).toMatchObject({ network: true, sandbox: { confined: true, network: true } });
    expect(card.grant).toEqual({ kind: 'command', argv: ['touch', 'made'], cwd: h.workspace, network: true });
    expect(describeSandbox(card.body, h.home)).toMatchObject({ warnings: ['asks for network (any domain)'] });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    expect(await h.event(id, 'tool_result')).toMatchObject({ ok: true });
    await fs.access(path.join(h.workspace, 'made'));
  });
});

describe('a Stop hook', () => {
  it('runs confined like any command: its card says so, and it cannot write outside the workspace', async () => {
    h = await startHarness();
    // Outside /tmp, which a confined command sees as a private folder of its own.
    const outside = `/var/tmp/gatehouse-hook-test-${process.pid}.txt`;
    await fs.mkdir(path.join(h.workspace, '.gatehouse'), { recursive: true });
    await fs.writeFile(
      path.join(h.workspace, '.gatehouse/settings.json'),
      JSON.stringify({ hooks: { stop: [['sh', '-c', `echo x > ${outside}`]] } }),
    );
    h.fake.enqueue({ toolCalls: [{ name: 'finish', input: { summary: 'done' } }] }, { text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    expect(card.body).toMatchObject({
      kind: 'command',
      sandbox: {
        confined: true,
        network: false,
        readOnly: expect.arrayContaining([path.join(h.workspace, '.gatehouse'), path.join(h.workspace, '.claude')]),
      },
    });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const hook = await h.event(id, 'hook_run');
    expect(hook).toMatchObject({ ok: false });
    expect(hook.output).toMatch(/^blocked by the sandbox: write outside the workspace/);
    await expect(fs.access(outside)).rejects.toThrow();
  });
});

describe('where bubblewrap is missing', () => {
  const missing = (root: string) =>
    new BwrapSandbox({ dataDir: path.join(root, 'data'), home: path.join(root, 'home'), env: {}, bwrapPath: null });

  it('Settings says why and what to install; every command card says unconfined; the setting refuses them', async () => {
    h = await startHarness(undefined, { sandboxFor: missing });
    const view = await h.call('settings.get', {});
    expect(view.sandbox).toEqual({
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      fix: expect.stringContaining('sudo apt install bubblewrap'),
    });

    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['touch', 'first'] } }] });
    h.fake.enqueue({ text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    if (card.body.kind !== 'command') throw new Error('expected a command card');
    expect(card.body.sandbox).toEqual({ confined: false, reason: 'bubblewrap (bwrap) is not installed' });
    expect(describeSandbox(card.body).line).toBe('Unconfined: bubblewrap (bwrap) is not installed');
    expect(card.grant).toMatchObject({ unconfined: true });
    expect(card.scope).toContain('(unconfined)');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');

    expect(await h.call('settings.set', { refuseUnconfined: true })).toMatchObject({ refuseUnconfined: true });
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['touch', 'second'] } }] });
    h.fake.enqueue({ text: 'ok' });
    await h.call('session.send', { id, text: 'again' });
    const refused = await h.event(id, 'tool_result', (e) => JSON.stringify(e).includes('refused: '));
    expect(JSON.stringify(refused)).toContain(
      'refused: this command cannot be confined here (bubblewrap (bwrap) is not installed), and Gatehouse is set to refuse commands that cannot be confined',
    );
    await h.event(id, 'turn_ended', (e) => e.seq > refused.seq);
    expect((await h.events(id)).filter((e) => e.type === 'card')).toHaveLength(1);
    await expect(fs.access(path.join(h.workspace, 'second'))).rejects.toThrow();

    // The setting is kept across a restart.
    await h.restart();
    expect(await h.call('settings.get', {})).toMatchObject({ refuseUnconfined: true });
  });

  it('tells the model its commands cannot be confined here, and why; with bubblewrap it says they run in a sandbox', async () => {
    h = await startHarness(undefined, { sandboxFor: missing });
    h.fake.enqueue({ text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    await h.event(id, 'turn_ended');
    expect(h.fake.requests[0]!.rawBody).toContain(
      'Commands cannot be confined on this machine (bubblewrap (bwrap) is not installed)',
    );
    await h.close();
    h = await startHarness();
    h.fake.enqueue({ text: 'ok' });
    const confined = await h.open();
    await h.call('session.send', { id: confined, text: 'go' });
    await h.event(confined, 'turn_ended');
    expect(h.fake.requests[0]!.rawBody).toContain('An allowed command runs in a sandbox');
  });
});
