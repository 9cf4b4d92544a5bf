/**
 * Cases a review found: probing outside files through planning errors, and a file that
 * changes in the moment between the gate's re-check and the write.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Planner } from '../../../../../electron/core/gate/permission-gate.js';
import { GateHarness } from './gate-harness.js';

describe('planning errors about paths outside the workspace', () => {
  it('say nothing about the file: not whether it exists, nor whether a string occurs in it', async () => {
    const h = await GateHarness.open();
    const secret = path.join(h.outside, 'secret.txt');
    await fs.writeFile(secret, 'PRIVATE KEY abc\nPRIVATE KEY abc\n');
    const s = await h.session();
    const probes = [
      await s.run('search_replace', { path: secret, old: 'PRIVATE', new: 'x' }),
      await s.run('search_replace', { path: secret, old: 'no such text', new: 'x' }),
      await s.run('search_replace', { path: path.join(h.outside, 'missing.txt'), old: 'a', new: 'b' }),
      await s.run('read_file', { path: path.join(h.outside, 'missing.txt') }),
    ];
    const errors = probes.map((r) => (r.ok ? 'ok' : r.error.replace(/^\w+: /, '').replace(/\/\S+/, '<path>')));
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).toContain('is outside the workspace and this call could not be prepared');
    expect(s.types()).toEqual([]);
  });

  it('are shown whole inside the workspace', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'x\n');
    const s = await h.session();
    const r = await s.run('search_replace', { path: 'a.txt', old: 'nope', new: 'y' });
    expect(!r.ok && r.error).toContain('not found');
  });
});

describe('a file that changes between the answer and the write', () => {
  it('drops the answer after all, revokes its grant, writes nothing, and asks again', async () => {
    const h = await GateHarness.open();
    await h.put('a.txt', 'one\n');
    const racer: Planner = {
      plan: (name, args) => h.tools.plan(name, args),
      outsideTarget: (name, args) => h.tools.outsideTarget(name, args),
      execute: async (plan, exec) => {
        if (plan.kind === 'write' && (await h.read('a.txt')) === 'one\n') await h.put('a.txt', 'someone else\n');
        return h.tools.execute(plan, exec);
      },
    };
    const s = await h.session(racer);
    const metaBefore = await s.metaBytes();
    const pending = s.start('write_file', { path: 'a.txt', content: 'mine\n' });
    const first = await pending.card();
    s.gate.answer(first.cardId, 'allow_session');
    const second = await pending.card();

    expect(s.types()).toEqual(['card', 'card_answer', 'card_stale', 'card']);
    expect(second.reasked?.previousCardId).toBe(first.cardId);
    expect(await h.read('a.txt')).toBe('someone else\n');
    expect(await s.loggedGrants()).toEqual([]);
    expect(JSON.parse((await s.metaBytes()).toString()).grants).toEqual([]);
    expect(JSON.parse(metaBefore.toString()).grants).toEqual([]);

    s.gate.answer(second.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('a.txt')).toBe('mine\n');
  });
});

describe('a turn that is over', () => {
  it('leaves no card that takes an answer', async () => {
    const h = await GateHarness.open();
    const s = await h.session();
    const pending = s.start('run', { argv: ['true'] });
    const card = await pending.card();
    s.gate.forgetAll('the turn ended');
    expect(() => s.gate.answer(card.cardId, 'allow_once')).toThrow(/no longer open \(the turn ended\)/);
  });
});
