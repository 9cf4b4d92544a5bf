/**
 * propose_apply on the gate's MCP face (SPEC §14, §15): an external agent in a place of its
 * own is offered it beside the workspace tools, and its call goes through the same gate and
 * the same place_apply card as the native runner's; in the person's folder it is not offered.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { git, writeFiles } from '../places/place-fixture.js';
import { resultText, startGateHarness, type GateHarness } from './gate-mcp-harness.js';

let g: GateHarness | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

it('is not offered in the person folder, and a call to it is a protocol error', async () => {
  g = await startGateHarness();
  const { tools } = await g.client.listTools();
  expect(tools.map((t) => t.name)).not.toContain('propose_apply');
  await g.startTurn();
  await expect(g.call('propose_apply', { as: 'files' })).rejects.toThrow(/unknown tool "propose_apply"/);
  await g.endTurn();
});

it('is offered in a place, raises the place_apply card, and applies on Allow once', async () => {
  let place = '';
  g = await startGateHarness({
    open: async (h) => {
      git(h.workspace, 'init', '-q', '-b', 'main');
      await writeFiles(h.workspace, { 'a.txt': 'a\n' });
      git(h.workspace, 'add', '-A');
      git(h.workspace, 'commit', '-q', '-m', 'first');
      const summary = await h.call('sessions.open', { workspace: h.workspace, title: 'agent', place: {} });
      await h.call('session.review', { id: summary.id });
      place = summary.place!.path;
      return summary.id;
    },
  });
  const { tools } = await g.client.listTools();
  const listed = tools.find((t) => t.name === 'propose_apply');
  expect(listed?.inputSchema.properties).toHaveProperty('as');
  await writeFiles(place, { 'a.txt': 'a, done\n' });
  await g.startTurn();
  const call = g.call('propose_apply', { as: 'files' });
  const card = await g.h.event(g.id, 'card');
  expect(card.body).toMatchObject({ kind: 'place_apply', files: [{ path: 'a.txt', status: 'ready' }] });
  await g.h.call('card.answer', { id: g.id, cardId: card.cardId, answer: 'allow_once' });
  const result = await call;
  expect(result.isError).toBeFalsy();
  expect(resultText(result)).toContain('Applied into');
  expect(await fs.readFile(path.join(g.h.workspace, 'a.txt'), 'utf8')).toBe('a, done\n');
  expect(await g.events('place_apply', 'place_applied')).toHaveLength(2);
  await g.endTurn();
});
