/**
 * The model, played by the history: each session's `step()` waits until the history says
 * what the model does next (a tool call or plain text). Sessions are told apart by the
 * tag every message the history sends starts with ("s0: ...").
 */
import { ChatError } from '../../electron/core/chat/chat-error.js';
import type { ChatClient, StepRequest, StepResult, StepToolCall } from '../../electron/core/chat/chat-client.js';

interface Waiting {
  resolve: (result: StepResult) => void;
}

export class PuppetChat {
  private readonly waiting = new Map<number, Waiting>();

  readonly client: ChatClient = {
    step: (request) => this.step(request),
  };

  /** True when session `s` is at a model step, waiting for the history. */
  isWaiting(s: number): boolean {
    return this.waiting.has(s);
  }

  /** Ends session `s`'s model step with these calls; false when it was not at one. */
  emit(s: number, calls: StepToolCall[], text = ''): boolean {
    const w = this.waiting.get(s);
    if (!w) return false;
    this.waiting.delete(s);
    w.resolve({
      text,
      toolCalls: calls,
      finishReason: calls.length > 0 ? 'tool-calls' : 'stop',
      assistantMessage: { role: 'assistant', content: text },
    });
    return true;
  }

  private step(request: StepRequest): Promise<StepResult> {
    const s = sessionOf(request);
    return new Promise<StepResult>((resolve, reject) => {
      const onAbort = () => {
        if (this.waiting.get(s)?.resolve === resolve) this.waiting.delete(s);
        reject(new ChatError('aborted', 'the step was aborted'));
      };
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(s, { resolve });
    });
  }
}

export function tagged(s: number, text: string): string {
  return `s${s}: ${text}`;
}

function sessionOf(request: StepRequest): number {
  for (const m of request.messages) {
    if (m.role !== 'user') continue;
    const text = typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join('');
    const tag = /^s(\d+): /.exec(text);
    if (tag) return Number(tag[1]);
  }
  throw new Error('a model step without a tagged user message');
}
