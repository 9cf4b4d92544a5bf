import { describe, expect, it } from 'vitest';
import { EVENT_INLINE_MAX_BYTES } from '../../../../../shared/limits.js';
import { SessionStore } from '../../../../../electron/core/log/session-store.js';
import type { SessionRecord } from '../../../../../electron/core/log/session-record.js';
import { loadToolArgs, storeToolArgs } from '../../../../../electron/core/log/stored-tool-args.js';
import type { CardBody, Grant } from '../../../../../shared/cards.js';
import type { EventPayload } from '../../../../../shared/events.js';
import { initialState, reduce, type SessionState } from '../../../../../shared/reducer.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();
const ws = '/home/dev/project';

async function writeCard(session: SessionRecord, cardId: string, turnId: string, toolCallId: string, proposal: string) {
  const body: CardBody = {
    kind: 'write',
    tool: 'write_file',
    path: `${ws}/src/app.ts`,
    inside: true,
    creates: false,
    diff: '@@ -1 +1 @@\n-old\n+new\n',
    diffTruncated: false,
    diffBytes: 22,
    proposalBytes: Buffer.byteLength(proposal),
    beforeBytes: 4,
    digest: 'a'.repeat(64),
    proposalBlob: await session.blobs.put(proposal),
  };
  const grant: Grant = { kind: 'write', path: body.path };
  return { type: 'card', turnId, toolCallId, cardId, body, grant, scope: 'this file' } satisfies EventPayload;
}

function commandCard(cardId: string, turnId: string, toolCallId: string, reasked?: string): EventPayload {
  const body: CardBody = { kind: 'command', tool: 'run', argv: ['npm', 'test'], cwd: ws };
  return {
    type: 'card',
    turnId,
    toolCallId,
    cardId,
    body,
    grant: { kind: 'command', argv: ['npm', 'test'], cwd: ws },
    scope: 'this command',
    ...(reasked ? { reasked: { previousCardId: reasked, reason: 'the folder changed' } } : {}),
  };
}

/** Four turns touching every event type; the last is left waiting on a card, as after a crash. */
async function representativeSession(session: SessionRecord, bigArgs: unknown): Promise<void> {
  const append = (p: EventPayload) => session.log.append(p);
  await append({ type: 'user_message', messageId: 'm1', text: 'make the failing test pass' });
  await append({ type: 'turn_started', turnId: 't1', messageId: 'm1' });
  await append({ type: 'assistant_text', turnId: 't1', text: 'Looking at the test.' });
  await append({ type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'read_file', args: { path: 'a.ts' } });
  await append({ type: 'tool_result', turnId: 't1', toolCallId: 'c1', tool: 'read_file', ok: true, output: 'x' });
  const stored = await storeToolArgs(bigArgs, session.blobs);
  await append({ type: 'tool_call', turnId: 't1', toolCallId: 'c2', tool: 'write_file', ...stored });
  await append(await writeCard(session, 'k1', 't1', 'c2', 'new content'));
  await append({ type: 'queued', messageId: 'm2', text: 'also update the docs' });
  await append({ type: 'card_answer', cardId: 'k1', answer: 'allow_session' });
  await append({ type: 'tool_result', turnId: 't1', toolCallId: 'c2', tool: 'write_file', ok: true, output: 'wrote' });
  await append({ type: 'tool_call', turnId: 't1', toolCallId: 'c3', tool: 'run', args: { argv: ['npm', 'test'] } });
  await append(commandCard('k2', 't1', 'c3'));
  await append({ type: 'card_stale', cardId: 'k2', answer: 'allow_session', reason: 'the folder changed' });
  await append(commandCard('k3', 't1', 'c3', 'k2'));
  await append({ type: 'card_answer', cardId: 'k3', answer: 'deny' });
  await append({ type: 'tool_result', turnId: 't1', toolCallId: 'c3', tool: 'run', ok: false, output: 'denied' });
  await append({ type: 'tool_call', turnId: 't1', toolCallId: 'c4', tool: 'ask', args: { question: 'which?' } });
  await append({
    type: 'question',
    turnId: 't1',
    toolCallId: 'c4',
    questionId: 'q1',
    question: 'which?',
    options: ['a'],
  });
  await append({ type: 'question_answer', questionId: 'q1', text: 'a' });
  await append({ type: 'tool_result', turnId: 't1', toolCallId: 'c4', tool: 'ask', ok: true, output: 'a' });
  await append({ type: 'hook_run', turnId: 't1', argv: ['npm', 'test'], ok: true, exitCode: 0, output: 'ok' });
  await append({ type: 'result', turnId: 't1', summary: 'The test passes.' });
  await append({ type: 'turn_ended', turnId: 't1', reason: 'finished' });

  await append({ type: 'user_message', messageId: 'm2', text: 'also update the docs' });
  await append({ type: 'turn_started', turnId: 't2', messageId: 'm2' });
  await append({ type: 'queued', messageId: 'm3', text: 'and the changelog' });
  await append({ type: 'queued', messageId: 'm4', text: 'and bump the version' });
  await append({ type: 'tool_call', turnId: 't2', toolCallId: 'c5', tool: 'run', args: { argv: ['npm', 'test'] } });
  await append(commandCard('k4', 't2', 'c5'));
  await append({ type: 'card_withdrawn', cardId: 'k4', reason: 'cancelled by the user' });
  await append({ type: 'queue_returned', messageIds: ['m3', 'm4'] });
  await append({ type: 'turn_ended', turnId: 't2', reason: 'cancelled' });

  await append({ type: 'user_message', messageId: 'm5', text: 'try again' });
  await append({ type: 'turn_started', turnId: 't3', messageId: 'm5' });
  await append({ type: 'error', turnId: 't3', message: '503 from the provider' });
  await append({ type: 'turn_ended', turnId: 't3', reason: 'error', message: '503 from the provider' });

  await append({ type: 'user_message', messageId: 'm6', text: 'once more' });
  await append({ type: 'turn_started', turnId: 't4', messageId: 'm6' });
  await append({ type: 'queued', messageId: 'm7', text: 'then stop' });
  await append({ type: 'tool_call', turnId: 't4', toolCallId: 'c6', tool: 'write_file', args: { path: 'b.ts' } });
  await append(await writeCard(session, 'k5', 't4', 'c6', 'other content'));
}

