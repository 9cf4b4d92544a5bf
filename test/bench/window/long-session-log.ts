/**
 * Writes a long session straight into a data folder with the core's own SessionStore, so
 * the host finds it on start-up exactly as if it had been recorded: 10 events a turn
 * (user message, turn start, three steps of text with a read_file call and its result,
 * turn end). The first user message and the last assistant text carry markers.
 */
import { SessionStore } from '../../../electron/core/log/session-store.js';
import type { ModelConfig } from '../../../shared/contract.js';
import type { EventPayload } from '../../../shared/events.js';

export const FIRST_MARKER = 'FIRST-MESSAGE-MARKER';
export const LAST_MARKER = 'LAST-ANSWER-MARKER';
const EVENTS_PER_TURN = 10;

function turn(n: number, last: boolean): EventPayload[] {
  const turnId = `turn-${n}`;
  const messageId = `msg-${n}`;
  const call = (k: number): EventPayload[] => [
    {
      type: 'tool_call',
      turnId,
      toolCallId: `${turnId}-call-${k}`,
      tool: 'read_file',
      args: { path: `src/file${k}.ts` },
    },
    {
      type: 'tool_result',
      turnId,
      toolCallId: `${turnId}-call-${k}`,
      tool: 'read_file',
      ok: true,
      output: `export const value${k} = ${n};\n`.repeat(20),
    },
  ];
  return [
    {
      type: 'user_message',
      messageId,
      text: n === 0 ? `${FIRST_MARKER} please look at the code` : `Request number ${n}: continue`,
    },
    { type: 'turn_started', turnId, messageId },
    { type: 'assistant_text', turnId, text: `Looking at **file0** for request ${n}.` },
    ...call(0),
    { type: 'assistant_text', turnId, text: `Now \`file1\`, then a summary.\n\n- point one\n- point two` },
    ...call(1),
    { type: 'assistant_text', turnId, text: last ? `${LAST_MARKER}: all done.` : `Done with request ${n}.` },
    { type: 'turn_ended', turnId, reason: 'finished' },
  ];
}

/** Creates the session and appends `events` events (a multiple of 10); returns its id. */
export async function writeLongSession(
  dataDir: string,
  workspace: string,
  title: string,
  model: ModelConfig,
  events: number,
): Promise<string> {
  const store = new SessionStore({ dataDir, durability: 'none' });
  const record = await store.create({ workspace, title, model });
  const turns = Math.ceil(events / EVENTS_PER_TURN);
  for (let n = 0; n < turns; n++) {
    for (const payload of turn(n, n === turns - 1)) await record.log.append(payload);
  }
  await store.dispose();
  return record.id;
}
