/**
 * MCP servers through the window (SPEC §10), against the repo's test server: a
 * workspace's server starts only after its card (argv, folder, network through the proxy), each call
 * is a card naming the server, the tool, its description, the arguments and the server's
 * annotations as claims, the transcript shows the call as a tool row, and Settings lists
 * the server ready with its tools. Each screen is photographed light and dark and checked
 * with axe.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { armed, shotsAndAxe } from './harness/light-and-dark.js';
import { visible } from './harness/gatehouse-page.js';

// The test server runs from its folder under /var/tmp, which confined servers see only when shown.
const world = useWorld('mcp', [TEST_SERVER_FOLDER]);
import { TEST_SERVER } from '../mcp-server/test-server-path.js';
import { TEST_SERVER_FOLDER } from '../mcp-server/test-server-folder.js';

async function calls(log: string): Promise<{ tool?: string; args?: unknown }[]> {
  const text = await fs.readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { tool?: string; args?: unknown })
    .filter((l) => l.tool !== undefined);
}

describe("a workspace's MCP server", () => {
  test('asks to start, asks for each call, shows the call as a tool row, and is listed ready in Settings', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('mcp-ws');
    // Inside the workspace: the confined server writes nowhere else.
    const log = path.join(ws, 'calls.jsonl');
    await fs.writeFile(
      path.join(ws, '.mcp.json'),
      JSON.stringify({
        mcpServers: { t: { command: process.execPath, args: [TEST_SERVER], env: { MCP_TEST_LOG: log } } },
      }),
    );
    fake.enqueue(
      { toolCalls: [{ name: 'mcp__t__echo', input: { message: 'hello from the model' } }] },
      { text: 'The server echoed it.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Echo something through the test server');

    const start = await ui.waitForCard(/Permission: start MCP server t/);
    await visible(start.getByText(TEST_SERVER, { exact: false }).first(), "the server's argv");
    await visible(
      start.getByText(/network to any domain through Gatehouse's proxy/).first(),
      'the sandbox line saying its network goes through the proxy',
    );
    await visible(start.getByText('MCP_TEST_LOG').first(), 'the variable name it sets');
    expect(await start.textContent()).not.toContain(log);
    await armed(start);
    await shotsAndAxe(world, 'server-card');
    expect(await calls(log)).toEqual([]);
    await ui.answer(start, 'Allow for this session');

    const card = await ui.waitForCard(/Permission: call t: echo/);
    await visible(card.getByText('Echoes back the input'), "the tool's description");
    await visible(card.getByText(/Server says: read-only/), 'the read-only annotation, as a claim');
    await visible(card.getByText(/"message": "hello from the model"/), 'the arguments as JSON');
    await armed(card);
    await shotsAndAxe(world, 'call-card');
    expect(await calls(log)).toEqual([]);
    await ui.answer(card, 'Allow once');

    await visible(ui.page.getByText('The server echoed it.'), "the model's text after the call");
    expect((await calls(log)).map(({ tool, args }) => ({ tool, args }))).toEqual([
      { tool: 'echo', args: { message: 'hello from the model' } },
    ]);
    await visible(ui.page.getByText(/t · echo/).first(), 'the transcript row "t · echo"');
    await shotsAndAxe(world, 'transcript');

    await ui.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = await visible(ui.page.getByRole('dialog'), 'the Settings dialog');
    const section = await visible(dialog.getByRole('region', { name: 'MCP servers' }), 'the MCP servers section');
    await visible(section.getByText(/Ready · \d+ tools/), 'the server ready with its tools');
    await section.scrollIntoViewIfNeeded();
    await shotsAndAxe(world, 'settings');
    await ui.page.keyboard.press('Escape');
    expect(fake.pending()).toBe(0);
  });
});
