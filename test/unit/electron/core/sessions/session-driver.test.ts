/**
 * The SessionDriver seam: a second driver (a script, no model) drives a session through
 * the seam alone, and the same write and command raise the same cards, checkpoints and
 * transcript rows as when the native runner drives them. A driver gets doors to the gate
 * and the questions, never the objects behind them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { foldEvents } from '../../../../../shared/reducer.js';
import { startHarness, type Harness } from '../core-harness.js';
import { allowEveryCard, runTurn } from '../checkpoints/checkpoint-harness.js';
import { unconfined } from '../../../../support/unconfined.js';
import { scriptedDriver, type ScriptedCall } from './scripted-driver.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const noSandbox = () => unconfined().sandbox;

const write: ScriptedCall = { tool: 'write_file', args: { path: 'a.txt', content: 'new file\n' } };
const command: ScriptedCall = { tool: 'run', args: { argv: ['sh', '-c', 'echo made > made.txt; cat a.txt'] } };

/** What both drivers must agree on: the gated calls' events. */
const SHARED_TYPES = new Set(['tool_call', 'card', 'card_answer', 'checkpoint', 'tool_result']);
/** Made afresh by each run: ids, times (a command's result says how long it took), places. */
const IDS = new Set(['toolCallId', 'cardId', 'turnId', 'messageId', 'before', 'after', 'proposalBlob']);
const TIMES = new Set(['seq', 'ts', 'durationMs']);

interface Driven {
  events: SessionEvent[];
  /** The harness's temp folder, which paths in cards name. */
  root: string;
}

/** A run's events with what differs between any two runs (ids, times, the temp folder) blanked. */
function blank(value: unknown, root: string): unknown {
  if (typeof value === 'string')
    return value.replaceAll(root, '<root>').replace(/duration: [\d.]+ s/g, 'duration: <s>');
  if (Array.isArray(value)) return value.map((v) => blank(v, root));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !TIMES.has(k))
        .map(([k, v]) => [k, IDS.has(k) ? '<id>' : blank(v, root)]),
    );
  }
  return value;
}

function gatedEvents({ events, root }: Driven): unknown[] {
  return events.filter((e) => SHARED_TYPES.has(e.type)).map((e) => blank(e, root));
}

/** The transcript rows of the calls (tool, card, changes) and the turn's end. */
function gatedRows({ events, root }: Driven): unknown[] {
  const rows = foldEvents([...events]).transcript;
  return rows.filter((r) => ['tool', 'card', 'changes', 'turn_end'].includes(r.kind)).map((r) => blank(r, root));
}

/** A turn whose write card the person never answers: they cancel instead. */
async function cancelAtCard(by: 'runner' | 'script'): Promise<Driven> {
  const driver = by === 'script' ? scriptedDriver([[write, command]]) : undefined;
  h = await startHarness(undefined, { sandboxFor: noSandbox, ...(driver ? { driver } : {}) });
  if (by === 'runner') h.fake.enqueue({ toolCalls: [{ name: write.tool, input: write.args }] });
  const id = await h.open();
  await h.call('session.send', { id, text: 'go' });
  await h.event(id, 'card');
  await h.call('session.cancel', { id });
  await h.event(id, 'turn_ended');
  const driven = { events: await h.events(id), root: h.root };
  await h.close();
  h = undefined;
  return driven;
}

/** One turn of `write` then `command`, every card allowed, driven by the native runner or the script. */
async function driveTurn(by: 'runner' | 'script'): Promise<Driven> {
  const driver = by === 'script' ? scriptedDriver([[write, command]]) : undefined;
  h = await startHarness(undefined, { sandboxFor: noSandbox, ...(driver ? { driver } : {}) });
  if (by === 'runner') {
    h.fake.enqueue(
      { toolCalls: [{ name: write.tool, input: write.args }] },
      { toolCalls: [{ name: command.tool, input: command.args }] },
      { text: 'done' },
    );
  }
  allowEveryCard(h);
  const id = await h.open();
  await runTurn(h, id, 'go');
  const driven = { events: await h.events(id), root: h.root };
  await h.close();
  h = undefined;
  return driven;
}

describe('a second driver drives a session through the seam', () => {
  it('raises the same cards, checkpoints and call results as the native runner', async () => {
    const byRunner = await driveTurn('runner');
    const byScript = await driveTurn('script');
    const shared = gatedEvents(byScript);
    expect(shared.map((e) => (e as SessionEvent).type)).toEqual([
      'tool_call',
      'card',
      'card_answer',
      'checkpoint',
      'tool_result',
      'tool_call',
      'card',
      'card_answer',
      'checkpoint',
      'tool_result',
    ]);
    expect(shared).toEqual(gatedEvents(byRunner));
  });

  it('makes the same transcript rows, and the turn ends the same way', async () => {
    const byRunner = await driveTurn('runner');
    const byScript = await driveTurn('script');
    expect(gatedRows(byScript)).toEqual(gatedRows(byRunner));
    expect(foldEvents(byScript.events).transcript.at(-1)).toMatchObject({ kind: 'turn_end', reason: 'finished' });
  });

  it('is cancelled through the turn signal as the runner is: the card withdrawn, the call closed, the turn ended', async () => {
    const types = new Set(['tool_call', 'card', 'card_withdrawn', 'tool_result', 'turn_ended']);
    const shared = ({ events, root }: Driven) => events.filter((e) => types.has(e.type)).map((e) => blank(e, root));
    const byRunner = await cancelAtCard('runner');
    const byScript = await cancelAtCard('script');
    expect(shared(byScript)).toEqual(shared(byRunner));
    expect(byScript.events.filter((e) => types.has(e.type)).map((e) => e.type)).toEqual([
      'tool_call',
      'card',
      'card_withdrawn',
      'tool_result',
      'turn_ended',
    ]);
    expect(byScript.events.at(-1)).toMatchObject({ type: 'turn_ended', reason: 'cancelled' });
    expect(byScript.events.some((e) => e.type === 'checkpoint')).toBe(false);
  });

  it('gets doors to the gate and the questions, not the objects behind them', async () => {
    const driver = scriptedDriver([]);
    h = await startHarness(undefined, { sandboxFor: noSandbox, driver });
    await h.open();
    const [seam] = driver.seams;
    expect(Object.keys(seam!.gate).sort()).toEqual(['forget', 'resume', 'run']);
    expect(Object.keys(seam!.questions).sort()).toEqual(['expect', 'wait']);
  });
});
