import { describe, expect, it } from 'vitest';
import { shortToolName } from '../../../../../renderer/src/components/settings/mcp-server-words';
import { mcpToolName } from '../../../../../shared/mcp-tool-name';

describe("a server's tool as Settings names it", () => {
  it("is the tool's own name, read off the model's name", () => {
    expect(shortToolName('files', mcpToolName('files', 'read'))).toBe('read');
  });

  it('keeps a server name that itself holds "__"', () => {
    expect(shortToolName('my__srv', mcpToolName('my__srv', 'list__all'))).toBe('list__all');
  });

  it('shows a name that is not an MCP tool name whole', () => {
    expect(shortToolName('files', 'read_file')).toBe('read_file');
  });
});
