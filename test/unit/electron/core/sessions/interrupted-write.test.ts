/**
 * Found by the property run (issue 9): the app killed (-9) while an allowed write was
 * under way left the write's temporary file, with the proposal's bytes, in the user's
 * folder. The restart marks the call interrupted and removes that file, and only that.
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

/** What a kill between the logged answer and the rename leaves in the log. */
async function logAnswer(h: Harness, id: string, cardId: string): Promise<void> {
  const log = path.join(h.dataDir, 'sessions', id, 'events.jsonl');
  const lines = (await fs.readFile(log, 'utf8')).trimEnd().split('\n');
  const seq = (JSON.parse(lines.at(-1)!) as { seq: number }).seq + 1;
  const answer = { seq, ts: new Date().toISOString(), type: 'card_answer', cardId, answer: 'allow_once' };
  await fs.appendFile(log, `${JSON.stringify(answer)}\n`);
}

it('removes the temporary file of a write the kill cut short, and nothing else', async () => {
  h = await startHarness();
  await fs.writeFile(path.join(h.workspace, 'a.txt'), 'old\n');
  h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'new\n' } }] });
  const id = await h.open();
  await h.call('session.send', { id, text: 'write a' });
  const card = await h.event(id, 'card');
  await h.core.dispose();
  await logAnswer(h, id, card.cardId);
  const temp = path.join(h.workspace, '.a.txt.0123456789ab.gatehouse-tmp');
  const others = ['.b.txt.0123456789ab.gatehouse-tmp', 'notes.gatehouse-tmp'].map((n) => path.join(h!.workspace, n));
  for (const file of [temp, ...others]) await fs.writeFile(file, 'new\n');

  await h.restart();

  expect((await h.event(id, 'turn_ended')).reason).toBe('interrupted');
  await expect(fs.access(temp)).rejects.toThrow();
  for (const file of others) expect(await fs.readFile(file, 'utf8')).toBe('new\n');
  expect(await fs.readFile(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('old\n');
});
