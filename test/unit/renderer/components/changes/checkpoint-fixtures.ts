/**
 * Sessions with checkpoints for the renderer's tests (SPEC §12): a turn that wrote a file
 * and ran a command that changed two, as the core logs it, and a way to append the events
 * that arrive while a test looks at the window.
 */
import { act } from '@testing-library/react';
import type { ChangedFile, ChangesView } from '../../../../../shared/checkpoints';
import type { EventPayload } from '../../../../../shared/events';
import { foldEvents } from '../../../../../shared/reducer';
import type { AppStore } from '../../../../../renderer/src/store/app-store';
import { eventsFrom } from '../../fake-api';
import { commandBody, grantOfBody, WORKSPACE, writeBody } from '../cards/card-fixtures';
import { describeGrant, type CardBody } from '../../../../../shared/cards';

export const CALC: ChangedFile = { path: 'calc.py', change: 'modified', bytes: 1229 };
export const OUT: ChangedFile = { path: 'out/report.txt', change: 'added', bytes: 300 };
export const OLD: ChangedFile = { path: 'old.txt', change: 'deleted', bytes: 50 };

export const CALC_DIFF =
  '--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n';

/** The payloads of a card for a call, as the gate logs it. */
export function cardFor(toolCallId: string, cardId: string, body: CardBody, turnId = 't1'): EventPayload {
  const grant = grantOfBody(body);
  return { type: 'card', turnId, toolCallId, cardId, body, grant, scope: describeGrant(grant) };
}

export const WRITE_CALC = writeBody({ tool: 'search_replace', path: `${WORKSPACE}/calc.py` });
export const RUN_GEN = commandBody(['python', 'gen.py']);

/** The person's message at seq 1, then a write allowed once (seq 3–7) and a command allowed (8–12). */
export function turnThatChanged(turnId = 't1', text = 'fix the calculator'): EventPayload[] {
  return [
    { type: 'user_message', messageId: `m-${turnId}`, text },
    { type: 'turn_started', turnId, messageId: `m-${turnId}` },
    { type: 'tool_call', turnId, toolCallId: 'c1', tool: 'search_replace', args: { path: 'calc.py' } },
    cardFor('c1', `k1-${turnId}`, WRITE_CALC, turnId),
    { type: 'card_answer', cardId: `k1-${turnId}`, answer: 'allow_once' },
    checkpoint(turnId, 'c1', [CALC]),
    { type: 'tool_result', turnId, toolCallId: 'c1', tool: 'search_replace', ok: true, output: 'replaced 1' },
    { type: 'tool_call', turnId, toolCallId: 'c2', tool: 'run', args: { argv: ['python', 'gen.py'] } },
    cardFor('c2', `k2-${turnId}`, RUN_GEN, turnId),
    { type: 'card_answer', cardId: `k2-${turnId}`, answer: 'allow_session' },
    checkpoint(turnId, 'c2', [OUT, OLD]),
    { type: 'tool_result', turnId, toolCallId: 'c2', tool: 'run', ok: true, output: 'exit 0' },
  ];
}

export function checkpoint(turnId: string, toolCallId: string, changed: ChangedFile[]): EventPayload {
  return { type: 'checkpoint', turnId, toolCallId, before: `b-${toolCallId}`, after: `a-${toolCallId}`, changed };
}

export const ended = (turnId = 't1'): EventPayload => ({ type: 'turn_ended', turnId, reason: 'finished' });

/** Folds more events onto a loaded session, numbered after its last, as pushes would. */
export function appendEvents(store: AppStore, id: string, payloads: EventPayload[]): void {
  const entry = store.getState().sessions[id]!;
  const events = eventsFrom(entry.state!.lastSeq + 1, payloads);
  act(() => store.getState().replaceEntries({ [id]: { ...entry, state: foldEvents(events, entry.state!) } }));
}

/** The turn's Changes as the core answers them. */
export function turnView(overrides: Partial<ChangesView> = {}): ChangesView {
  return {
    turnId: 't1',
    files: [
      { ...CALC, diff: CALC_DIFF, diffTruncated: false },
      { ...OUT, diff: '--- /dev/null\n+++ b/out/report.txt\n@@ -0,0 +1 @@\n+total: 3\n', diffTruncated: false },
      { ...OLD, diff: '--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n', diffTruncated: false },
    ],
    undo: { ok: true },
    ...overrides,
  };
}
