/**
 * The conversation as the model sees it, folded from the log one event at a time: user
 * messages and model steps (text, tool calls and their results), the latest summary, how
 * far older results are masked, the window the provider stated, and its last token count.
 *
 * It is a pure fold of the events, extended as each is appended and rebuilt whole only
 * when the session opens, so a restart arrives at exactly the same view. A compaction
 * drops the entries it covers, so the fold's size follows the context, not the log.
 *
 * The runner logs a step as: assistant_text (if any), every tool_call of the step, then
 * their tool_results (cards, questions and hook runs may sit between). A call or text
 * after results have come back starts the next step.
 */
import type { SessionEvent, StepUsageRecord } from '../../../shared/events.js';
import { hookFailedNote } from '../hooks/hook-report.js';
import { restoreNote, type MessagePosition } from './restore-note.js';
import type { ResultHolds } from '../tool-shape/tool-shown.js';

/** What a tool's results hold, by the tool's name; undefined for a tool that says nothing (or is gone). */
export type HoldsOf = (tool: string) => ResultHolds | undefined;

export type ToolResultEvent = Extract<SessionEvent, { type: 'tool_result' }>;
export type CompactionEvent = Extract<SessionEvent, { type: 'compaction' }>;

export interface CallPart {
  type: 'call';
  seq: number;
  toolCallId: string;
  tool: string;
  args?: unknown;
  argsBlob?: string;
}

export type StepPart = { type: 'text'; text: string } | CallPart;

export type Entry =
  /** A user message, or a note that a Stop hook failed after a plain-text finish. */
  | { kind: 'user'; seq: number; lastSeq: number; text: string }
  | { kind: 'step'; seq: number; lastSeq: number; parts: StepPart[]; results: Map<string, ToolResultEvent> };

export type StepEntry = Extract<Entry, { kind: 'step' }>;

/** The provider's count for one request, with that request's size in bytes. */
export interface Calibration {
  tokens: number;
  bytes: number;
}

export class History {
  private list: Entry[] = [];
  private compaction: CompactionEvent | null = null;
  private masked = 0;
  private stated = new Map<string, number>();
  private measured: Calibration | null = null;
  private users: Array<{ seq: number; text: string }> = [];
  private named = new Map<string, Set<string>>();
  private blobCalls: Array<{ tool: string; argsBlob: string }> = [];

  /**
   * `messagePosition` places a message the person sent by its seq, even one a rewind took
   * out of this fold (a rewind's note names it by that place, never by its text).
   */
  constructor(
    private readonly holdsOf: HoldsOf,
    events: Iterable<SessionEvent> = [],
    private readonly messagePosition: MessagePosition = () => undefined,
  ) {
    for (const event of events) this.add(event);
  }

  get entries(): readonly Entry[] {
    return this.list;
  }

  /** The latest compaction, whose summary stands in for everything up to its toSeq. */
  get summary(): CompactionEvent | null {
    return this.compaction;
  }

  /** Tool results (and large call arguments) at or below this seq are masked. */
  get maskedThrough(): number {
    return this.masked;
  }

  get calibration(): Calibration | null {
    return this.measured;
  }

  /** Every message the person sent, kept through compactions (a summary lists them verbatim). */
  get userMessages(): ReadonlyArray<{ seq: number; text: string }> {
    return this.users;
  }

  /** Paths the file tools were called on, with how (read, written...), kept through compactions. */
  get files(): ReadonlyMap<string, Set<string>> {
    return this.named;
  }

  /** Calls whose arguments are in a blob: their paths are read when a summary needs them. */
  get callsInBlobs(): ReadonlyArray<{ tool: string; argsBlob: string }> {
    return this.blobCalls;
  }

  /** Records the path a file tool was called on. */
  private nameFile(tool: string, args: unknown): void {
    const use = fileUse(this.holdsOf(tool), args);
    if (!use) return;
    let set = this.named.get(use.path);
    if (!set) this.named.set(use.path, (set = new Set()));
    set.add(use.how);
  }

