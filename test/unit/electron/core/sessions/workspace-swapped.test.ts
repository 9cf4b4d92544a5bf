/**
 * Found by the property run (issue 9): a workspace folder swapped for a link to a folder
 * outside, or gone, while the app was down. On restart the session must not take the
 * link's target as its workspace, or everything there would be free to list and read;
 * and a message queued behind the stopped turn must come back, not wait forever.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createHold } from '../../../../fake-model/server.js';
import { startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('does not adopt the folder a link now put where the workspace was', async () => {
  h = await startHarness();
  const project = path.join(h.workspace, 'sub');
  await fs.mkdir(project);
  await fs.writeFile(path.join(h.outside, 'secret.txt'), 'outside bytes\n');
  const { id } = await h.call('sessions.open', { workspace: project });
  await fs.rm(project, { recursive: true });
  await fs.symlink(h.outside, project);
  await h.restart();

  h.fake.enqueue({ toolCalls: [{ name: 'list_dir', input: { path: '.' } }] }, { text: 'done' });
  const reply = await h.raw('session.send', { id, text: 'list the workspace' });

  expect(reply).toMatchObject({ ok: false, error: expect.stringContaining(project) });
  expect(h.fake.requests).toHaveLength(0);
  expect(JSON.stringify(await h.events(id))).not.toContain('secret.txt');
});

it('hands back a queued message when the workspace is gone at the restart', async () => {
  h = await startHarness();
  const hold = createHold();
  h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'a' } }], hold });
  const id = await h.open();
  await h.call('session.send', { id, text: 'write a' });
  await hold.reached;
  const queued = await h.call('session.send', { id, text: 'then this' });
  hold.release();
  await h.event(id, 'card');
  await fs.rename(h.workspace, `${h.workspace}-moved`);
  await h.restart();

  const returned = await h.event(id, 'queue_returned');
  expect(returned.messageIds).toEqual([queued.messageId]);
  const state = await h.call('session.state', { id });
  expect(state.summary.status).not.toBe('running');
  expect(state.events.at(-1)).toMatchObject({ type: 'queue_returned' });
});
