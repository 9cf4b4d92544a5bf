/**
 * The real, pinned Claude Code adapter in its jail: it answers ACP `initialize` over the
 * jail's stdio (spoken to with the SDK's client side), and the Claude Code CLI it runs
 * starts inside as a non-root user, under the seccomp program (io_uring refused). The
 * adapter is installed outside the repository (GATEHOUSE_AGENT_CACHE, default
 * /var/cache/gatehouse-agents); when it is missing this FAILS and says how to install it.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchJailed } from '../../../../../electron/core/agents/agent-jail.js';
import type { AgentProcess } from '../../../../../electron/core/agents/agent-process.js';
import { agentView, gateUrlInside } from '../../../../../electron/core/sandbox/agent-view.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { ProcessGroup } from '../../../../../electron/core/process/process-group.js';
import { CLAUDE_CLI, CLAUDE_CODE_SPEC, claudeCodeInstalled } from './claude-code-cache.js';

let installed: { prefix: string; version: string };
let root: string;
let dataDir: string;
let workspace: string;
let gateSocket: string;
let gate: net.Server;
let sandbox: BwrapSandbox;

beforeAll(async () => {
  installed = claudeCodeInstalled();
  root = await fs.mkdtemp('/var/tmp/gatehouse-jail-claude-');
  dataDir = path.join(root, 'data');
  workspace = path.join(root, 'work');
  await fs.mkdir(path.join(dataDir, 'agents', 'run'), { recursive: true });
  await fs.mkdir(workspace);
  gateSocket = path.join(dataDir, 'agents', 'run', 's.sock');
  gate = net.createServer((s) => s.end());
  await new Promise<void>((resolve) => gate.listen(gateSocket, resolve));
  sandbox = new BwrapSandbox({ dataDir, home: path.join(root, 'home'), env: process.env });
}, 60_000);

afterAll(async () => {
  await sandbox?.dispose();
  if (gate) await new Promise((resolve) => gate.close(resolve));
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe('the real Claude Code adapter, jailed', () => {
  it('answers ACP initialize over the jail’s stdio', async () => {
    const agent: AgentProcess = await launchJailed({
      spec: CLAUDE_CODE_SPEC,
      install: { ...installed, node: process.execPath },
      workspace,
      dataDir,
      domains: CLAUDE_CODE_SPEC.domains,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: `sk-test-${randomBytes(4).toString('hex')}` },
      gateSocket,
      sandbox,
    });
    try {
      const stream = ndJsonStream(
        Writable.toWeb(agent.stdin as Writable) as WritableStream<Uint8Array>,
        Readable.toWeb(agent.stdout as Readable) as ReadableStream<Uint8Array>,
      );
      const answer = await client({ name: 'gatehouse-test' }).connectWith(stream, (ctx) =>
        ctx.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        }),
      );
      expect(answer.protocolVersion).toBe(1);
      expect(answer.agentInfo?.name).toMatch(/claude/i);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nstderr: ${agent.stderrTail()}`, { cause: err });
    } finally {
      await agent.stop();
    }
  }, 120_000);

  it("opens a session whose CLI reaches the gate's MCP face and a model endpoint on this machine, from inside", async () => {
    const seen = { gate: 0, model: 0 };
    const gateHttp = http.createServer((_req, res) => {
      seen.gate++;
      res.statusCode = 404;
      res.end();
    });
    const sessionGate = path.join(dataDir, 'agents', 'run', 'http.sock');
    await new Promise<void>((resolve) => gateHttp.listen(sessionGate, resolve));
    // A model that fails every request: the CLI reaching it at all is what is shown.
    const model = http.createServer((_req, res) => {
      seen.model++;
      res.statusCode = 500;
      res.end('{}');
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const agent = await launchJailed({
      spec: CLAUDE_CODE_SPEC,
      install: { ...installed, node: process.execPath },
      workspace,
      dataDir,
      domains: CLAUDE_CODE_SPEC.domains,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-test-not-a-key' },
      gateSocket: sessionGate,
      sandbox,
      model: { endpoint: { port: (model.address() as AddressInfo).port }, baseUrlVariable: 'ANTHROPIC_BASE_URL' },
    });
    try {
      const stream = ndJsonStream(
        Writable.toWeb(agent.stdin as Writable) as WritableStream<Uint8Array>,
        Readable.toWeb(agent.stdout as Readable) as ReadableStream<Uint8Array>,
      );
      await client({ name: 'gatehouse-test' })
        .onNotification(methods.client.session.update, () => {})
        .connectWith(stream, async (ctx) => {
          await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: { terminal: false } });
          const session = await ctx.request(methods.agent.session.new, {
            cwd: await fs.realpath(workspace),
            mcpServers: [{ type: 'http', name: 'gatehouse', url: gateUrlInside(), headers: [] }],
          });
          void ctx
            .request(methods.agent.session.prompt, {
              sessionId: session.sessionId,
              prompt: [{ type: 'text', text: 'hi' }],
            })
            .catch(() => {});
          for (const until = Date.now() + 60_000; Date.now() < until && (seen.gate === 0 || seen.model === 0);) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        });
      expect(seen.gate, agent.stderrTail()).toBeGreaterThan(0);
      expect(seen.model, agent.stderrTail()).toBeGreaterThan(0);
    } finally {
      await agent.stop();
      await new Promise((resolve) => gateHttp.close(resolve));
      await new Promise((resolve) => model.close(resolve));
    }
  }, 120_000);

  it('runs the Claude Code CLI inside as a non-root user (claude --version)', async () => {
    const confine = await agentView(
      sandbox,
      {
        workspace: await fs.realpath(workspace),
        home: path.join(await fs.realpath(dataDir), 'agents', 'claude-code', 'home'),
        install: await fs.realpath(installed.prefix),
        node: process.execPath,
        gateSocket,
      },
      CLAUDE_CODE_SPEC.domains,
    );
    await fs.mkdir(confine.profile.jail?.home as string, { recursive: true, mode: 0o700 });
    const group = await ProcessGroup.start({
      argv: ['/bin/sh', '-c', 'id -u; exec "$0" --version', path.join(installed.prefix, CLAUDE_CLI)],
      cwd: await fs.realpath(workspace),
      env: { PATH: process.env.PATH },
      stdin: 'ignore',
      confine,
    });
    let out = '';
    let err = '';
    group.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    group.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const exit = await group.exited;
    await group.closed;
    await group.settle();
    await group.release();
    expect({ exit, err }).toMatchObject({ exit: { code: 0 } });
    const [uid, version] = out.trim().split('\n');
    expect(Number(uid)).not.toBe(0);
    expect(version).toMatch(/^\d+\.\d+\.\d+ \(Claude Code\)/);
  }, 120_000);
});
