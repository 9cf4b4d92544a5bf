import { describe, expect, it } from 'vitest';
import { toolResultOf } from '../../../../../electron/core/mcp/mcp-result.js';
import { MCP_RESULT_MAX_BYTES } from '../../../../../shared/limits.js';

describe("an MCP tool's result, as the model reads it", () => {
  it('is its text parts, joined', () => {
    const r = toolResultOf(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      's',
    );
    expect(r).toEqual({ ok: true, output: 'a\nb', details: { server: 's' } });
  });

  it("is capped like run's output: head and tail with a marker between", () => {
    const text = `HEAD${'x'.repeat(200_000)}TAIL`;
    const r = toolResultOf({ content: [{ type: 'text', text }] }, 's');
    if (!r.ok) throw new Error('expected ok');
    expect(Buffer.byteLength(r.output)).toBeLessThan(MCP_RESULT_MAX_BYTES + 200);
    expect(r.output.startsWith('HEAD')).toBe(true);
    expect(r.output.endsWith('TAIL')).toBe(true);
    expect(r.output).toMatch(/\[\.\.\. \d+ bytes left out of 200008/);
  });

  it('names an image or audio part by type and size instead of sending it', () => {
    const png = Buffer.alloc(300).toString('base64');
    const r = toolResultOf(
      {
        content: [
          { type: 'text', text: 'here' },
          { type: 'image', data: png, mimeType: 'image/png' },
        ],
      },
      's',
    );
    expect(r).toEqual({
      ok: true,
      output: 'here\n[image: image/png, 300 bytes, not sent to the model]',
      details: { server: 's', mediaNotSent: 1 },
    });
  });

  it('reads an embedded text resource and names a binary one and a link', () => {
    const r = toolResultOf(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA', mimeType: 'application/zip' } },
          { type: 'resource_link', uri: 'file:///c', name: 'c' },
        ],
      },
      's',
    );
    expect(r.ok && r.output).toBe(
      '[resource file:///a.txt]\ninside\n[resource file:///b.bin: application/zip, 3 bytes, not sent to the model]\n[resource link: file:///c (c)]',
    );
  });

  it('is a tool error the model reads when the server says isError', () => {
    expect(toolResultOf({ content: [{ type: 'text', text: 'no such row' }], isError: true }, 'db')).toEqual({
      ok: false,
      error: 'no such row',
      details: { server: 'db' },
    });
    expect(toolResultOf({ content: [], isError: true }, 'db')).toMatchObject({
      ok: false,
      error: 'the MCP server "db" reported an error',
    });
  });

  it('falls back to structured content when there is no content part', () => {
    expect(toolResultOf({ content: [], structuredContent: { n: 1 } }, 's')).toMatchObject({
      ok: true,
      output: '{"n":1}',
    });
  });
});
