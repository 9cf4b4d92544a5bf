import { describe, expect, it } from 'vitest';
import type { EventPayload, SessionEvent } from '../../../../../shared/events.js';
import { History } from '../../../../../electron/core/context/history.js';
import { WORKSPACE_TOOLS } from '../../../../../electron/core/tools/tools.js';

/** What the workspace tools say their results hold, as the session's context asks it. */
const holdsOf = (tool: string) => WORKSPACE_TOOLS.find((d) => d.name === tool)?.holds;

function log(...payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ ...p, seq: i + 1, ts: '2026-12-03T00:00:00.000Z' }) as SessionEvent);
}

const call = (id: string, path = 'a.txt'): EventPayload => ({
  type: 'tool_call',
  turnId: 't',
  toolCallId: id,
  tool: 'read_file',
  args: { path },
});
const result = (id: string, output = 'text'): EventPayload => ({
  type: 'tool_result',
  turnId: 't',
  toolCallId: id,
  tool: 'read_file',
  ok: true,
  output,
});

const events = log(
  { type: 'user_message', messageId: 'm1', text: 'read a' },
  { type: 'turn_started', turnId: 't', messageId: 'm1' },
  { type: 'assistant_text', turnId: 't', text: 'Looking.' },
  call('c1'),
  call('c2', 'b.txt'),
  result('c1'),
  result('c2'),
  call('c3', 'c.txt'),
  result('c3'),
  { type: 'hook_run', turnId: 't', argv: ['npm', 'test'], ok: false, exitCode: 1, output: 'fail' },
  {
    type: 'usage',
    turnId: 't',
    purpose: 'step',
    model: 'anthropic:m',
    inputTokens: 900,
    outputTokens: 9,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    requestBytes: 3600,
    contextWindow: 200_000,
    cost: null,
  },
  { type: 'context_masked', throughSeq: 7, results: 2, tokensBefore: 10, tokensAfter: 5 },
  { type: 'context_window', model: 'anthropic:m', tokens: 100_000, reason: 'said so' },
);

describe('the history the model sees, folded from the log', () => {
  it('groups a step’s text and calls with their results; a call after results starts the next step', () => {
    const h = new History(holdsOf, events);
    expect(h.entries.map((e) => [e.kind, e.seq, e.lastSeq])).toEqual([
      ['user', 1, 1],
      ['step', 3, 7],
      ['step', 8, 9],
      ['user', 10, 10],
    ]);
    expect(h.entries[3]!.kind === 'user' && h.entries[3]!.text).toContain('A Stop hook failed');
  });

  it('keeps the masking boundary, the stated window, the calibration and the named files', () => {
    const h = new History(holdsOf, events);
    expect(h.maskedThrough).toBe(7);
    expect(h.statedWindow('anthropic:m')).toBe(100_000);
    expect(h.statedWindow('openai:x')).toBeNull();
    expect(h.calibration).toEqual({ tokens: 900, bytes: 3600 });
    expect([...h.files.keys()].sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(h.userMessages).toEqual([{ seq: 1, text: 'read a' }]);
  });

  it('drops what a compaction covers, but keeps the person’s messages for the next summary', () => {
    const h = new History(holdsOf, [
      ...events,
      ...log({
        type: 'compaction',
        fromSeq: 1,
        toSeq: 9,
        summary: 'S',
        trigger: 'budget',
        tokensBefore: 9,
        tokensAfter: 1,
      }).map((e) => ({ ...e, seq: 14 })),
    ]);
    expect(h.entries.map((e) => e.seq)).toEqual([10]);
    expect(h.summary?.summary).toBe('S');
    expect(h.userMessages).toHaveLength(1);
  });

  it('arrives at the same state event by event as all at once (a restart)', () => {
    const live = new History(holdsOf);
    for (const e of events) live.add(e);
    const reopened = new History(holdsOf, events);
    expect(JSON.stringify(live.entries, mapJson)).toBe(JSON.stringify(reopened.entries, mapJson));
    expect(live.maskedThrough).toBe(reopened.maskedThrough);
  });

  it('ignores a result whose call is not in the open step', () => {
    const h = new History(holdsOf, log({ type: 'user_message', messageId: 'm', text: 'x' }, result('stray')));
    expect(h.entries).toHaveLength(1);
  });
});

function mapJson(_key: string, value: unknown): unknown {
  return value instanceof Map ? [...value.entries()] : value;
}
