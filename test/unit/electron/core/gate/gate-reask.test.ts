/**
 * Found by the property run (issue 9): an outside read whose path, by the time the
 * answer came, lands inside the workspace. The answer is dropped as stale, and the call,
 * now a read inside, runs without a card, as every inside read does (SPEC §3).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { GateHarness } from './gate-harness.js';

it('runs a re-planned call that now reads inside the workspace instead of asking again', async () => {
  const h = await GateHarness.open();
  await fs.writeFile(path.join(h.outside, 'o.txt'), 'outside one\n');
  const link = path.join(h.ws, 'a.txt');
  await fs.symlink(h.outside, link);
  const s = await h.session();
  const pending = s.start('grep', { pattern: 'one', path: link });
  const card = await pending.card();
  expect(card.body).toMatchObject({ kind: 'read', path: h.outside });
  await fs.unlink(link);
  await fs.writeFile(link, 'inside one\n');

  s.gate.answer(card.cardId, 'allow_once');
  const result = await pending.result;

  expect(result).toMatchObject({ ok: true, output: expect.stringContaining('inside one') });
  expect(result.ok && result.output).not.toContain('outside one');
  expect(s.types()).toEqual(['card', 'card_stale']);
});
