/**
 * History entries as AI SDK messages, masked or whole, with their size in bytes. Each
 * entry is rendered once per state and kept, so a step costs the new entries, not the
 * whole conversation again.
 */
import type { AssistantModelMessage, ModelMessage, TextPart, ToolCallPart, ToolResultPart } from 'ai';
import { EVENT_INLINE_MAX_BYTES } from '../../../shared/limits.js';
import type { CallPart, CompactionEvent, Entry, HoldsOf, StepEntry } from './history.js';
import { maskedArgs, maskedResult, worthMasking } from './masking-stubs.js';

export const NO_RESULT = 'no result: the turn stopped before this call ran';

export interface Rendered {
  messages: ModelMessage[];
  /** UTF-8 bytes of everything the messages carry (texts, tool names, argument JSON, results). */
  bytes: number;
}

export type LoadArgs = (part: CallPart) => Promise<unknown>;

/** An entry's two renderings, each made once for as long as the entry does not grow. */
interface Renderings {
  lastSeq: number;
  whole?: Rendered;
  masked?: Rendered;
}

export class Renderer {
  private readonly cache = new WeakMap<Entry, Renderings>();

  constructor(
    private readonly loadArgs: LoadArgs,
    private readonly holdsOf: HoldsOf,
  ) {}

  /**
   * The entry whole or masked. Both renderings are kept: above the masking trigger every
   * step asks for both, and one slot would render each entry twice per step.
   */
  async entry(entry: Entry, masked: boolean): Promise<Rendered> {
    let kept = this.cache.get(entry);
    if (kept?.lastSeq !== entry.lastSeq) this.cache.set(entry, (kept = { lastSeq: entry.lastSeq }));
    const slot = masked ? 'masked' : 'whole';
    const hit = kept[slot];
    if (hit) return hit;
    const messages = entry.kind === 'user' ? [userMessage(entry.text)] : await this.step(entry, masked);
    const rendered = { messages, bytes: messages.reduce((n, m) => n + messageBytes(m), 0) };
    // An entry that grew while this one rendered keeps its newer slots.
    if (this.cache.get(entry) === kept) kept[slot] = rendered;
    return rendered;
  }

  private async step(step: StepEntry, masked: boolean): Promise<ModelMessage[]> {
    const parts: Array<TextPart | ToolCallPart> = [];
    const calls: ToolCallPart[] = [];
    for (const part of step.parts) {
      if (part.type === 'text') {
        parts.push({ type: 'text', text: part.text });
        continue;
      }
      const input = asInput(await this.loadArgs(part));
      const call: ToolCallPart = {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.tool,
        input: masked || uselessBulk(step, part, input) ? maskedArgs(input) : input,
      };
      parts.push(call);
      calls.push(call);
    }
    const assistant: AssistantModelMessage = { role: 'assistant', content: parts };
    if (calls.length === 0) return [assistant];
    const content: ToolResultPart[] = calls.map((call) => ({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: this.resultOutput(step, call, masked),
    }));
    return [assistant, { role: 'tool', content }];
  }

  private resultOutput(step: StepEntry, call: ToolCallPart, masked: boolean): ToolResultPart['output'] {
    const r = step.results.get(call.toolCallId);
    if (!r) return { type: 'error-text', value: NO_RESULT };
    const hidden = masked && worthMasking(r.output);
    const value = hidden ? maskedResult(r.tool, this.holdsOf(r.tool), r.output, r.seq) : r.output;
    return r.ok ? { type: 'text', value } : { type: 'error-text', value };
  }
}

/**
 * A call that failed (refused, denied, invalid) did nothing with arguments too large to
 * sit in the log inline; sending them again at every step would only fill the window.
 */
function uselessBulk(step: StepEntry, part: CallPart, input: unknown): boolean {
  const r = step.results.get(part.toolCallId);
  return r !== undefined && !r.ok && jsonBytes(input) > EVENT_INLINE_MAX_BYTES;
}

export function userMessage(text: string): ModelMessage {
  return { role: 'user', content: text };
}

/** The message that stands in for the history a compaction covers. */
export function summaryMessage(c: Pick<CompactionEvent, 'fromSeq' | 'toSeq' | 'summary'>): ModelMessage {
  return userMessage(
    `The earlier part of this session (log events ${c.fromSeq}–${c.toSeq}) was summarised to fit the context window. ` +
      `The summary follows; continue from it.\n\n<summary>\n${c.summary}\n</summary>`,
  );
}

/** Providers need an object as a tool call's input; a malformed one is wrapped so it still reads back. */
function asInput(input: unknown): unknown {
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? input
    : { invalid_input: input ?? null };
}

export function messageBytes(m: ModelMessage): number {
  if (typeof m.content === 'string') return Buffer.byteLength(m.content);
  let n = 0;
  for (const part of m.content) {
    if (part.type === 'text') n += Buffer.byteLength(part.text);
    else if (part.type === 'tool-call') n += Buffer.byteLength(part.toolName) + jsonBytes(part.input);
    else if (part.type === 'tool-result') {
      const out = part.output;
      n +=
        Buffer.byteLength(part.toolName) +
        (out.type === 'text' || out.type === 'error-text' ? Buffer.byteLength(out.value) : jsonBytes(out));
    }
  }
  return n;
}

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}
