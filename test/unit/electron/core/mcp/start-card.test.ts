/**
 * A workspace server's start card (SPEC §10): each of the person's variables the config
 * takes is named with the field it feeds, and no value reaches the card (which goes into
 * the log), not even through the argv or the URL.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readMcpConfig, type McpServerConfig } from '../../../../../electron/core/mcp/mcp-config.js';
import { shownArgv, shownUrl, startCardBody } from '../../../../../electron/core/mcp/start-card.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
let ws: string;

beforeEach(async () => {
  ws = path.join(await realpath(tmp.path), 'ws');
  await mkdir(ws);
});

const SECRET = 'ghp_0123456789abcdefSECRET';
const ENV = { GITHUB_TOKEN: SECRET, HOME: '/home/me' };

async function workspaceServer(entry: unknown): Promise<McpServerConfig> {
  await writeFile(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { s: entry } }));
  const config = await readMcpConfig({ workspaceRoot: ws, userConfigDir: path.join(tmp.path, 'data'), env: ENV });
  expect(config.problems).toEqual([]);
  return config.servers[0]!;
}

describe("a workspace server's start card", () => {
  it('names each variable and the header it feeds, never the value', async () => {
    const config = await workspaceServer({
      type: 'http',
      url: 'https://mcp.example/v1',
      headers: { Authorization: 'Bearer ${GITHUB_TOKEN}', 'X-Client': 'gatehouse' },
    });
    const body = startCardBody({ config, fingerprint: 'f'.repeat(64) });
    expect(body).toMatchObject({
      url: 'https://mcp.example/v1',
      headerNames: ['Authorization', 'X-Client'],
      variables: [{ field: 'header Authorization', variable: 'GITHUB_TOKEN' }],
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
  });

  it('names the env variable and the argument each feeds, and shows those as written', async () => {
    const config = await workspaceServer({
      command: 'npx',
      args: ['-y', 'server', '${HOME}', '--token=${GITHUB_TOKEN}', '${UNSET:-default}'],
      env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LEVEL: 'debug' },
    });
    const body = startCardBody({ config, fingerprint: 'f'.repeat(64) });
    expect(body.variables).toEqual([
      { field: 'args[2]', variable: 'HOME' },
      { field: 'args[3]', variable: 'GITHUB_TOKEN' },
      { field: 'env GITHUB_TOKEN', variable: 'GITHUB_TOKEN' },
    ]);
    // A default from the file is no variable of the person's: shown as it expanded.
    expect(body.argv).toEqual(['npx', '-y', 'server', '${HOME}', '--token=${GITHUB_TOKEN}', 'default']);
    expect(body.envNames).toEqual(['GITHUB_TOKEN', 'LEVEL']);
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(JSON.stringify(body)).not.toContain('/home/me');
  });

  it('says the same in Settings: the target never carries a value either', async () => {
    const stdio = await workspaceServer({ command: 'srv', args: ['--token=${GITHUB_TOKEN}'] });
    expect(shownArgv(stdio)).toEqual(['srv', '--token=${GITHUB_TOKEN}']);
    const http = await workspaceServer({ type: 'http', url: 'https://mcp.example/v1?key=${GITHUB_TOKEN}' });
    expect(shownUrl(http)).toBe('https://mcp.example/v1?key=${GITHUB_TOKEN}');
  });

  it('has an empty list, and the config as it is, when no variable of the person is used', async () => {
    const config = await workspaceServer({ command: 'node', args: ['server.js'], env: { LEVEL: 'debug' } });
    const body = startCardBody({ config, fingerprint: 'f'.repeat(64) });
    expect(body).toMatchObject({ argv: ['node', 'server.js'], cwd: ws, variables: [] });
  });
});
