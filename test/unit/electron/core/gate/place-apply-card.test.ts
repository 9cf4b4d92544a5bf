/**
 * A place_apply card (the model's proposal to apply its place's change, SPEC §15) is asked
 * every time: it takes Allow once or Deny and nothing else, no grant in the session's list
 * covers it, and its answer is dropped when the review no longer reads as the card showed.
 */
import { describe, expect, it } from 'vitest';
import { answersFor, type PlaceApplyCardBody } from '../../../../../shared/cards.js';
import type { CardEvent } from '../../../../../shared/reducer.js';
import { staleReason } from '../../../../../electron/core/gate/card-body.js';
import { CardWaits } from '../../../../../electron/core/gate/card-wait.js';
import { classify, grantForPlan } from '../../../../../electron/core/gate/classify.js';
import { GateError } from '../../../../../electron/core/gate/gate-error.js';
import type { Plan } from '../../../../../electron/core/tools/tool-def.js';

const BODY: PlaceApplyCardBody = {
  kind: 'place_apply',
  as: 'files',
  origin: '/home/me/app',
  place: '/data/places/s1/app',
  files: [{ path: 'a.txt', change: 'modified', status: 'ready' }],
  fingerprint: 'f1',
};

const plan = (body: PlaceApplyCardBody = BODY): Plan => ({
  kind: 'place_apply',
  tool: 'propose_apply',
  body,
  request: { reviewId: 'r1', as: 'files', paths: ['a.txt'] },
  args: { as: 'files' },
});

describe('a place_apply card', () => {
  it('offers Allow once and Deny only; every other kind offers all three', () => {
    expect(answersFor('place_apply')).toEqual(['allow_once', 'deny']);
    expect(answersFor('write')).toEqual(['allow_once', 'allow_session', 'deny']);
  });

  it('refuses allow_session in words, and still takes allow_once after', async () => {
    const waits = new CardWaits();
    const wait = waits.putUp('c1', plan());
    expect(() => waits.answer('c1', 'allow_session')).toThrow(GateError);
    expect(() => waits.answer('c1', 'allow_session')).toThrow(/takes only allow_once or deny/);
    expect(wait.takesAnswer).toBe(true);
    waits.answer('c1', 'allow_once');
    await expect(wait.answered).resolves.toEqual({ answer: 'allow_once' });
  });

  it('refuses allow_session on a card from the log too, before and after its resume', () => {
    const waits = new CardWaits();
    const fromLog = { cardId: 'c2', body: BODY } as unknown as CardEvent;
    waits.expect(fromLog);
    expect(() => waits.answer('c2', 'allow_session')).toThrow(/takes only allow_once or deny/);
    waits.resume(fromLog);
    expect(() => waits.answer('c2', 'allow_session')).toThrow(/takes only allow_once or deny/);
  });

  it('is a card even when the session holds the very grant it names', () => {
    const grant = grantForPlan(plan());
    expect(grant).toEqual({ kind: 'place_apply', origin: '/home/me/app' });
    expect(classify(plan(), [grant])).toEqual({ kind: 'card', grant });
  });

  it('is stale when the fresh review reads otherwise, and not when it reads the same', () => {
    expect(staleReason(BODY, plan({ ...BODY }))).toBeNull();
    expect(staleReason(BODY, plan({ ...BODY, fingerprint: 'f2' }))).toMatch(/changed after the card went up/);
  });
});
