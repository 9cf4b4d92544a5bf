import { execFileSync } from 'node:child_process';
import { mkdir, realpath, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  MCP_CONFIG_MAX_BYTES,
  readMcpConfig,
  type McpConfig,
  type McpConfigProblem,
} from '../../../../../electron/core/mcp/mcp-config.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
let ws: string;
let userDir: string;
let workspaceFile: string;
let userFile: string;

beforeEach(async () => {
  const base = await realpath(tmp.path);
  ws = path.join(base, 'ws');
  userDir = path.join(base, 'config');
  await mkdir(ws);
  await mkdir(userDir);
  workspaceFile = path.join(ws, '.mcp.json');
  userFile = path.join(userDir, 'mcp.json');
});

const servers = (entries: Record<string, unknown>) => JSON.stringify({ mcpServers: entries }, null, 2);

function read(env: Record<string, string | undefined> = {}, workspaceRoot: string | null = ws): Promise<McpConfig> {
  return readMcpConfig({ workspaceRoot, userConfigDir: userDir, env });
}

/** The config when only the workspace file holds `entries`. */
async function readWorkspace(entries: Record<string, unknown>, env: Record<string, string | undefined> = {}) {
  await writeFile(workspaceFile, servers(entries));
  return read(env);
}

const problem = (server: string, message: string): McpConfigProblem => ({
  source: workspaceFile,
  server,
  message: `server "${server}": ${message}`,
});

