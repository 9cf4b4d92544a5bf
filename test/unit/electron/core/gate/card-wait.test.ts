/**
 * One card's wait (card-wait.ts), transition by transition: each drawn arrow once, and
 * each arrow not drawn refused with the state left as it was. The last block walks the
 * restarts that runner/resume.ts plans, through the same transitions.
 */
import { describe, expect, it } from 'vitest';
import type { CardEvent } from '../../../../../shared/reducer.js';
import { CardWaits, type CardWait } from '../../../../../electron/core/gate/card-wait.js';
import { GateError } from '../../../../../electron/core/gate/gate-error.js';
import { HOOK_CARD_WITHDRAWN, SERVER_START_WITHDRAWN } from '../../../../../electron/core/runner/resume.js';
import type { Plan } from '../../../../../electron/core/tools/tool-def.js';

/** Only the fields the waits read: the card's id and its kind. */
const card = (cardId: string, kind = 'write'): CardEvent => ({ cardId, body: { kind } }) as unknown as CardEvent;

const writePlan = (after: Buffer | string = 'new\n', before = 'old\n'): Plan =>
  ({
    kind: 'write',
    tool: 'write_file',
    target: { input: 'a.txt', real: '/var/tmp/ws/a.txt' },
    before: Buffer.from(before),
    after: Buffer.from(after),
    digest: 'd',
    args: {},
  }) as unknown as Plan;

const commandPlan = (): Plan => ({ kind: 'command', tool: 'run', argv: ['ls'], cwd: '/var/tmp/ws' }) as unknown as Plan;

/** Not UTF-8: an editor could not give these bytes back. */
const NOT_UTF8 = Buffer.from([0xff, 0xfe, 0x0a]);

/** Whether the wait's promise has settled, without waiting for it. */
async function settled(wait: CardWait): Promise<unknown> {
  const none = Symbol('pending');
  const first = await Promise.race([wait.answered, new Promise((r) => setImmediate(() => r(none)))]);
  return first === none ? 'pending' : first;
}

function expected(kind = 'write') {
  const waits = new CardWaits();
  waits.expect(card('c1', kind));
  return { waits, wait: waits.get('c1')! };
}

function resuming(kind = 'write') {
  const waits = new CardWaits();
  return { waits, wait: waits.resume(card('c1', kind)) };
}

function open(plan: Plan = writePlan()) {
  const waits = new CardWaits();
  return { waits, wait: waits.putUp('c1', plan) };
}

describe('a card no wait knows yet', () => {
  it('expect(): becomes expected, taking an answer', () => {
    const waits = new CardWaits();
    waits.expect(card('c1'));
    expect(waits.get('c1')?.current).toEqual({ name: 'expected' });
    expect(waits.get('c1')?.takesAnswer).toBe(true);
  });

  it('resume(): becomes resuming, taking an answer', () => {
    const waits = new CardWaits();
    const wait = waits.resume(card('c1'));
    expect(wait.current).toEqual({ name: 'resuming' });
    expect(waits.get('c1')).toBe(wait);
  });

  it("putUp(): becomes open, with a write's two sides", () => {
    const waits = new CardWaits();
    const wait = waits.putUp('c1', writePlan());
    expect(wait.current).toEqual({ name: 'open' });
    expect(wait.sidesIfOpen()?.base()).toEqual({ path: '/var/tmp/ws/a.txt', before: 'old\n' });
  });

  it('putUp() of a command: open, with no sides', () => {
    const { wait } = open(commandPlan());
    expect(wait.current).toEqual({ name: 'open' });
    expect(wait.sidesIfOpen()).toBeUndefined();
  });

  it('answer(): refused, no card is made', () => {
    const waits = new CardWaits();
    expect(() => waits.answer('c1', 'allow_once')).toThrow(new GateError('no open card with id c1'));
    expect(waits.get('c1')).toBeUndefined();
  });

  it('openSides(): refused, there is nothing to preview', () => {
    expect(() => new CardWaits().openSides('c1')).toThrow(new GateError('no open card with id c1'));
  });

  it('forget(why): becomes closed(why), so a later answer is refused with it', () => {
    const waits = new CardWaits();
    waits.forget('c1', 'withdrawn by the runner');
    expect(waits.get('c1')?.current).toEqual({ name: 'closed', reason: 'withdrawn by the runner' });
    expect(() => waits.answer('c1', 'deny')).toThrow('card c1 is no longer open (withdrawn by the runner)');
  });
});

