/** The test MCP server (test/mcp-server), driven by the SDK's own client over stdio. */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../../mcp-server/test-mcp-server.mjs', import.meta.url));

let dir: string;
let logFile: string;
let client: Client | undefined;
let transport: StdioClientTransport | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-mcp-server-'));
  logFile = path.join(dir, 'calls.jsonl');
});

afterEach(async () => {
  await client?.close();
  client = transport = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Starts the server with the given extra env; `onToolsChanged` sees each refreshed tool list. */
async function connect(env: Record<string, string> = {}, onToolsChanged?: (tools: Tool[]) => void): Promise<Client> {
  // process.execPath: the Node running the tests (24), not whatever `node` is first on PATH.
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    env: { MCP_TEST_LOG: logFile, ...env },
    stderr: 'pipe',
  });
  client = new Client(
    { name: 'test', version: '1.0.0' },
    {
      listChanged: {
        tools: { debounceMs: 0, onChanged: (error, tools) => onToolsChanged?.(error ? [] : (tools ?? [])) },
      },
    },
  );
  await client.connect(transport);
  return client;
}

async function logLines(): Promise<Record<string, unknown>[]> {
  const text = await readFile(logFile, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');

describe('test MCP server', () => {
  it('lists its tools, with echo read-only and described', async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['add', 'big', 'change_description', 'crash', 'echo', 'fail', 'hang', 'image', 'spawn_child'].sort(),
    );
    const echo = tools.find((t) => t.name === 'echo');
    expect(echo).toMatchObject({ description: 'Echoes back the input', annotations: { readOnlyHint: true } });
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
  });

  it('echoes and adds, logging its start and each call with its arguments', async () => {
    const c = await connect();
    expect(textOf(await c.callTool({ name: 'echo', arguments: { message: 'hi' } }))).toBe('Echo: hi');
    expect(textOf(await c.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    const [started, echo, add] = await logLines();
    expect(started).toEqual({ pid: transport!.pid, event: 'started', ts: expect.any(Number) });
    expect(echo).toEqual({ pid: transport!.pid, tool: 'echo', args: { message: 'hi' }, ts: expect.any(Number) });
    expect(add).toMatchObject({ tool: 'add', args: { a: 2, b: 3 } });
  });

  it('logs a call even when its arguments are refused', async () => {
    const c = await connect();
    const result = await c.callTool({ name: 'add', arguments: { a: 'two' } });
    expect(result.isError).toBe(true);
    expect((await logLines()).at(-1)).toMatchObject({ tool: 'add', args: { a: 'two' } });
  });

  it("sends tools/list_changed when echo's description changes", async () => {
    let seen: (tools: Tool[]) => void = () => {};
    const changed = new Promise<Tool[]>((resolve) => (seen = resolve));
    const c = await connect({}, (tools) => seen(tools));
    expect(textOf(await c.callTool({ name: 'change_description', arguments: { text: 'Says it back' } }))).toBe(
      'changed',
    );
    const tools = await changed;
    expect(tools.find((t) => t.name === 'echo')?.description).toBe('Says it back');
  });

  it('starts with the description MCP_TEST_ECHO_DESCRIPTION gives echo', async () => {
    const c = await connect({ MCP_TEST_ECHO_DESCRIPTION: 'A different echo' });
    const { tools } = await c.listTools();
    expect(tools.find((t) => t.name === 'echo')?.description).toBe('A different echo');
  });

  it("starts with the text of the file MCP_TEST_ECHO_DESCRIPTION_FILE names as echo's description", async () => {
    const file = path.join(dir, 'description.txt');
    await writeFile(file, 'Echoes from a file\n');
    const c = await connect({ MCP_TEST_ECHO_DESCRIPTION_FILE: file });
    const { tools } = await c.listTools();
    expect(tools.find((t) => t.name === 'echo')?.description).toBe('Echoes from a file');
  });

  it('returns big text whole, from HEAD to TAIL', async () => {
    const c = await connect();
    const text = textOf(await c.callTool({ name: 'big', arguments: { bytes: 200_000 } }));
    expect(text).toHaveLength(200_000);
    expect(text.startsWith('HEADx')).toBe(true);
    expect(text.endsWith('xTAIL')).toBe(true);
  });

  it('returns a text part and a PNG image part', async () => {
    const c = await connect();
    const { content } = await c.callTool({ name: 'image', arguments: {} });
    expect(content).toEqual([
      { type: 'text', text: 'a tiny image' },
      { type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
    ]);
  });

  it('returns an error result from fail', async () => {
    const c = await connect();
    const result = await c.callTool({ name: 'fail', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it failed on purpose' }] });
  });

  it('fails the call when crash ends the server', async () => {
    const c = await connect();
    const closed = new Promise<void>((resolve) => (c.onclose = resolve));
    await expect(c.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/closed/i);
    await closed;
    expect((await logLines()).at(-1)).toMatchObject({ tool: 'crash' });
  });

  it('exits with code 3 on crash, answering nothing', async () => {
    // Raw JSON-RPC: the SDK's transport does not report the exit code.
    const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'crash' } }) + '\n',
    );
    expect(await code).toBe(3);
    expect(stdout).toBe('');
  });

  it('never answers hang', async () => {
    const c = await connect();
    await expect(c.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 300 })).rejects.toThrow(
      /timed out/i,
    );
  });

  it('starts a sleep child and names its pid', async () => {
    const c = await connect();
    const text = textOf(await c.callTool({ name: 'spawn_child', arguments: {} }));
    const pid = Number(/^child (\d+)$/.exec(text)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).not.toThrow();
    process.kill(pid, 'SIGKILL');
  });

  it('writes MCP_TEST_STDERR to stderr and exits with MCP_TEST_EXIT_AT_START before connecting', async () => {
    const stderr: Buffer[] = [];
    const failed = connect({ MCP_TEST_STDERR: 'no database at /nowhere', MCP_TEST_EXIT_AT_START: '7' });
    transport!.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    await expect(failed).rejects.toThrow(/closed/i);
    expect(Buffer.concat(stderr).toString()).toContain('no database at /nowhere');
    expect(await logLines()).toEqual([{ pid: expect.any(Number), event: 'started', ts: expect.any(Number) }]);
  });
});
