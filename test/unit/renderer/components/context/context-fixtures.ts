/** Usage, context events and a preview, as the core logs and answers them, for the context tests. */
import type { ContextPart, ContextPreview } from '../../../../../shared/context-preview';
import type { EventPayload } from '../../../../../shared/events';

export function usage(over: Partial<Extract<EventPayload, { type: 'usage' }>> = {}): EventPayload {
  return {
    type: 'usage',
    turnId: 't1',
    purpose: 'step',
    model: 'anthropic:claude-sonnet-4-5',
    inputTokens: 100_000,
    outputTokens: 2_000,
    cacheReadTokens: 90_000,
    cacheWriteTokens: 5_000,
    requestBytes: 400_000,
    contextWindow: 200_000,
    cost: 0.21,
    ...over,
  };
}

export function part(over: Partial<ContextPart> & Pick<ContextPart, 'label'>): ContextPart {
  return { kind: 'message', role: 'user', text: `${over.label} text`, bytes: 40, tokens: 10, ...over };
}

export function preview(over: Partial<ContextPreview> = {}): ContextPreview {
  return {
    model: 'anthropic:claude-sonnet-4-5',
    window: 200_000,
    outputReserve: 32_000,
    tokens: 61_234,
    tokensPerByte: 0.28,
    calibrated: true,
    pending: null,
    parts: [
      part({ kind: 'system', role: undefined, label: 'system prompt', text: 'You are a coding agent.', tokens: 1_200 }),
      part({ kind: 'tool', role: undefined, label: 'read_file', text: '{"name":"read_file"}', breakpoint: true }),
      part({ label: 'user message', text: 'fix the tests', seqs: [1, 1] }),
      part({
        role: 'tool',
        label: 'read_file result',
        text: '[older result hidden: call read_file again to see it]',
        masked: true,
        tokens: 14,
        seqs: [3, 4],
      }),
      part({ role: 'assistant', label: 'assistant message', text: 'Done.', breakpoint: true, seqs: [5, 5] }),
    ],
    ...over,
  };
}