describe('an expected card (open in the log, its resume to come)', () => {
  it('expect() again: left as it is', () => {
    const { waits, wait } = expected();
    waits.expect(card('c1', 'command'));
    expect(waits.get('c1')).toBe(wait);
    expect(wait.current).toEqual({ name: 'expected' });
  });

  it('resume(): becomes resuming, the same wait', async () => {
    const { waits, wait } = expected();
    expect(waits.resume(card('c1'))).toBe(wait);
    expect(wait.current).toEqual({ name: 'resuming' });
    expect(await settled(wait)).toBe('pending');
  });

  it('answer(): closed(answered …), the answer held for the resume, which takes it', async () => {
    const { waits, wait } = expected();
    waits.answer('c1', 'allow_once');
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_once' });
    expect(await settled(wait)).toEqual({ answer: 'allow_once' });

    expect(waits.resume(card('c1'))).toBe(wait);
    wait.planned(writePlan());
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_once' });
  });

  it('answer() with edits, on a write card: taken before it is planned again', () => {
    const { wait } = expected();
    wait.answer('allow_once', 'mine\n');
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_once with edits' });
    expect(wait.givenAnswer?.edited?.toString()).toBe('mine\n');
  });

  it('answer() with edits, on a command card: refused, still expected', () => {
    const { wait } = expected('command');
    expect(() => wait.answer('allow_once', 'mine\n')).toThrow(/card c1 is not an open write card/);
    expect(wait.current).toEqual({ name: 'expected' });
  });

  it('forget(why): closed(why), and a resume is refused', () => {
    const { waits, wait } = expected();
    waits.forget('c1', 'gone');
    expect(wait.current).toEqual({ name: 'closed', reason: 'gone' });
    expect(() => waits.resume(card('c1'))).toThrow('card c1 cannot be resumed: it is closed (gone)');
  });

  it('planned(): refused, it is not being resumed', () => {
    const { wait } = expected();
    expect(() => wait.planned(writePlan())).toThrow('card c1 was not being resumed: it is expected');
    expect(wait.current).toEqual({ name: 'expected' });
  });

  it('drop(): refused, no answer was given', () => {
    const { wait } = expected();
    expect(() => wait.drop('allow_once', 'stale')).toThrow('card c1 has no answer to drop: it is expected');
    expect(wait.current).toEqual({ name: 'expected' });
  });
});

describe('a resuming card (its call planned again after a restart)', () => {
  it('planned(): becomes open, with the sides of the plan made now', () => {
    const { wait } = resuming();
    wait.planned(writePlan('newer\n', 'as it is now\n'));
    expect(wait.current).toEqual({ name: 'open' });
    expect(wait.sidesIfOpen()?.base()).toEqual({ path: '/var/tmp/ws/a.txt', before: 'as it is now\n' });
  });

  it('answer(): closed(answered …); planned() then keeps it closed and the answer settles', async () => {
    const { waits, wait } = resuming();
    waits.answer('c1', 'deny');
    wait.planned(writePlan());
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered deny' });
    expect(wait.sidesIfOpen()).toBeUndefined();
    expect(await settled(wait)).toEqual({ answer: 'deny' });
  });

  it('answer() with edits, on a write card: taken before the plan is made', () => {
    const { wait } = resuming();
    wait.answer('allow_once', 'mine\n');
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_once with edits' });
  });

  it('withdraw(): closed(withdrawn) when the file changed meanwhile, the edits given kept for the next card', async () => {
    const { wait } = resuming();
    wait.answer('allow_once', 'mine\n');
    wait.withdraw();
    expect(wait.current).toEqual({ name: 'closed', reason: 'withdrawn' });
    expect(wait.givenAnswer?.edited?.toString()).toBe('mine\n');
    expect(() => wait.answer('deny')).toThrow('card c1 is no longer open (withdrawn)');
  });

  it('resume() again: refused, still resuming', () => {
    const { waits, wait } = resuming();
    expect(() => waits.resume(card('c1'))).toThrow('card c1 cannot be resumed: it is resuming');
    expect(wait.current).toEqual({ name: 'resuming' });
  });

  it('forgetAll(): closed, its turn has ended', () => {
    const { waits, wait } = resuming();
    waits.forgetAll('its turn has ended');
    expect(wait.current).toEqual({ name: 'closed', reason: 'its turn has ended' });
  });
});

