import { describe, expect, it } from 'vitest';
import { toolSummary } from '../../../../../renderer/src/components/transcript/tool-summary';

describe("an MCP row's summary", () => {
  it('is its arguments as compact JSON', () => {
    expect(toolSummary('mcp__github__get_me', {})).toEqual({ kind: 'json', text: '{}' });
    expect(toolSummary('mcp__files__read', { path: 'a.ts' })).toEqual({ kind: 'json', text: '{"path":"a.ts"}' });
    expect(toolSummary('mcp__files__read', undefined)).toEqual({ kind: 'json', text: '' });
  });
});