describe('reopening a session', () => {
  it('folds to the same state as the live fold, and carries on where it stopped', async () => {
    const bigArgs = { path: 'src/app.ts', content: 'x'.repeat(EVENT_INLINE_MAX_BYTES) };
    const store = new SessionStore({ dataDir: tmp.path });
    const session = await store.create({ workspace: ws, title: 'replay', model: null });
    let live: SessionState = initialState();
    session.log.onAppend((e) => (live = reduce(live, e)));
    await representativeSession(session, bigArgs);
    await session.close();

    const reopened = await new SessionStore({ dataDir: tmp.path }).open(session.id);
    const state = await reopened.state();
    expect(state).toEqual(live);

    expect(state.lastSeq).toBe(41);
    expect(state.status).toBe('waiting');
    expect(state.turnId).toBe('t4');
    expect(state.openCards.map((c) => c.cardId)).toEqual(['k5']);
    expect(state.grants).toEqual([{ kind: 'write', path: `${ws}/src/app.ts` }]);
    expect(state.queue.map((q) => q.messageId)).toEqual(['m7']);
    expect(state.returned.map((q) => q.messageId)).toEqual(['m3', 'm4']);

    const events = await reopened.log.readEvents();
    const bigCall = events.find((e) => e.type === 'tool_call' && e.toolCallId === 'c2');
    expect(bigCall).toMatchObject({ argsBlob: expect.any(String) });
    expect(bigCall && 'args' in bigCall).toBe(false);
    expect(await loadToolArgs(bigCall as { argsBlob: string }, reopened.blobs)).toEqual(bigArgs);
    const openCard = state.openCards[0];
    if (openCard?.body.kind !== 'write') throw new Error('expected the open write card');
    expect((await reopened.blobs.get(openCard.body.proposalBlob)).toString()).toBe('other content');

    const answer = await reopened.log.append({ type: 'card_answer', cardId: 'k5', answer: 'allow_once' });
    expect(answer.seq).toBe(42);
    expect((await reopened.state()).status).toBe('running');
    await reopened.close();
  });
});