describe('readMcpConfig: files', () => {
  it('reads a stdio server from the workspace and an http server from the user folder', async () => {
    await writeFile(workspaceFile, servers({ db: { command: 'db-server', args: ['--port', '5'], env: { A: 'b' } } }));
    await writeFile(userFile, servers({ web: { type: 'http', url: 'https://example.com/mcp', headers: { X: 'y' } } }));
    expect(await read()).toEqual({
      servers: [
        {
          name: 'db',
          scope: 'workspace',
          source: workspaceFile,
          transport: { type: 'stdio', command: 'db-server', args: ['--port', '5'], env: { A: 'b' }, cwd: ws },
        },
        {
          name: 'web',
          scope: 'user',
          source: userFile,
          transport: { type: 'http', url: 'https://example.com/mcp', headers: { X: 'y' } },
        },
      ],
      problems: [],
    });
  });

  it('finds nothing, and no problem, when neither file exists', async () => {
    expect(await read()).toEqual({ servers: [], problems: [] });
  });

  it('reads only the user file when no workspace is open', async () => {
    await writeFile(workspaceFile, servers({ ws: { command: 'a' } }));
    await writeFile(userFile, servers({ mine: { command: 'b' } }));
    const config = await read({}, null);
    expect(config.servers.map((s) => `${s.scope}:${s.name}`)).toEqual(['user:mine']);
  });

  it('fills in no args, no env and the workspace as cwd; an explicit "type": "stdio" is the same', async () => {
    await writeFile(workspaceFile, servers({ a: { command: 'x' }, b: { type: 'stdio', command: 'x' } }));
    const { servers: found } = await read();
    for (const server of found) {
      expect(server.transport).toEqual({ type: 'stdio', command: 'x', args: [], env: {}, cwd: ws });
    }
  });

  it("runs a user's server with no cwd in a folder of its own under the data folder, never the workspace", async () => {
    await writeFile(userFile, servers({ a: { command: 'npx', args: ['-y', 'pkg'] }, b: { command: 'python3' } }));
    const own = (name: string) => path.join(userDir, 'mcp-cwd', name);
    const expected = (name: string, command: string, args: string[]) => ({
      type: 'stdio',
      command,
      args,
      env: {},
      cwd: own(name),
      ownFolder: true,
    });
    expect((await read()).servers.map((s) => s.transport)).toEqual([
      expected('a', 'npx', ['-y', 'pkg']),
      expected('b', 'python3', []),
    ]);
    // With no workspace open, the same: not the data folder itself.
    expect((await read({}, null)).servers.map((s) => s.transport)).toEqual([
      expected('a', 'npx', ['-y', 'pkg']),
      expected('b', 'python3', []),
    ]);
  });

  it('says where bad JSON is, by line and column', async () => {
    await writeFile(workspaceFile, '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const { servers: found, problems } = await read();
    expect(found).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.source).toBe(workspaceFile);
    expect(problems[0]?.server).toBeUndefined();
    expect(problems[0]?.message).toMatch(/^\.mcp\.json is not valid JSON: .* at line 3 column 28$/);
  });

  it("does not quote the file's text when JSON.parse gives no position", async () => {
    await writeFile(userFile, '[1,]');
    const { problems } = await read();
    expect(problems).toEqual([{ source: userFile, message: expect.stringMatching(/^mcp\.json is not valid JSON: /) }]);
    expect(problems[0]?.message).not.toContain('[1,]');
  });

  it('reads a file that starts with a byte-order mark, and counts columns without it', async () => {
    await writeFile(workspaceFile, '\uFEFF' + servers({ a: { command: 'x' } }));
    expect((await read()).servers.map((s) => s.name)).toEqual(['a']);
    await writeFile(workspaceFile, '\uFEFF{"a" 1}');
    expect((await read()).problems[0]?.message).toMatch(/ at line 1 column 6$/);
  });

  it('refuses a file without an "mcpServers" object, or that is not an object', async () => {
    await writeFile(workspaceFile, JSON.stringify({ servers: { a: { command: 'x' } } }));
    await writeFile(userFile, '[]');
    expect((await read()).problems).toEqual([
      { source: workspaceFile, message: '.mcp.json has no "mcpServers" object' },
      { source: userFile, message: 'mcp.json must hold a JSON object' },
    ]);
  });

  it('refuses a file larger than 256 KiB, and reads one of exactly that size', async () => {
    await writeFile(workspaceFile, servers({ a: { command: 'x' } }));
    await truncate(workspaceFile, MCP_CONFIG_MAX_BYTES + 1);
    expect((await read()).problems).toEqual([
      {
        source: workspaceFile,
        message: `.mcp.json is ${MCP_CONFIG_MAX_BYTES + 1} bytes; it is read only up to ${MCP_CONFIG_MAX_BYTES} bytes (256 KiB)`,
      },
    ]);
    const text = servers({ a: { command: 'x' } });
    await writeFile(workspaceFile, text + ' '.repeat(MCP_CONFIG_MAX_BYTES - Buffer.byteLength(text)));
    expect(await read()).toMatchObject({ servers: [{ name: 'a' }], problems: [] });
  });

  it('refuses a folder or a FIFO at once, saying it is not a regular file', async () => {
    await mkdir(workspaceFile);
    execFileSync('mkfifo', [userFile]);
    expect((await read()).problems).toEqual([
      { source: workspaceFile, message: `.mcp.json: ${workspaceFile} is a folder` },
      { source: userFile, message: `mcp.json: ${userFile} is not a regular file` },
    ]);
  });

  it('follows a symbolic link to the config file', async () => {
    const elsewhere = path.join(tmp.path, 'dotfiles-mcp.json');
    await writeFile(elsewhere, servers({ linked: { command: 'x' } }));
    await symlink(elsewhere, userFile);
    expect((await read()).servers).toMatchObject([{ name: 'linked', source: userFile }]);
  });
});

