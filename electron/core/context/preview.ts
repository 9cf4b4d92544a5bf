/**
 * "What the model sees", part by part: the system prompt, each tool definition, the
 * summary and every message of the next request, with estimated tokens, masked parts
 * and cache breakpoints marked. The text is the request's own; long parts are cut for
 * the window, but their sizes are the whole parts'.
 */
import type { ModelMessage } from 'ai';
import { PREVIEW_PART_MAX_CHARS, type ContextPart } from '../../../shared/context-preview.js';
import type { CacheBreakpoints } from '../chat/chat-client.js';
import type { ToolSpec } from '../chat/sdk-tool-set.js';
import type { Entry } from './history.js';
import { messageBytes } from './render.js';
import { toolText } from './tool-specs.js';

interface PreviewSource {
  system: string;
  tools: Record<string, ToolSpec>;
  summary: { messages: ModelMessage[] } | null;
  items: ReadonlyArray<{ entry: Entry; masked: boolean; rendered: { messages: ModelMessage[] } }>;
}

type PartOf = (p: Omit<ContextPart, 'bytes' | 'tokens' | 'text'> & { text: string }, bytes?: number) => ContextPart;

export function previewParts(
  step: { cacheBreakpoints: CacheBreakpoints },
  view: PreviewSource,
  tokens: (bytes: number) => number,
): ContextPart[] {
  const part: PartOf = (p, bytes) => {
    const size = bytes ?? Buffer.byteLength(p.text);
    return { ...p, text: cutText(p.text, size), bytes: size, tokens: tokens(size) };
  };
  return [
    part({ kind: 'system', label: 'system prompt', text: view.system, breakpoint: step.cacheBreakpoints.system }),
    ...Object.entries(view.tools).map(([name, spec]) =>
      part({ kind: 'tool', label: name, text: toolText(name, spec) }),
    ),
    ...messageParts(view, new Set(step.cacheBreakpoints.messages), part),
  ];
}

/** The summary and every message, in the request's order; `marks` are the indices that end a breakpoint. */
function messageParts(view: PreviewSource, marks: ReadonlySet<number>, part: PartOf): ContextPart[] {
  const parts: ContextPart[] = [];
  let index = 0;
  for (const message of view.summary?.messages ?? []) {
    const text = messageText(message);
    const summary = { kind: 'summary', role: 'user', label: 'summary of earlier history', text } as const;
    parts.push(part({ ...summary, breakpoint: marks.has(index++) }, messageBytes(message)));
  }
  for (const item of view.items) {
    for (const message of item.rendered.messages) {
      const shown: Parameters<PartOf>[0] = {
        kind: 'message',
        role: message.role === 'system' ? 'user' : message.role,
        label: label(message),
        text: messageText(message),
        ...(item.masked && message.role === 'tool' ? { masked: true } : {}),
        breakpoint: marks.has(index++),
        seqs: [item.entry.seq, item.entry.lastSeq],
      };
      parts.push(part(shown, messageBytes(message)));
    }
  }
  return parts;
}

function label(m: ModelMessage): string {
  if (m.role === 'user') return 'user message';
  if (typeof m.content === 'string') return m.role;
  if (m.role === 'tool') {
    const names = m.content.flatMap((p) => (p.type === 'tool-result' ? [p.toolName] : []));
    return `${names.join(', ')} result${names.length > 1 ? 's' : ''}`;
  }
  const calls = m.content.flatMap((p) => (p.type === 'tool-call' ? [p.toolName] : []));
  return calls.length > 0 ? `assistant: ${calls.join(', ')}` : 'assistant';
}

/** A message as text: its texts, calls as `name(args JSON)`, results as their text. */
export function messageText(m: ModelMessage): string {
  if (typeof m.content === 'string') return m.content;
  return m.content
    .map((p) => {
      if (p.type === 'text') return p.text;
      if (p.type === 'tool-call') return `→ ${p.toolName}(${JSON.stringify(p.input)})`;
      if (p.type === 'tool-result') {
        const out = p.output;
        const value = out.type === 'text' || out.type === 'error-text' ? out.value : JSON.stringify(out);
        return `${p.toolName}${out.type === 'error-text' ? ' (error)' : ''}:\n${value}`;
      }
      return `[${p.type}]`;
    })
    .join('\n\n');
}

function cutText(text: string, bytes: number): string {
  if (text.length <= PREVIEW_PART_MAX_CHARS) return text;
  return `${text.slice(0, PREVIEW_PART_MAX_CHARS)}\n[… shown cut: the part is ${bytes.toLocaleString('en-US')} bytes]`;
}
