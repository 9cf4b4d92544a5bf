/**
 * The note the model reads after an undo, a redo or a rewind of the code. A rewind names
 * its point by the message's place among those the person sent, never by its words: a
 * person rewinds to take a message back (a pasted secret, a wrong instruction).
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../../../shared/contract.js';
import type { EventPayload, RewindRestore, SessionEvent } from '../../../../../shared/events.js';
import type { ChatClient } from '../../../../../electron/core/chat/chat-client.js';
import { restoreNote } from '../../../../../electron/core/context/restore-note.js';
import { messagePosition } from '../../../../../electron/core/context/rewound.js';
import { SessionContext } from '../../../../../electron/core/context/session-context.js';
import { withAgentTools } from '../../../../../electron/core/runner/agent-tools.js';
import { WORKSPACE_TOOLS } from '../../../../../electron/core/tools/tools.js';

const SECRET = 'sk-live-9f8e7d6c5b4a3f2e1d0c';
const TAKEN_BACK = `use this key: ${SECRET} and delete the tests`;

const model: ModelConfig = {
  provider: 'anthropic',
  modelId: 'test-model',
  contextWindow: 60_000,
  maxOutputTokens: 4_000,
  prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

const chat: ChatClient = { step: () => Promise.reject(new Error('no model step is expected here')) };

const restored = (...paths: string[]) => ({
  before: 'tree-before',
  after: 'tree-after',
  restored: paths.map((path) => ({ path, change: 'modified' as const, bytes: 10 })),
  kept: [],
});

/** A session: two messages, the second with a secret and a write, then a rewind to before it. */
function sessionLog(restore: RewindRestore): EventPayload[] {
  return [
    { type: 'user_message', messageId: 'm1', text: 'hello' },
    { type: 'assistant_text', turnId: 't1', text: 'Hi.' },
    { type: 'user_message', messageId: 'm2', text: TAKEN_BACK },
    { type: 'tool_call', turnId: 't2', toolCallId: 'c1', tool: 'write_file', args: { path: 'a.ts', content: 'x' } },
    { type: 'tool_result', turnId: 't2', toolCallId: 'c1', tool: 'write_file', ok: true, output: 'wrote a.ts' },
    {
      type: 'rewind',
      messageSeq: 3,
      restore,
      ...(restore === 'conversation' ? {} : { code: restored('a.ts') }),
    },
    { type: 'user_message', messageId: 'm3', text: 'start again' },
  ];
}

function numbered(payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ ...p, seq: i + 1, ts: '2026-12-06T00:00:00.000Z' }) as SessionEvent);
}

function context(events: SessionEvent[]): SessionContext {
  return new SessionContext({
    sessionId: 'session-1',
    events,
    workspace: null,
    home: '/nonexistent',
    tools: () => withAgentTools(WORKSPACE_TOOLS),
    getBlob: () => Promise.reject(new Error('no blobs here')),
    append: () => Promise.reject(new Error('nothing is logged here')),
  });
}

/** The next step's messages as JSON: folded as the events came, and folded whole after a restart. */
async function nextRequests(restore: RewindRestore): Promise<string[]> {
  const events = numbered(sessionLog(restore));
  const log: SessionEvent[] = [];
  const live = context(log);
  for (const e of events) {
    log.push(e);
    live.add(e);
  }
  const reopened = context(events);
  const call = { turnId: 't3', chat, model, signal: new AbortController().signal };
  return [JSON.stringify((await live.next(call)).messages), JSON.stringify((await reopened.next(call)).messages)];
}

describe('the note after a rewind', () => {
  it.each(['code', 'both'] as const)(
    'for "%s", names the point as the message\'s place in the session, never its words',
    async (restore) => {
      for (const sent of await nextRequests(restore)) {
        const note = /\[The user rewound the workspace[^\]]*\]/.exec(sent)?.[0];
        expect(note).toBe(
          '[The user rewound the workspace to before their message 2 of this session (counting every message they sent, taken back or not): a.ts are back as they were then. Read them again before relying on what you remember of them.]',
        );
        for (const words of [SECRET, 'sk-live', 'this key', 'delete the tests']) expect(note).not.toContain(words);
      }
    },
  );

  it.each(['conversation', 'both'] as const)(
    'for "%s", the next request holds nothing of the message taken back',
    async (restore) => {
      for (const sent of await nextRequests(restore)) {
        expect(sent).toContain('start again');
        expect(sent).not.toContain(SECRET);
        expect(sent).not.toContain('delete the tests');
      }
    },
  );

  it('for "conversation" alone, adds no note: no file moved', async () => {
    for (const sent of await nextRequests('conversation')) expect(sent).not.toContain('rewound');
  });

  it('says "one of their earlier messages" when the seq holds no message the person sent', () => {
    const [rewind] = numbered([{ type: 'rewind', messageSeq: 99, restore: 'code', code: restored('a.ts') }]);
    const note = rewind?.type === 'rewind' ? restoreNote(rewind, () => undefined) : null;
    expect(note).toContain('to before one of their earlier messages: a.ts are back');
  });
});

describe("a message's place in the session", () => {
  const events = numbered(sessionLog('both'));

  it('counts every message the person sent up to it, rewound ones too', () => {
    expect(messagePosition(events, 1)).toBe(1);
    expect(messagePosition(events, 3)).toBe(2);
    expect(messagePosition(events, 7)).toBe(3);
  });

  it('is undefined for a seq that holds no user message', () => {
    expect(messagePosition(events, 2)).toBeUndefined();
    expect(messagePosition(events, 99)).toBeUndefined();
  });
});