describe('readMcpConfig: servers', () => {
  it('leaves out one bad server and loads the others', async () => {
    const config = await readWorkspace({ good: { command: 'a' }, bad: { command: 42 }, alsoGood: { command: 'b' } });
    expect(config.servers.map((s) => s.name)).toEqual(['good', 'alsoGood']);
    expect(config.problems).toEqual([problem('bad', '"command" must be a non-empty string')]);
  });

  it('ignores keys it does not know, as Claude Code files carry extras', async () => {
    const config = await readWorkspace({ a: { command: 'x', timeout: 5000, alwaysAllow: ['t'], disabled: false } });
    expect(config).toEqual({
      servers: [expect.objectContaining({ transport: { type: 'stdio', command: 'x', args: [], env: {}, cwd: ws } })],
      problems: [],
    });
  });

  it('names the field and the item whose type is wrong', async () => {
    const config = await readWorkspace({
      empty: { command: '' },
      args: { command: 'x', args: ['ok', 3] },
      argsNotList: { command: 'x', args: '--flag' },
      env: { command: 'x', env: { PORT: 5432 } },
      cwd: { command: 'x', cwd: ['/'] },
      headers: { type: 'http', url: 'https://a.example', headers: { Authorization: null } },
      url: { type: 'http', url: 7 },
      notObject: 'db-server --port 5',
    });
    expect(config.servers).toEqual([]);
    expect(config.problems).toEqual([
      problem('empty', '"command" must be a non-empty string'),
      problem('args', '"args" must be a list of strings (item 2 is not)'),
      problem('argsNotList', '"args" must be a list of strings'),
      problem('env', '"env" must be an object whose values are strings ("PORT" is not)'),
      problem('cwd', '"cwd" must be a string'),
      problem('headers', '"headers" must be an object whose values are strings ("Authorization" is not)'),
      problem('url', '"url" must be a string'),
      problem('notObject', 'must be a JSON object'),
    ]);
  });

  it('accepts only stdio and http transports, and says sse is not supported', async () => {
    const config = await readWorkspace({
      sse: { type: 'sse', url: 'https://a.example/sse' },
      ws: { type: 'ws', url: 'wss://a.example' },
      noType: { url: 'https://a.example/mcp' },
    });
    expect(config.servers).toEqual([]);
    expect(config.problems).toEqual([
      problem('sse', 'type "sse" is not supported: only streamable HTTP ("type": "http") is'),
      problem('ws', '"type" must be "stdio" or "http", not "ws"'),
      problem('noType', '"command" must be a non-empty string (an HTTP server needs "type": "http")'),
    ]);
  });

  it('accepts only http: and https: URLs, without repeating the URL', async () => {
    const config = await readWorkspace({
      plain: { type: 'http', url: 'http://127.0.0.1:8080/mcp' },
      file: { type: 'http', url: 'file:///etc/passwd' },
      broken: { type: 'http', url: 'not a url?token=secret' },
    });
    expect(config.servers.map((s) => s.name)).toEqual(['plain']);
    expect(config.problems).toEqual([
      problem('file', '"url" must start with http: or https: (it starts with file:)'),
      problem('broken', '"url" is not a valid URL'),
    ]);
  });
});

describe('readMcpConfig: server names', () => {
  it('accepts letters, digits, "_" and "-" up to 64 characters', async () => {
    const names = ['a', 'my-server_2', 'A'.repeat(64), '_lead'];
    const config = await readWorkspace(Object.fromEntries(names.map((n) => [n, { command: 'x' }])));
    expect(config.servers.map((s) => s.name)).toEqual(names);
    expect(config.problems).toEqual([]);
  });

  it('refuses other characters, an empty name, more than 64 characters, "__" and a trailing "_"', async () => {
    const long = 'a'.repeat(65);
    const config = await readWorkspace(
      Object.fromEntries(['my server', 'db.prod', '', long, 'a__b', 'trail_'].map((n) => [n, { command: 'x' }])),
    );
    expect(config.servers).toEqual([]);
    const named = (server: string, message: string) => ({ source: workspaceFile, server, message });
    expect(config.problems).toEqual([
      named('my server', 'server name "my server" must be 1 to 64 letters, digits, "_" or "-"'),
      named('db.prod', 'server name "db.prod" must be 1 to 64 letters, digits, "_" or "-"'),
      named('', 'server name "" must be 1 to 64 letters, digits, "_" or "-"'),
      named(long, `server name "${long}" must be 1 to 64 letters, digits, "_" or "-"`),
      named('a__b', 'server name "a__b" must not contain "__", which separates server from tool'),
      named('trail_', 'server name "trail_" must not end with "_", which would run into the "__" after it'),
    ]);
  });
});

