/**
 * An MCP tool's result as the model reads it (SPEC §10): its text, capped like run's
 * output (head plus tail with a marker between); images, audio and binary resources named
 * by type and size rather than sent; an `isError` result as a tool error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_RESULT_MAX_BYTES } from '../../../shared/limits.js';
import { capText } from '../text/output-cap.js';
import type { ToolResult } from '../tools/tool-def.js';

type Content = CallToolResult['content'][number];

export function toolResultOf(result: CallToolResult, server: string): ToolResult {
  const parts = (result.content ?? []).map(contentText);
  // A server that answers only with structured content still answers.
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = capText(parts.join('\n'), MCP_RESULT_MAX_BYTES);
  const named = (result.content ?? []).filter((c) => c.type === 'image' || c.type === 'audio').length;
  const details = { server, ...(named > 0 ? { mediaNotSent: named } : {}) };
  if (result.isError === true)
    return { ok: false, error: text || `the MCP server "${server}" reported an error`, details };
  return { ok: true, output: text, details };
}

function contentText(c: Content): string {
  switch (c.type) {
    case 'text':
      return c.text;
    case 'image':
    case 'audio':
      return `[${c.type}: ${c.mimeType}, ${base64Bytes(c.data)} bytes, not sent to the model]`;
    case 'resource_link':
      return `[resource link: ${c.uri}${c.name ? ` (${c.name})` : ''}]`;
    case 'resource': {
      const r = c.resource;
      if ('text' in r && typeof r.text === 'string') return `[resource ${r.uri}]\n${r.text}`;
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[resource ${r.uri}: ${r.mimeType ?? 'binary'}, ${base64Bytes(blob)} bytes, not sent to the model]`;
    }
    default:
      return `[${(c as { type: string }).type} content, not shown]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
