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

describe('the render cache', () => {
  it('keeps a whole and a masked rendering per entry, so switching between them renders nothing again', async () => {
    const history = new History(holdsOf, step('read_file', { path: 'a.txt' }));
    let loads = 0;
    const renderer = new Renderer(async (part) => (loads++, part.args), holdsOf);
    const entry = history.entries[1]!;
    const first = await renderer.entry(entry, false);
    await renderer.entry(entry, true);
    expect(await renderer.entry(entry, false)).toBe(first);
    await renderer.entry(entry, true);
    expect(loads).toBe(2);
  });

  it('renders an entry again once it has grown', async () => {
    const events = step('read_file', { path: 'a.txt' });
    const history = new History(holdsOf, events.slice(0, 2));
    const renderer = new Renderer(async (part) => part.args, holdsOf);
    const open = await renderer.entry(history.entries[1]!, false);
    history.add(events[2]!);
    const closed = await renderer.entry(history.entries[1]!, false);
    expect(closed).not.toBe(open);
    expect(closed.bytes).toBeGreaterThan(open.bytes + 9_000);
  });
});
