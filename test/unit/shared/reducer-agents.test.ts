/**
 * An external agent's events in the fold: its plan is one row per turn showing the latest
 * list, and its own session id is kept for the next start to load.
 */
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/events.js';
import { foldEvents } from '../../../shared/reducer.js';

const at = (seq: number, e: Record<string, unknown>) => ({ seq, ts: '2026-12-06T04:00:00.000Z', ...e }) as SessionEvent;

describe('an agent’s plan and session in the state', () => {
  it('keeps one plan row per turn, where the first plan stood, with the latest entries', () => {
    const s = foldEvents([
      at(1, { type: 'plan', turnId: 't1', entries: [{ content: 'a', status: 'pending', priority: 'high' }] }),
      at(2, { type: 'assistant_text', turnId: 't1', text: 'working' }),
      at(3, { type: 'plan', turnId: 't1', entries: [{ content: 'a', status: 'completed', priority: 'high' }] }),
      at(4, { type: 'plan', turnId: 't2', entries: [] }),
    ]);
    expect(s.transcript.map((r) => r.kind)).toEqual(['plan', 'assistant', 'plan']);
    expect(s.transcript[0]).toEqual({
      kind: 'plan',
      seq: 1,
      turnId: 't1',
      entries: [{ content: 'a', status: 'completed', priority: 'high' }],
    });
  });

  it('keeps the latest agent session', () => {
    const agent = { id: 'gemini-cli', label: 'Gemini CLI', version: '1' };
    const s = foldEvents([
      at(1, { type: 'agent_session', agent, agentSessionId: 'one' }),
      at(2, { type: 'agent_session', agent, agentSessionId: 'two' }),
    ]);
    expect(s.agentSession).toEqual({ agent, agentSessionId: 'two' });
  });
});
