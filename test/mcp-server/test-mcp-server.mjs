#!/usr/bin/env node
/**
 * A small stdio MCP server for tests. It logs every tools/call it receives to a JSONL file
 * before handling it, so a test can check from the server's side what reached it (and
 * prove that a refused call never did). See README.md beside it for the tools and switches.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** A 1x1 transparent PNG: the smallest real image a client can name or pass on. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Appends one line to MCP_TEST_LOG. Synchronous, so the line is on disk before anything else happens. */
function log(entry) {
  const file = process.env.MCP_TEST_LOG;
  if (file) appendFileSync(file, JSON.stringify({ pid: process.pid, ...entry, ts: Date.now() }) + '\n');
}

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** `bytes` bytes of text that start with HEAD and end with TAIL, so a test can tell a whole result from a cut one. */
function bigText(bytes) {
  const head = 'HEAD';
  const tail = 'TAIL';
  if (bytes < head.length + tail.length) return 'x'.repeat(Math.max(0, bytes));
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

/**
 * echo's description at start: MCP_TEST_ECHO_DESCRIPTION, else the text of the file
 * MCP_TEST_ECHO_DESCRIPTION_FILE names (a test changes the file, and so the tool, while the
 * server's config stays exactly the same), else the default.
 */
function echoDescription() {
  if (process.env.MCP_TEST_ECHO_DESCRIPTION !== undefined) return process.env.MCP_TEST_ECHO_DESCRIPTION;
  const file = process.env.MCP_TEST_ECHO_DESCRIPTION_FILE;
  return file ? readFileSync(file, 'utf8').trim() : 'Echoes back the input';
}

function registerTools(server) {
  const echo = server.registerTool(
    'echo',
    {
      description: echoDescription(),
      inputSchema: { message: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ message }) => text(`Echo: ${message}`),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    'change_description',
    {
      description: "Changes echo's description (the server then sends tools/list_changed)",
      inputSchema: { text: z.string() },
    },
    async ({ text: description }) => {
      echo.update({ description });
      return text('changed');
    },
  );
  server.registerTool('crash', { description: 'Exits with code 3 without answering' }, async () => {
    process.exit(3);
  });
  server.registerTool('hang', { description: 'Never answers' }, () => new Promise(() => {}));
  server.registerTool(
    'big',
    {
      description: 'Returns this many bytes of text, from HEAD to TAIL',
      inputSchema: { bytes: z.number().int().min(0) },
    },
    async ({ bytes }) => text(bigText(bytes)),
  );
  server.registerTool('image', { description: 'Returns a text part and a tiny PNG' }, async () => ({
    content: [
      { type: 'text', text: 'a tiny image' },
      { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('fail', { description: 'Returns an error result' }, async () => ({
    ...text('it failed on purpose'),
    isError: true,
  }));
  server.registerTool('spawn_child', { description: 'Starts `sleep 300` as a child and names its pid' }, async () => {
    // Not detached: it stays in this server's process group, as a real server's helpers would.
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    // Unreferenced, so this server still exits when its stdin closes, as a real one does, and
    // leaves the sleep behind: what a client must clean up by stopping the whole tree.
    child.unref();
    return text(`child ${child.pid}`);
  });
}

/**
 * A stdio transport that logs each tools/call as it arrives, before the SDK validates or
 * handles it: a call with bad arguments still shows up, and a crash cannot lose the line.
 * The SDK's connect() keeps an onmessage set beforehand and calls it first.
 */
function loggingTransport() {
  const transport = new StdioServerTransport();
  transport.onmessage = (message) => {
    if (message.method === 'tools/call') log({ tool: message.params?.name, args: message.params?.arguments ?? {} });
  };
  return transport;
}

async function main() {
  log({ event: 'started' });
  if (process.env.MCP_TEST_STDERR) process.stderr.write(process.env.MCP_TEST_STDERR + '\n');
  if (process.env.MCP_TEST_EXIT_AT_START) process.exit(Number(process.env.MCP_TEST_EXIT_AT_START));
  const server = new McpServer({ name: 'gatehouse-test-server', version: '1.0.0' });
  registerTools(server);
  await server.connect(loggingTransport());
}

await main();
