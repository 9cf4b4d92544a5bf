/**
 * Rebuilds the model's conversation from the session log. The log is the only memory:
 * a turn resumed after a restart sends exactly what a live turn would have.
 *
 * The runner logs a step as: assistant_text (if any), then every tool_call of the step,
 * then their tool_results (cards, questions and hook runs may sit between). A tool call
 * left without a result (a crash, a cancel) gets a synthetic error result, because the
 * providers refuse a tool call that has no answer.
 */
import type { ModelMessage, ToolCallPart, ToolResultPart, TextPart } from 'ai';
import type { SessionEvent } from '../../../shared/events.js';

type ToolResultEvent = Extract<SessionEvent, { type: 'tool_result' }>;

export const NO_RESULT = 'no result: the turn stopped before this call ran';

interface OpenStep {
  parts: Array<TextPart | ToolCallPart>;
  calls: ToolCallPart[];
  results: Map<string, ToolResultEvent>;
}

export async function modelMessages(
  events: readonly SessionEvent[],
  loadArgs: (call: { args?: unknown; argsBlob?: string }) => Promise<unknown>,
): Promise<ModelMessage[]> {
  const out: ModelMessage[] = [];
  const acc: { step: OpenStep | null } = { step: null };
  const flush = () => {
    if (acc.step) out.push(...stepMessages(acc.step));
    acc.step = null;
  };
  // A call or text after results have come back starts the next step.
  const current = (): OpenStep => {
    if (acc.step && acc.step.results.size > 0) flush();
    return (acc.step ??= { parts: [], calls: [], results: new Map() });
  };
  for (const e of events) {
    switch (e.type) {
      case 'user_message':
        flush();
        out.push({ role: 'user', content: e.text });
        break;
      case 'assistant_text':
        current().parts.push({ type: 'text', text: e.text });
        break;
      case 'tool_call': {
        const input = await loadArgs(e);
        const part: ToolCallPart = {
          type: 'tool-call',
          toolCallId: e.toolCallId,
          toolName: e.tool,
          input: asInput(input),
        };
        const open = current();
        open.parts.push(part);
        open.calls.push(part);
        break;
      }
      case 'tool_result':
        acc.step?.results.set(e.toolCallId, e);
        break;
      case 'hook_run':
        if (!e.toolCallId && !e.ok) {
          flush();
          out.push({ role: 'user', content: `A Stop hook failed, so the task is not finished yet.\n${hookText(e)}` });
        }
        break;
      default:
        break;
    }
  }
  flush();
  return out;
}

function stepMessages(step: OpenStep): ModelMessage[] {
  if (step.parts.length === 0) return [];
  const assistant: ModelMessage = { role: 'assistant', content: step.parts };
  if (step.calls.length === 0) return [assistant];
  const content: ToolResultPart[] = step.calls.map((call) => {
    const r = step.results.get(call.toolCallId);
    const output: ToolResultPart['output'] = !r
      ? { type: 'error-text', value: NO_RESULT }
      : r.ok
        ? { type: 'text', value: r.output }
        : { type: 'error-text', value: r.output };
    return { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output };
  });
  return [assistant, { role: 'tool', content }];
}

/** Providers need an object as a tool call's input; a malformed one is wrapped so it still reads back. */
function asInput(input: unknown): unknown {
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? input
    : { invalid_input: input ?? null };
}

export function hookText(e: { argv: string[]; exitCode: number | null; output: string }): string {
  return `$ ${e.argv.join(' ')}\nexit ${e.exitCode ?? 'none'}\n${e.output}`;
}