  /** The window the provider stated for this model, if it ever refused a request as too long. */
  statedWindow(model: string): number | null {
    return this.stated.get(model) ?? null;
  }

  add(e: SessionEvent): void {
    switch (e.type) {
      case 'user_message':
        this.users.push({ seq: e.seq, text: e.text });
        return this.push({ kind: 'user', seq: e.seq, lastSeq: e.seq, text: e.text });
      case 'hook_run':
        if (!e.toolCallId && !e.ok) {
          this.push({ kind: 'user', seq: e.seq, lastSeq: e.seq, text: hookFailedNote(e) });
        }
        return;
      case 'assistant_text':
        return this.addPart(e.seq, { type: 'text', text: e.text });
      case 'tool_call':
        if (e.argsBlob !== undefined) this.blobCalls.push({ tool: e.tool, argsBlob: e.argsBlob });
        else this.nameFile(e.tool, e.args);
        return this.addPart(e.seq, {
          type: 'call',
          seq: e.seq,
          toolCallId: e.toolCallId,
          tool: e.tool,
          ...(e.argsBlob !== undefined ? { argsBlob: e.argsBlob } : { args: e.args }),
        });
      case 'tool_result':
        return this.addResult(e);
      case 'usage':
        return this.calibrate(e);
      case 'context_masked':
        this.masked = Math.max(this.masked, e.throughSeq);
        return;
      case 'compaction':
        return this.compact(e);
      case 'undo':
      case 'redo':
      case 'rewind':
        return this.noteRestore(e);
      case 'context_window':
        this.stated.set(e.model, e.tokens);
        if (e.requestTokens && e.requestBytes) this.measured = { tokens: e.requestTokens, bytes: e.requestBytes };
        return;
      default:
        return;
    }
  }

  /** Files an undo, redo or rewind put back: the model reads one line saying which. */
  private noteRestore(e: Extract<SessionEvent, { type: 'undo' | 'redo' | 'rewind' }>): void {
    const note = restoreNote(e, this.messagePosition);
    if (note) this.push({ kind: 'user', seq: e.seq, lastSeq: e.seq, text: note });
  }

  private push(entry: Entry): void {
    this.list.push(entry);
  }

  private addPart(seq: number, part: StepPart): void {
    const last = this.list.at(-1);
    if (last?.kind === 'step' && last.results.size === 0) {
      last.parts.push(part);
      last.lastSeq = seq;
      return;
    }
    this.push({ kind: 'step', seq, lastSeq: seq, parts: [part], results: new Map() });
  }

  /** A result belongs to the open step's call with its id; anything else (a stray id) is not the model's. */
  private addResult(e: ToolResultEvent): void {
    const last = this.list.at(-1);
    if (last?.kind !== 'step') return;
    if (!last.parts.some((p) => p.type === 'call' && p.toolCallId === e.toolCallId)) return;
    last.results.set(e.toolCallId, e);
    last.lastSeq = e.seq;
  }

  private calibrate(e: StepUsageRecord): void {
    if (e.inputTokens !== null && e.inputTokens > 0 && e.requestBytes > 0) {
      this.measured = { tokens: e.inputTokens, bytes: e.requestBytes };
    }
  }

  private compact(e: CompactionEvent): void {
    this.compaction = e;
    this.list = this.list.filter((entry) => entry.seq > e.toSeq);
  }
}

/** The path a call names, and what it did with it; null for a call that names no file. */
export function fileUse(holds: ResultHolds | undefined, args: unknown): { path: string; how: string } | null {
  const file = holds?.file;
  if (!file || args === null || typeof args !== 'object') return null;
  const path = (args as { path?: unknown }).path;
  if (typeof path === 'string' && path !== '') return { path, how: file.how };
  return file.defaultPath !== undefined ? { path: file.defaultPath, how: file.how } : null;
}
