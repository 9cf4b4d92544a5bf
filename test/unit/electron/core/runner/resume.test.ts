import { describe, expect, it } from 'vitest';
import type { EventPayload, SessionEvent } from '../../../../../shared/events.js';
import type { CardEvent, QuestionEvent } from '../../../../../shared/reducer.js';
import { planResume } from '../../../../../electron/core/runner/resume.js';

function log(...payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ ...p, seq: i + 1, ts: '2026-12-04T00:00:00.000Z' }) as SessionEvent);
}
const call = (id: string, tool = 'write_file'): EventPayload => ({
  type: 'tool_call',
  turnId: 't',
  toolCallId: id,
  tool,
  args: {},
});
const result = (id: string): EventPayload => ({
  type: 'tool_result',
  turnId: 't',
  toolCallId: id,
  tool: 'write_file',
  ok: true,
  output: 'ok',
});
/** Only the fields planResume reads: whose card it is, and its kind. */
const card = (toolCallId: string, kind = 'write'): CardEvent =>
  ({ type: 'card', cardId: `card-${toolCallId}`, toolCallId, body: { kind } }) as unknown as CardEvent;
const question = (toolCallId: string): QuestionEvent =>
  ({ type: 'question', questionId: 'q1', toolCallId }) as unknown as QuestionEvent;

describe('taking a turn up again after a restart', () => {
  const step = log(
    { type: 'turn_started', turnId: 't' } as EventPayload,
    { type: 'assistant_text', turnId: 't', text: 'Writing both.' },
    call('c1'),
    call('c2'),
    call('c3'),
    result('c1'),
  );

  it("waits on the same card again, and runs the step's other pending calls after it, in order", () => {
    const plan = planResume(step, 't', { card: card('c2') });
    expect(plan.calls.map((c) => [c.event.toolCallId, c.waiting ? Object.keys(c.waiting)[0] : null])).toEqual([
      ['c2', 'card'],
      ['c3', null],
    ]);
    expect(plan).toMatchObject({ serverStart: null, hookCard: null, finishAgain: null });
  });

  it('waits on the same question again', () => {
    const plan = planResume(step, 't', { question: question('c2') });
    expect(plan.calls[0]!.waiting).toEqual({ question: question('c2') });
  });

  it("withdraws a server's start card, and asks for the servers again before any call", () => {
    const start = card('mcp-start', 'mcp_server');
    const plan = planResume(step, 't', { card: start });
    expect(plan.serverStart).toBe(start);
    expect(plan.hookCard).toBeNull();
    expect(plan.calls.every((c) => c.waiting === null)).toBe(true);
  });

  it("withdraws a Stop hook's card of a pending finish call, and runs that call again", () => {
    const withFinish = log(...step.map(({ seq: _s, ts: _t, ...p }) => p as EventPayload), call('f', 'finish'));
    const plan = planResume(withFinish, 't', { card: card('f#hook1') });
    expect(plan.hookCard?.toolCallId).toBe('f#hook1');
    expect(plan.finishAgain).toBeNull();
    expect(plan.calls.map((c) => c.event.toolCallId)).toEqual(['c2', 'c3', 'f']);
  });

  it("runs a plain-text finish again with the step's text when its Stop hook's card was open", () => {
    const plainText = log({ type: 'turn_started', turnId: 't' } as EventPayload, {
      type: 'assistant_text',
      turnId: 't',
      text: 'All done.',
    });
    const plan = planResume(plainText, 't', { card: card('t#hook1') });
    expect(plan).toMatchObject({ hookCard: { toolCallId: 't#hook1' }, finishAgain: 'All done.', calls: [] });
  });
});
