import { describe, expect, it } from 'vitest';
import { MODEL_TOOL_NAME_MAX, mcpToolName, mcpToolParts } from '../../../shared/mcp-tool-name.js';

describe("an MCP tool's name for the model", () => {
  it('is mcp__<server>__<tool>, with characters providers refuse made "_"', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('files', 'read.text file')).toBe('mcp__files__read_text_file');
  });

  it('is cut to 64 characters with a hash of the whole when longer, so long tools stay apart', () => {
    const a = mcpToolName('server', `very_long_tool_name_${'x'.repeat(60)}_a`);
    const b = mcpToolName('server', `very_long_tool_name_${'x'.repeat(60)}_b`);
    expect(a).toHaveLength(MODEL_TOOL_NAME_MAX);
    expect(a).toMatch(/^mcp__server__very_long_tool_name_x+_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(mcpToolName('server', `very_long_tool_name_${'x'.repeat(60)}_a`)).toBe(a);
  });
});

describe("an MCP tool's name, split into server and tool", () => {
  it('splits mcp__<server>__<tool> at the first __', () => {
    expect(mcpToolParts('mcp__github__create_issue')).toEqual({ server: 'github', tool: 'create_issue' });
    expect(mcpToolParts('mcp__files__read__text')).toEqual({ server: 'files', tool: 'read__text' });
  });

  it('takes the server the result names when the server itself holds __', () => {
    expect(mcpToolParts('mcp__my__srv__run', 'my__srv')).toEqual({ server: 'my__srv', tool: 'run' });
    expect(mcpToolParts('mcp__my__srv__run', 'other')).toEqual({ server: 'my', tool: 'srv__run' });
  });

  it('is null for every other tool', () => {
    expect(mcpToolParts('read_file')).toBeNull();
    expect(mcpToolParts('mcp_x')).toBeNull();
  });
});
