/**
 * Found by the property run's kill -9 (issue 9): the app killed after a message was
 * logged but before its turn started. After the restart the message must not sit there
 * unanswered as if a turn were working on it: it gets a turn that says it was
 * interrupted, and the session takes the next message as usual.
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

it('ends the turn of a message logged just before the kill as interrupted', async () => {
  h = await startHarness();
  const id = await h.open();
  await h.core.dispose();
  const log = path.join(h.dataDir, 'sessions', id, 'events.jsonl');
  const message = { seq: 1, ts: new Date().toISOString(), type: 'user_message', messageId: 'm1', text: 'hello' };
  await fs.writeFile(log, `${JSON.stringify(message)}\n`);

  await h.restart();

  const ended = await h.event(id, 'turn_ended');
  expect(ended).toMatchObject({ reason: 'interrupted', message: expect.stringContaining('before') });
  const started = (await h.events(id)).find((e) => e.type === 'turn_started');
  expect(started).toMatchObject({ messageId: 'm1', turnId: ended.turnId });
  h.fake.enqueue({ text: 'here now' });
  expect(await h.call('session.send', { id, text: 'again' })).toMatchObject({ status: 'started' });
  expect(await h.event(id, 'result')).toMatchObject({ summary: 'here now' });
});
