/**
 * A stdio server's process: stopping it stops its whole tree (a child it started too),
 * and a server that exits says how.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../../../../electron/core/mcp/server-connection.js';
import { pidAlive } from '../../../../../electron/core/process/pid-alive.js';
import type { CommandSpec, Sandbox, SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';
import { TEST_SERVER } from './mcp-harness.js';

let connection: ServerConnection | undefined;
afterEach(async () => {
  await connection?.stop();
  connection = undefined;
});

function connect(env: Record<string, string> = {}, onChange: () => void = () => {}) {
  connection = new ServerConnection(
    {
      name: 't',
      scope: 'user',
      source: '/x/mcp.json',
      transport: { type: 'stdio', command: process.execPath, args: [TEST_SERVER], env, cwd: process.cwd() },
    },
    { env: () => ({ PATH: process.env.PATH }), onChange },
  );
  return connection;
}

describe('an MCP server process', () => {
  it('lists its tools raw, and stopping it stops the child it started too', async () => {
    const c = connect();
    await c.start();
    expect(c.tools.map((t) => t.name)).toContain('echo');
    const result = await c.call('spawn_child', {}, { timeoutMs: 5000 });
    const child = Number(/child (\d+)/.exec(JSON.stringify(result.content))?.[1]);
    const server = c.pid!;
    expect(pidAlive(child)).toBe(true);
    await c.stop();
    expect(pidAlive(server)).toBe(false);
    expect(pidAlive(child)).toBe(false);
  });

  it('that fails to start says how it ended, with its stderr kept', async () => {
    const c = connect({ MCP_TEST_STDERR: 'no config found', MCP_TEST_EXIT_AT_START: '4' });
    await expect(c.start()).rejects.toThrow(/could not start: it stopped \(exit code 4\)/);
    expect(c.stderrTail()).toBe('no config found');
  });

  it('that crashes mid-call fails the call, closes with the reason and tells its owner', async () => {
    let changes = 0;
    const c = connect({}, () => changes++);
    await c.start();
    await expect(c.call('crash', {}, { timeoutMs: 5000 })).rejects.toThrow(/Connection closed/);
    expect(c.closed).toBe('exit code 3');
    expect(changes).toBe(1);
    await expect(c.call('echo', { message: 'x' }, { timeoutMs: 5000 })).rejects.toThrow(/not running \(exit code 3\)/);
  });
});

describe("a confined server's environment", () => {
  it("reaches the sandbox as the commands' environment, with the config's env apart, never merged in", async () => {
    const seen: CommandSpec[] = [];
    // Confines nothing: it records the spec and runs it as a sandbox would, the declared env on top.
    const sandbox: Sandbox = {
      availability: async () => ({ available: true, kind: 'bubblewrap' }),
      profile: async () => ({}) as SandboxProfile,
      dispose: async () => {},
      confine: async (spec) => {
        seen.push(spec);
        return {
          ...spec,
          env: { ...spec.env, ...spec.declaredEnv },
          initPidOnFd3: true,
          signalInside: async (pid, signal) => (process.kill(-pid, signal), 1),
          release: async () => {},
        };
      },
    };
    connection = new ServerConnection(
      {
        name: 't',
        scope: 'workspace',
        source: '/w/.mcp.json',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [TEST_SERVER],
          env: { PATH: '/tmp/planted/bin', MCP_TEST_ECHO_DESCRIPTION: 'declared' },
          cwd: process.cwd(),
        },
      },
      {
        env: () => ({ PATH: process.env.PATH }),
        confine: { sandbox, profile: {} as SandboxProfile },
        onChange: () => {},
      },
    );
    await connection.start();
    expect(seen).toEqual([
      expect.objectContaining({
        env: { PATH: process.env.PATH },
        declaredEnv: { PATH: '/tmp/planted/bin', MCP_TEST_ECHO_DESCRIPTION: 'declared' },
      }),
    ]);
    expect(connection.tools.find((t) => t.name === 'echo')?.description).toBe('declared');
  });

  it('takes in a tool list change after one its owner failed to take in', async () => {
    let changes = 0;
    const c = connect({}, () => {
      changes++;
      if (changes === 1) throw new Error('the owner failed');
    });
    await c.start();
    const first = c.call('change_description', { text: 'one' }, { timeoutMs: 5000 });
    await expect(first).rejects.toThrow('the owner failed');
    await c.call('change_description', { text: 'two' }, { timeoutMs: 5000 });
    expect(changes).toBe(2);
    expect(c.tools.find((t) => t.name === 'echo')?.description).toBe('two');
  });
});
