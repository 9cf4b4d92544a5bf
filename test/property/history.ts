/**
 * A history: what happens, step by step, to two sessions and the world around them.
 * Paths are written with placeholders (<ws>, <out>, <mk>, <root>) so a history reads the
 * same and replays the same in any temp folder.
 */
import type { Answer } from '../../shared/cards.js';
import type { RewindRestore } from '../../shared/events.js';
import type { WorldOp } from './world.js';

/**
 * The person's own version of a card's file, answered with "Allow with my edits" (SPEC §13),
 * built from the card's proposal (from nothing on a card with none): `splice` deletes `del`
 * characters at `at` (counted modulo the proposal's length) and puts `text` there, so a
 * splice of nothing is the proposal itself; `whole` is a file of its own; `limit` is exactly
 * 256 KiB in UTF-8 (the most a write may be), `oversize` one byte more in fewer than 256K
 * characters, `nul` the proposal with a NUL in it.
 */
export type Edit =
  | { kind: 'splice'; at: number; del: number; text: string }
  | { kind: 'whole'; text: string }
  | { kind: 'limit' }
  | { kind: 'oversize' }
  | { kind: 'nul' };

export type Step =
  /** The model's next step in session s is this tool call (a turn is started first if none runs). */
  | { kind: 'call'; s: number; tool: string; args: unknown }
  /** The model's next step in session s is plain text: finish. */
  | { kind: 'finish'; s: number }
  /** The person sends a message (it starts a turn, or queues, or is refused). */
  | { kind: 'send'; s: number }
  /**
   * The person answers a card of session s: pick indexes open cards first, then every card
   * ever shown; `edit` sends their version of the file with the answer.
   */
  | { kind: 'answer'; s: number; pick: number; answer: Answer; edit?: Edit }
  | { kind: 'cancel'; s: number }
  /** The app quits and starts again over the same data folder; `answer` answers each open card at once, while the gate still takes it up again. */
  | { kind: 'restart'; answer?: Answer; edit?: Edit }
  /** The person presses Restart on session s's MCP server in Settings (it starts at once only on a grant). */
  | { kind: 'mcpRestart'; s: number }
  /**
   * The person undoes a turn of session s (SPEC §12): `turn` counts back from its last turn
   * that changed files (any turn when none did); `only` picks some of the turn's files (bit i
   * for its i-th path, sorted), else all; `tick` overwrites the files changed since.
   */
  | { kind: 'undo'; s: number; turn: number; only?: number; tick?: boolean }
  /** The person redoes session s's latest undo not yet redone. */
  | { kind: 'redo'; s: number; tick?: boolean }
  /** The person rewinds session s to a message it sent: `message` counts back from its last one. */
  | { kind: 'rewind'; s: number; message: number; restore: RewindRestore; tick?: boolean }
  | { kind: 'world'; op: WorldOp };

/** The person's steps that take files back: each is refused while the session's turn runs. */
export type RestoreStep = Extract<Step, { kind: 'undo' | 'redo' | 'rewind' }>;

export function isRestoreStep(step: Step): step is RestoreStep {
  return step.kind === 'undo' || step.kind === 'redo' || step.kind === 'rewind';
}

export interface History {
  /** Session 1's workspace: the same folder as session 0's, or its `sub` folder. */
  second: 'same' | 'nested';
  steps: Step[];
  /** The workspace lists a Stop hook (a marker command), so every finish asks to run it. */
  hooks: boolean;
  /** Set on a sampled share: the core runs in a host process that gets a kill -9 in that step. */
  crash: { at: number; delayMs: number } | null;
  /**
   * Set on a sampled share: each session's workspace has a .mcp.json naming the test MCP
   * server `t` (logging what it receives to a file of its own), and the model calls its tools.
   * Session 1 then works in the nested folder, so each session has a config, and a log, of its own.
   */
  mcp?: boolean;
  /**
   * Set on a sampled share: a confined racer keeps swapping the workspace's `race/d` with a
   * link to a folder outside it for the whole history (race-zone.ts), and the model greps,
   * reads and lists there while the person undoes what a command changed there.
   */
  racer?: boolean;
}

export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'call':
      return `s${step.s} model calls ${step.tool} ${JSON.stringify(step.args)}`;
    case 'finish':
      return `s${step.s} model finishes`;
    case 'send':
      return `s${step.s} person sends a message`;
    case 'answer':
      return `s${step.s} person answers card #${step.pick} with ${step.answer}${edited(step.edit)}`;
    case 'cancel':
      return `s${step.s} person cancels`;
    case 'restart':
      return step.answer
        ? `the app restarts, and open cards are answered ${step.answer}${edited(step.edit)} at once`
        : 'the app restarts';
    case 'mcpRestart':
      return `s${step.s} person restarts the MCP server in Settings`;
    case 'undo': {
      const which = step.turn === 0 ? 'its last turn' : `its turn ${step.turn} before the last`;
      const only = step.only === undefined ? '' : ` (only files picked by bits ${step.only.toString(2)})`;
      return `s${step.s} person undoes ${which}${only}${ticked(step.tick)}`;
    }
    case 'redo':
      return `s${step.s} person redoes the latest undo${ticked(step.tick)}`;
    case 'rewind': {
      const which = step.message === 0 ? 'its last message' : `its message ${step.message} before the last`;
      return `s${step.s} person rewinds to ${which}, restoring ${step.restore}${ticked(step.tick)}`;
    }
    case 'world':
      return `world: ${JSON.stringify(step.op)}`;
  }
}

function edited(edit: Edit | undefined): string {
  if (!edit) return '';
  switch (edit.kind) {
    case 'splice':
      return ` and edits (at ${edit.at}, ${edit.del} deleted, ${JSON.stringify(edit.text)} put in)`;
    case 'whole':
      return ` and edits (the whole file ${JSON.stringify(edit.text)})`;
    case 'limit':
      return ' and edits (exactly 256 KiB in UTF-8)';
    case 'oversize':
      return ' and edits (256 KiB and a byte in UTF-8, fewer characters)';
    case 'nul':
      return ' and edits (with a NUL in them)';
  }
}

function ticked(tick: boolean | undefined): string {
  return tick ? ', ticking every file changed since' : '';
}

export function describeHistory(h: History): string {
  const lines = h.steps.map((s, i) => `${String(i + 1).padStart(3)}. ${describeStep(s)}`);
  const hooks = h.hooks ? ['the workspace has a Stop hook'] : [];
  const mcp = h.mcp ? ['each workspace names the test MCP server t in its .mcp.json'] : [];
  const racer = h.racer ? ['a confined racer keeps swapping <ws>/race/d with a link to <out>/deep'] : [];
  const crash = h.crash ? [`in a host process, killed -9 ${h.crash.delayMs} ms into step ${h.crash.at + 1}`] : [];
  return [
    `session 1 workspace: ${h.second === 'same' ? 'same as session 0' : '<ws>/sub'}`,
    ...hooks,
    ...mcp,
    ...racer,
    ...crash,
    ...lines,
  ].join('\n');
}
