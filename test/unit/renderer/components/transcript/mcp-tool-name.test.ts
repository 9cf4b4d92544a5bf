import { describe, expect, it } from 'vitest';
import { mcpToolName } from '../../../../../renderer/src/components/transcript/mcp-tool-name';
import { toolSummary } from '../../../../../renderer/src/components/transcript/tool-summary';

describe("an MCP tool's name, split into server and tool", () => {
  it('splits mcp__<server>__<tool> at the first __', () => {
    expect(mcpToolName('mcp__github__create_issue')).toEqual({ server: 'github', tool: 'create_issue' });
    expect(mcpToolName('mcp__files__read__text')).toEqual({ server: 'files', tool: 'read__text' });
  });

  it('takes the server the result names when the server itself holds __', () => {
    expect(mcpToolName('mcp__my__srv__run', { server: 'my__srv' })).toEqual({ server: 'my__srv', tool: 'run' });
    expect(mcpToolName('mcp__my__srv__run', { server: 'other' })).toEqual({ server: 'my', tool: 'srv__run' });
  });

  it('is null for every other tool', () => {
    expect(mcpToolName('read_file')).toBeNull();
    expect(mcpToolName('mcp_x')).toBeNull();
  });
});

describe("an MCP row's summary", () => {
  it('is its arguments as compact JSON', () => {
    expect(toolSummary('mcp__github__get_me', {})).toEqual({ kind: 'json', text: '{}' });
    expect(toolSummary('mcp__files__read', { path: 'a.ts' })).toEqual({ kind: 'json', text: '{"path":"a.ts"}' });
    expect(toolSummary('mcp__files__read', undefined)).toEqual({ kind: 'json', text: '' });
  });
});