describe('an open card', () => {
  it('answer(): closed(answered …), the answer settles and the sides go', async () => {
    const { waits, wait } = open();
    waits.answer('c1', 'allow_session');
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_session' });
    expect(await settled(wait)).toEqual({ answer: 'allow_session' });
    expect(wait.sidesIfOpen()).toBeUndefined();
  });

  it('answer() with edits on a write: taken as the bytes to write', async () => {
    const { wait } = open();
    wait.answer('allow_once', 'mine\n');
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_once with edits' });
    expect(await settled(wait)).toEqual({ answer: 'allow_once', edited: Buffer.from('mine\n') });
  });

  it.each([
    ['with allow_session', writePlan(), 'allow_session', /edits go only with allow_once/],
    [
      'on a proposal that is not UTF-8',
      writePlan(NOT_UTF8),
      'allow_once',
      /cannot allow with your edits: the proposal/,
    ],
    ['on a command', commandPlan(), 'allow_once', /card c1 is not an open write card/],
  ] as const)('answer() with edits %s: refused, still open', async (_what, plan, answer, error) => {
    const { wait } = open(plan);
    expect(() => wait.answer(answer, 'mine\n')).toThrow(error);
    expect(wait.current).toEqual({ name: 'open' });
    expect(await settled(wait)).toBe('pending');
  });

  it('answer() with edits holding a NUL byte: refused, still open', () => {
    const { wait } = open();
    expect(() => wait.answer('allow_once', 'a\0b')).toThrow(GateError);
    expect(wait.current).toEqual({ name: 'open' });
  });

  it('withdraw(): closed(withdrawn) when the turn is cancelled; the answer never settles', async () => {
    const { wait } = open();
    wait.withdraw();
    expect(wait.current).toEqual({ name: 'closed', reason: 'withdrawn' });
    expect(() => wait.answer('allow_once')).toThrow('card c1 is no longer open (withdrawn)');
    expect(await settled(wait)).toBe('pending');
  });

  it('resume(): refused, a call already waits on it', () => {
    const { waits, wait } = open();
    expect(() => waits.resume(card('c1'))).toThrow('card c1 cannot be resumed: it is open');
    expect(wait.current).toEqual({ name: 'open' });
  });

  it('planned(): refused, it is not being resumed', () => {
    const { wait } = open();
    expect(() => wait.planned(writePlan())).toThrow('card c1 was not being resumed: it is open');
  });

  it('drop(): refused, no answer was given', () => {
    const { wait } = open();
    expect(() => wait.drop('allow_once', 'stale')).toThrow('card c1 has no answer to drop: it is open');
    expect(wait.current).toEqual({ name: 'open' });
  });

  it('putUp() of the same id: refused', () => {
    const { waits, wait } = open();
    expect(() => waits.putUp('c1', writePlan())).toThrow('card c1 is up already');
    expect(waits.get('c1')).toBe(wait);
  });

  it('discard(): unknown again when its card never reached the log', () => {
    const { waits } = open();
    waits.discard('c1');
    expect(waits.get('c1')).toBeUndefined();
    expect(() => waits.answer('c1', 'allow_once')).toThrow('no open card with id c1');
  });

  it('forgetAll(): closed, its turn has ended', () => {
    const { waits, wait } = open();
    waits.forgetAll('its turn has ended');
    expect(wait.current).toEqual({ name: 'closed', reason: 'its turn has ended' });
  });

  it('openSides(): refused once the card is closed, as for a card never known', () => {
    const { wait } = open();
    wait.answer('allow_once');
    expect(() => wait.openSides()).toThrow(new GateError('no open card with id c1'));
  });

  it('openSides(): the preview of an open write; GateError for a command', () => {
    expect(open().wait.openSides()).toBeDefined();
    expect(() => open(commandPlan()).wait.openSides()).toThrow(new GateError('card c1 is not an open write card'));
  });
});

