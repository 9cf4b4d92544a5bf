import type { ToolResultPart } from 'ai';
import { describe, expect, it } from 'vitest';
import type { EventPayload, SessionEvent } from '../../../../../shared/events.js';
import { History } from '../../../../../electron/core/context/history.js';
import { Renderer } from '../../../../../electron/core/context/render.js';
import { WORKSPACE_TOOLS } from '../../../../../electron/core/tools/tools.js';

const holdsOf = (tool: string) => WORKSPACE_TOOLS.find((d) => d.name === tool)?.holds;
const big = 'x'.repeat(10_000);

function step(tool: string, args: unknown): SessionEvent[] {
  const payloads: EventPayload[] = [
    { type: 'user_message', messageId: 'm', text: 'go' },
    { type: 'tool_call', turnId: 't', toolCallId: 'c1', tool, args },
    { type: 'tool_result', turnId: 't', toolCallId: 'c1', tool, ok: true, output: big },
  ];
  return payloads.map((p, i) => ({ ...p, seq: i + 1, ts: '2026-12-04T00:00:00.000Z' }) as SessionEvent);
}

async function hiddenResult(tool: string, args: unknown): Promise<string> {
  const history = new History(holdsOf, step(tool, args));
  const renderer = new Renderer(async (part) => part.args, holdsOf);
  const { messages } = await renderer.entry(history.entries[1]!, true);
  const part = (messages[1]!.content as ToolResultPart[])[0]!;
  return part.output.type === 'text' ? part.output.value : '';
}

describe('a hidden result, in the words its tool gives', () => {
  it("says a command's output is seen again only by running it again, which asks the user again", async () => {
    expect(await hiddenResult('run', { argv: ['make'] })).toMatch(/Run the command again \(it asks the user again\)/);
  });

  it('says a file tool is called again with the same arguments', async () => {
    const text = await hiddenResult('read_file', { path: 'a.txt' });
    expect(text).toMatch(/Call read_file again with the same arguments/);
    expect(text).toContain('10,000 bytes, log seq 3');
  });

  it('treats a tool that says nothing (an MCP tool, or one gone) like a file tool', async () => {
    expect(await hiddenResult('mcp__srv__fetch', { url: 'x' })).toMatch(/Call mcp__srv__fetch again/);
  });

  it('names the file a call used, as its tool says, and the whole workspace for a grep without a path', () => {
    const grep = new History(holdsOf, step('grep', { pattern: 'x' }));
    expect([...grep.files.entries()].map(([path, how]) => [path, [...how]])).toEqual([['.', ['searched']]]);
    expect(new History(holdsOf, step('run', { argv: ['cat', 'a'] })).files.size).toBe(0);
  });
});