describe('readMcpConfig: ${VAR} expansion', () => {
  it('expands ${VAR} and ${VAR:-default} in command, args, env values, cwd, url and header values', async () => {
    await writeFile(
      workspaceFile,
      servers({
        s: {
          command: '${BIN}/server',
          args: ['--db=${DB:-local}', '${HOME}'],
          env: { TOKEN: '${TOKEN}', '${KEY}': 'v' },
          cwd: '${SUB:-sub}/dir',
        },
        h: { type: 'http', url: '${BASE:-https://api.example}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
      }),
    );
    const config = await read({ BIN: '/opt/bin', HOME: '/home/me', TOKEN: 't0k', KEY: 'never' });
    expect(config.problems).toEqual([]);
    expect(config.servers.map((s) => s.transport)).toEqual([
      {
        type: 'stdio',
        command: '/opt/bin/server',
        args: ['--db=local', '/home/me'],
        env: { TOKEN: 't0k', '${KEY}': 'v' },
        cwd: path.join(ws, 'sub', 'dir'),
      },
      { type: 'http', url: 'https://api.example/mcp', headers: { Authorization: 'Bearer t0k' } },
    ]);
  });

  it("records which of the person's variables fed which field, as written, and no default as a variable", async () => {
    await writeFile(
      workspaceFile,
      servers({
        s: {
          command: '${BIN}/server',
          args: ['--db=${DB:-local}', '${HOME}', 'plain', '${A}-${B:-b}-${A}'],
          env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LEVEL: 'debug' },
          cwd: '${HOME}/srv',
        },
        h: {
          type: 'http',
          url: '${BASE:-https://api.example}/mcp?k=${KEY}',
          headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
        },
        none: { command: 'x', args: ['${UNSET:-fallback}'] },
      }),
    );
    const env = { BIN: '/opt/bin', HOME: '/home/me', GITHUB_TOKEN: 'ghp_secret', A: 'a', KEY: 'k1' };
    const config = await read(env);
    expect(config.problems).toEqual([]);
    expect(config.servers.map((s) => s.variables)).toEqual([
      [
        { field: 'command', written: '${BIN}/server', variables: ['BIN'] },
        { field: 'args[1]', written: '${HOME}', variables: ['HOME'] },
        { field: 'args[3]', written: '${A}-${B:-b}-${A}', variables: ['A'] },
        { field: 'env GITHUB_TOKEN', written: '${GITHUB_TOKEN}', variables: ['GITHUB_TOKEN'] },
        { field: 'cwd', written: '${HOME}/srv', variables: ['HOME'] },
      ],
      [
        { field: 'url', written: '${BASE:-https://api.example}/mcp?k=${KEY}', variables: ['KEY'] },
        { field: 'header Authorization', written: 'Bearer ${GITHUB_TOKEN}', variables: ['GITHUB_TOKEN'] },
      ],
      undefined,
    ]);
  });

  it('uses a variable set to "" rather than its default, as Claude Code does', async () => {
    const config = await readWorkspace({ s: { command: 'x', args: ['[${EMPTY:-fallback}]'] } }, { EMPTY: '' });
    expect(config.servers[0]?.transport).toMatchObject({ args: ['[]'] });
  });

  it('expands nothing else: $VAR, ~, ${not a name} and an unclosed ${ stay as written', async () => {
    const args = ['$HOME', '~/x', '${not a name}', '${HOME', '$(whoami)', '`id`'];
    const config = await readWorkspace({ s: { command: 'x', args } }, { HOME: '/home/me' });
    expect(config.servers[0]?.transport).toMatchObject({ args });
  });

  it('leaves out a server that uses an unset variable with no default, naming each variable', async () => {
    const config = await readWorkspace({
      one: { command: 'x', env: { TOKEN: '${TOKEN}' } },
      two: { type: 'http', url: '${BASE}/mcp', headers: { A: '${KEY}' } },
      fine: { command: 'x', args: ['${TOKEN:-none}'] },
    });
    expect(config.servers.map((s) => s.name)).toEqual(['fine']);
    expect(config.problems).toEqual([
      problem('one', 'environment variable ${TOKEN} is not set and has no default'),
      problem('two', 'environment variables ${BASE}, ${KEY} are not set and have no default'),
    ]);
  });

  it('does not take a variable from Object.prototype', async () => {
    const config = await readWorkspace({ s: { command: '${constructor}' } });
    expect(config.problems).toEqual([
      problem('s', 'environment variable ${constructor} is not set and has no default'),
    ]);
  });

  it('refuses a command that expands to nothing', async () => {
    const config = await readWorkspace({ s: { command: '${CMD:-}' } });
    expect(config.problems).toEqual([problem('s', '"command" is empty once its variables are expanded')]);
  });

  it('does not expand the folder the default cwd comes from', async () => {
    const odd = path.join(ws, '${HOME}');
    await mkdir(odd);
    await writeFile(path.join(odd, '.mcp.json'), servers({ s: { command: 'x' } }));
    const config = await readMcpConfig({ workspaceRoot: odd, userConfigDir: userDir, env: { HOME: '/home/me' } });
    expect(config.servers[0]?.transport).toMatchObject({ cwd: odd });
  });
});