describe('a closed card', () => {
  it('answer(): refused with why it closed, the state left as it is', () => {
    const { waits, wait } = open();
    waits.answer('c1', 'allow_once');
    expect(() => waits.answer('c1', 'deny')).toThrow(new GateError('card c1 is no longer open (answered allow_once)'));
    expect(wait.current).toEqual({ name: 'closed', reason: 'answered allow_once' });
  });

  it('drop(): closed(answered …) → closed(its answer … was dropped: why)', () => {
    const { wait } = open();
    wait.answer('allow_session');
    wait.drop('allow_session', 'the file changed on disk');
    expect(wait.current).toEqual({
      name: 'closed',
      reason: 'its answer allow_session was dropped: the file changed on disk',
    });
  });

  it('drop() again, or of a withdrawn card: refused', () => {
    const { wait } = open();
    wait.answer('allow_once');
    wait.drop('allow_once', 'stale');
    expect(() => wait.drop('allow_once', 'stale')).toThrow(/has no answer to drop/);
    const other = open().wait;
    other.withdraw();
    expect(() => other.drop('allow_once', 'stale')).toThrow('card c1 has no answer to drop: it is closed (withdrawn)');
  });

  it('withdraw() after an answer not yet acted on: closed(withdrawn), cancelling wins', () => {
    const { wait } = open();
    wait.answer('allow_once');
    wait.withdraw();
    expect(wait.current).toEqual({ name: 'closed', reason: 'withdrawn' });
  });

  it('resume(): refused when its answer is taken already, or it closed without one', () => {
    const answered = open();
    answered.wait.answer('allow_once');
    expect(() => answered.waits.resume(card('c1'))).toThrow(
      'card c1 cannot be resumed: it is closed (answered allow_once)',
    );
    const withdrawn = resuming();
    withdrawn.wait.withdraw();
    expect(() => withdrawn.waits.resume(card('c1'))).toThrow('card c1 cannot be resumed: it is closed (withdrawn)');
  });

  it('expect(): left as it is', () => {
    const { waits, wait } = open();
    wait.withdraw();
    waits.expect(card('c1'));
    expect(wait.current).toEqual({ name: 'closed', reason: 'withdrawn' });
    expect(wait.takesAnswer).toBe(false);
  });

  it('forgetAll(): an answer held for a resume to come is closed with the turn; one being acted on is not', () => {
    const waits = new CardWaits();
    waits.expect(card('held'));
    waits.answer('held', 'allow_once');
    const acting = waits.putUp('acting', writePlan());
    waits.answer('acting', 'allow_once');
    waits.forgetAll('its turn has ended');
    expect(waits.get('held')?.current).toEqual({ name: 'closed', reason: 'its turn has ended' });
    expect(acting.current).toEqual({ name: 'closed', reason: 'answered allow_once' });
    expect(() => waits.resume(card('held'))).toThrow(/cannot be resumed/);
  });
});

describe('the restarts runner/resume.ts plans, as transitions', () => {
  it("a tool call's card: the same card waited on again (expect, resume, planned, answer)", async () => {
    const waits = new CardWaits();
    waits.expect(card('c1'));
    const wait = waits.resume(card('c1'));
    wait.planned(writePlan());
    expect(wait.current).toEqual({ name: 'open' });
    waits.answer('c1', 'allow_once');
    expect(await settled(wait)).toEqual({ answer: 'allow_once' });
  });

  it("a tool call's card answered before its resume: the resume acts on that answer", async () => {
    const waits = new CardWaits();
    waits.expect(card('c1'));
    waits.answer('c1', 'allow_once');
    const wait = waits.resume(card('c1'));
    wait.planned(writePlan());
    expect(await settled(wait)).toEqual({ answer: 'allow_once' });
  });

  it("a tool call's write card whose file changed, or whose call no longer applies: withdrawn on its resume", () => {
    const waits = new CardWaits();
    waits.expect(card('c1'));
    const wait = waits.resume(card('c1'));
    wait.withdraw();
    expect(() => waits.answer('c1', 'allow_once')).toThrow('card c1 is no longer open (withdrawn)');
  });

  it.each([
    ["an MCP server's start card", 'mcp_server', SERVER_START_WITHDRAWN],
    ["a Stop hook's card (of a finish call or a plain-text finish)", 'command', HOOK_CARD_WITHDRAWN],
  ])('%s: withdrawn by the runner, answered no more, never resumed', (_what, kind, why) => {
    const waits = new CardWaits();
    waits.expect(card('c1', kind));
    waits.forget('c1', why);
    expect(() => waits.answer('c1', 'allow_once')).toThrow(`card c1 is no longer open (${why})`);
    expect(() => waits.resume(card('c1', kind))).toThrow(/cannot be resumed/);
  });
});
