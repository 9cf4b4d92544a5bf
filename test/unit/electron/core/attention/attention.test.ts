/**
 * Attention decides what needs the user: which sessions are waiting (for the tray and the
 * badge) and when a card or question deserves a notification — never when the user is
 * already looking at that session, never when notifications are off.
 */
import { describe, expect, it } from 'vitest';
import type { Push, SessionSummary } from '../../../../../shared/contract.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import {
  Attention,
  type AttentionSink,
  type WaitingSession,
} from '../../../../../electron/core/attention/attention.js';
import { RAISED_BODY_MAX_CHARS } from '../../../../../electron/core/attention/raised-text.js';

function recordingSink() {
  const waiting: WaitingSession[][] = [];
  const raised: { sessionId: string; title: string; body: string }[] = [];
  const sink: AttentionSink = {
    waitingChanged: (list) => waiting.push(list),
    cardRaised: (sessionId, title, body) => raised.push({ sessionId, title, body }),
  };
  return { sink, waiting, raised };
}

function summary(id: string, waiting: number, updatedAt = '2026-01-01T00:00:00.000Z'): SessionSummary {
  return {
    id,
    title: `title ${id}`,
    workspace: `/ws/${id}`,
    status: waiting > 0 ? 'waiting' : 'idle',
    model: null,
    createdAt: updatedAt,
    updatedAt,
    waiting,
  };
}

const changed = (s: SessionSummary): Push => ({ name: 'sessions.changed', payload: { summary: s } });

function writeCard(path: string): SessionEvent {
  return {
    seq: 5,
    ts: '2026-01-01T00:00:00.000Z',
    type: 'card',
    turnId: 't',
    toolCallId: 'c',
    cardId: 'card-1',
    body: {
      kind: 'write',
      tool: 'write_file',
      path,
      inside: true,
      creates: true,
      diff: '',
      diffTruncated: false,
      diffBytes: 0,
      proposalBytes: 1,
      beforeBytes: null,
      digest: 'absent',
      proposalBlob: 'b',
    },
    grant: { kind: 'write', path },
    scope: 'writes to this file',
  } as SessionEvent;
}

const raisedIn = (id: string, event: SessionEvent): Push => ({ name: 'session.event', payload: { id, event } });

describe('Attention', () => {
  it('lists the waiting sessions, oldest first, and tells the sink only when the list changed', () => {
    const { sink, waiting } = recordingSink();
    const attention = new Attention(sink);
    attention.seed([summary('a', 0), summary('b', 1, '2026-01-02T00:00:00.000Z')]);
    attention.onPush(changed(summary('a', 2, '2026-01-01T00:00:00.000Z')));
    attention.onPush(changed(summary('a', 2, '2026-01-01T00:00:00.000Z')));
    attention.onPush(changed(summary('b', 0)));
    expect(waiting).toEqual([
      [{ id: 'b', title: 'title b', waiting: 1 }],
      [
        { id: 'a', title: 'title a', waiting: 2 },
        { id: 'b', title: 'title b', waiting: 1 },
      ],
      [{ id: 'a', title: 'title a', waiting: 2 }],
    ]);
  });

  it('raises a card that goes up in a session the user is not looking at', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.seed([summary('a', 0), summary('b', 0)]);
    attention.setActive({ id: 'b', visible: true });
    attention.onPush(raisedIn('a', writeCard('/ws/a/notes.md')));
    expect(raised).toEqual([{ sessionId: 'a', title: 'title a: Permission to write', body: '/ws/a/notes.md' }]);
  });

  it('raises nothing when the user is looking at that very session', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.setActive({ id: 'a', visible: true });
    attention.onPush(raisedIn('a', writeCard('/ws/a/notes.md')));
    expect(raised).toEqual([]);
    expect(attention.isLooking('a')).toBe(true);
  });

  it('raises a card in the active tab when the window is not visible or focused', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.setActive({ id: 'a', visible: false });
    attention.onPush(raisedIn('a', writeCard('/x')));
    expect(raised).toHaveLength(1);
  });

  it('raises questions too, and nothing for other events', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.onPush(
      raisedIn('a', {
        seq: 1,
        ts: 't',
        type: 'question',
        turnId: 't',
        toolCallId: 'c',
        questionId: 'q',
        question: 'Which branch?',
      } as SessionEvent),
    );
    attention.onPush(
      raisedIn('a', { seq: 2, ts: 't', type: 'assistant_text', turnId: 't', text: 'hi' } as SessionEvent),
    );
    expect(raised).toEqual([{ sessionId: 'a', title: 'Gatehouse: Question', body: 'Which branch?' }]);
  });

  it('raises nothing while notifications are off', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.setNotifications(false);
    attention.onPush(raisedIn('a', writeCard('/x')));
    attention.setNotifications(true);
    attention.onPush(raisedIn('a', writeCard('/y')));
    expect(raised.map((r) => r.body)).toEqual(['/y']);
  });

  it('keeps markup and invisible characters out of a notification, and keeps it short', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.onPush(raisedIn('a', writeCard('/ws/<b>x</b>&\u202eevil\n' + 'y'.repeat(500))));
    const body = raised[0]!.body;
    expect(body).not.toMatch(/[<>&\u202e\n]/);
    expect(body.length).toBeLessThanOrEqual(RAISED_BODY_MAX_CHARS);
    expect(body.startsWith('/ws/‹b›x‹/b›+ evil ')).toBe(true);
  });
});

describe("Attention and the shell's window focus", () => {
  it('raises a card in the active tab once the shell says its window lost focus, before the renderer reports it', () => {
    const { sink, raised } = recordingSink();
    const attention = new Attention(sink);
    attention.setActive({ id: 'a', visible: true });
    attention.setShellFocused(false);
    attention.onPush(raisedIn('a', writeCard('/x')));
    attention.setShellFocused(true);
    attention.onPush(raisedIn('a', writeCard('/y')));
    expect(raised.map((r) => r.body)).toEqual(['/x']);
  });
});
