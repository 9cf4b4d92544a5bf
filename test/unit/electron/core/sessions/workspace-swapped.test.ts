/**
 * Found by the property run (issue 9): a workspace folder swapped for a link to a folder
 * outside while the app was down. On restart the session must not take the link's
 * target as its workspace, or everything there would be free to list and read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
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