describe('readMcpConfig: cwd', () => {
  it('resolves a relative cwd against the workspace, in either file, and keeps an absolute one', async () => {
    await writeFile(
      workspaceFile,
      servers({ rel: { command: 'x', cwd: 'tools/../srv' }, abs: { command: 'x', cwd: '/srv' } }),
    );
    // A cwd the person wrote in their own file is their choice: "." is the project, as in Claude Code.
    await writeFile(userFile, servers({ mine: { command: 'x', cwd: '.' } }));
    const transports = (await read()).servers.map((s) => s.transport);
    expect(transports.map((t) => (t.type === 'stdio' ? t.cwd : null))).toEqual([path.join(ws, 'srv'), '/srv', ws]);
    expect(transports.some((t) => t.type === 'stdio' && t.ownFolder)).toBe(false);
  });

  it("resolves a user server's relative cwd against its own folder when no workspace is open", async () => {
    await writeFile(userFile, servers({ mine: { command: 'x', cwd: 'sub' } }));
    expect((await read({}, null)).servers[0]?.transport).toMatchObject({
      cwd: path.join(userDir, 'mcp-cwd', 'mine', 'sub'),
    });
  });
});

describe('readMcpConfig: a name in both files', () => {
  it("keeps the user's server and leaves out the workspace's, saying why", async () => {
    await writeFile(workspaceFile, servers({ db: { command: 'workspace-db' }, other: { command: 'x' } }));
    await writeFile(userFile, servers({ db: { command: 'my-db' } }));
    const config = await read();
    expect(config.servers.map((s) => `${s.scope}:${s.name}:${(s.transport as { command: string }).command}`)).toEqual([
      'workspace:other:x',
      'user:db:my-db',
    ]);
    expect(config.problems).toEqual([
      problem('db', `a user-level server has the same name (in ${userFile}); this one is left out`),
    ]);
  });

  it("keeps the workspace's server out even when the user's of that name is itself broken", async () => {
    await writeFile(workspaceFile, servers({ db: { command: 'workspace-db' } }));
    await writeFile(userFile, servers({ db: { command: '${MISSING}' } }));
    const config = await read();
    expect(config.servers).toEqual([]);
    expect(config.problems.map((p) => `${p.source === userFile ? 'user' : 'workspace'}: ${p.message}`)).toEqual([
      `workspace: server "db": a user-level server has the same name (in ${userFile}); this one is left out`,
      'user: server "db": environment variable ${MISSING} is not set and has no default',
    ]);
  });
});
