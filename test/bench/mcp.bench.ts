/**
 * `npm run bench -- mcp`: what Gatehouse adds to an MCP tool call (SPEC §10), once the
 * session holds an allow_session grant for exactly that call.
 *
 * Both sides talk to the same server, the repo's test server (test/mcp-server), over
 * stdio and unconfined, so the ratio is Gatehouse's own overhead, not bubblewrap's.
 *
 * - Reference: the SDK's Client over its StdioClientTransport, `client.callTool({name:
 *   'echo', arguments: {message}})`.
 * - Ours (against the target, <= 1.5x at p50): through the gate, Gate.run → Tools.plan →
 *   the MCP tool's plan (arguments against its input schema, canonical JSON, the call's
 *   fingerprint, the allowed shape compared) → classify (granted) → execute →
 *   ServerConnection.call (Gatehouse's own stdio transport, ServerProcess) → toolResultOf.
 * - Also shown, against no target: the whole step as the runner makes it, with the
 *   tool_call and tool_result events appended to a real SessionLog fsync'd as the app
 *   writes it. Those appends are every tool call's (a read_file's too), not the gate's.
 *
 * Same arguments every call (the grant binds them), the same number of calls a side, in
 * rounds that alternate which side goes first, after a warm-up. Extra lines, against no
 * target, show where the time goes.
 *
 * The confined variant (against the target, <= 1.5x at p50 and in this process's CPU): the
 * same Gate.run with the server inside bwrap, as a workspace's server runs (seccomp
 * program, namespaces, network through the socat bridge), against that path with the same
 * server unconfined, both measured in this run. The whole step and ServerConnection.call
 * alone are shown the same way, and the CPU each side's server tree spends per call, per
 * process (from /proc/<pid>/task/<tid>/schedstat, which counts nanoseconds).
 */
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getEventListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Grant } from '../../shared/cards.js';
import type { EventPayload, SessionEvent } from '../../shared/events.js';
import { MCP_CALL_TIMEOUT_MS, TURN_MAX_STEPS } from '../../shared/limits.js';
import { applyOwned, foldEvents } from '../../shared/reducer.js';
import { classify, grantForPlan } from '../../electron/core/gate/classify.js';
import { Gate, type GateRecord, type ToolCall } from '../../electron/core/gate/permission-gate.js';
import { SessionLog, type Durability } from '../../electron/core/log/session-log.js';
import { storeToolArgs } from '../../electron/core/log/stored-tool-args.js';
import { serverFingerprint, toolFingerprint } from '../../electron/core/mcp/fingerprint.js';
import type { McpServerConfig } from '../../electron/core/mcp/mcp-config.js';
import { toolResultOf } from '../../electron/core/mcp/mcp-result.js';
import { mcpToolDef } from '../../electron/core/mcp/mcp-tool-def.js';
import { ServerConnection, type ConnectionDeps } from '../../electron/core/mcp/server-connection.js';
import { Workspace } from '../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../electron/core/tools/command-env.js';
import { Tools, WORKSPACE_TOOLS } from '../../electron/core/tools/tools.js';
import type { ToolResult } from '../../electron/core/tools/tool-def.js';
import { reportRatio } from './measure.js';

import { TEST_SERVER_FOLDER } from '../mcp-server/test-server-folder.js';
import { TEST_SERVER } from '../mcp-server/test-server-path.js';
import { unconfined } from '../support/unconfined.js';
const SERVER = 'bench';
const TOOL = `mcp__${SERVER}__echo`;
const MESSAGE = 'hello from the mcp bench';
const EXPECTED = `Echo: ${MESSAGE}`;
const ROUNDS = 20;
const PER_ROUND = 100;
const WARMUP = 300;
/** Calls for each in-process piece timed on its own. */
const PIECE_CALLS = 5000;

// The SDK's request() adds a listener to the call's AbortSignal and never removes it, so a
// turn's signal collects one per MCP call, and some Node versions (20) warn once a signal
// holds more than 10. Counted and reported in one line rather than printed once a turn.
let listenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name === 'MaxListenersExceededWarning') listenerWarnings++;
  else console.warn(`${w.name}: ${w.message}`);
});

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-mcp-bench-')));
const workspaceDir = path.join(root, 'ws');
await fs.mkdir(workspaceDir);
// The environment a server starts with in the app: this process's, secrets removed.
const env = commandEnv(process.env);

interface Stats {
  calls: number;
  p50: number;
  mean: number;
  /** CPU time of this process per call, in microseconds (the server's is not counted: it is the same server). */
  cpuUs: number;
}

function stats(samples: number[], cpuMicros = NaN): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { calls: samples.length, p50, mean, cpuUs: cpuMicros / samples.length };
}

/** Times `calls` calls of fn into `into`; returns the CPU microseconds this process spent on them. */
async function timeInto(fn: () => Promise<unknown>, calls: number, into: number[]): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await fn();
    into.push(performance.now() - t0);
  }
  const used = process.cpuUsage(cpu);
  return used.user + used.system;
}

function expectEcho(text: string | undefined, who: string): void {
  if (text !== EXPECTED) throw new Error(`${who}: expected "${EXPECTED}", got ${JSON.stringify(text)}`);
}

// ---- reference: the SDK's client, straight to the server ----
async function reference(): Promise<{ call: () => Promise<void>; close: () => Promise<void> }> {
  const stringEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const client = new Client({ name: 'bench-reference', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [TEST_SERVER],
      env: stringEnv,
      cwd: workspaceDir,
      stderr: 'pipe',
    }),
  );
  // A real client lists the tools first (the SDK caches output validators from the list).
  if (!(await client.listTools()).tools.some((t) => t.name === 'echo')) throw new Error('reference: no echo tool');
  const call = async () => {
    const result = (await client.callTool({ name: 'echo', arguments: { message: MESSAGE } })) as CallToolResult;
    const first = result.content[0];
    expectEcho(first?.type === 'text' ? first.text : undefined, 'reference');
  };
  return { call, close: () => client.close() };
}

// ---- ours: a session's tools and gate, with the grant held ----
interface Ours {
  /** One model call as a step makes it: appends, Gate.run, result. */
  step: () => Promise<void>;
  /** Gate.run alone, no log. */
  gateOnly: () => Promise<void>;
  /** ServerConnection.call alone: Gatehouse's transport and client, no plan or gate. */
  connectionOnly: () => Promise<void>;
  /** The step's two appends alone, as it issues them, with no call between. */
  appendsOnly: () => Promise<void>;
  /** Calls so far in the current turn, and the abort listeners its signal holds. */
  turnSignal: () => { calls: number; listeners: number };
  tools: Tools;
  grants: Grant[];
  connection: ServerConnection;
  close: () => Promise<void>;
}

async function ours(label: string, durability: Durability, confine?: ConnectionDeps['confine']): Promise<Ours> {
  const config: McpServerConfig = {
    name: SERVER,
    scope: confine ? 'workspace' : 'user',
    source: confine ? path.join(workspaceDir, '.mcp.json') : path.join(root, 'mcp.json'),
    transport: { type: 'stdio', command: process.execPath, args: [TEST_SERVER], env: {}, cwd: workspaceDir },
  };
  const connection = new ServerConnection(config, { env: () => env, confine, onChange: () => {} });
  await connection.start();
  const echo: Tool | undefined = connection.tools.find((t) => t.name === 'echo');
  if (!echo) throw new Error(`${label}: the server lists no echo tool`);
  // What SessionMcp's `allowed` holds once a card for the tool was answered allow_session.
  const allowed = { description: echo.description ?? '', inputSchema: echo.inputSchema };
  const defs = Object.freeze([
    mcpToolDef(TOOL, echo, {
      server: SERVER,
      serverFingerprint: serverFingerprint(config),
      connection,
      allowedShape: (t) => (t === TOOL ? allowed : undefined),
      onLost: () => {
        throw new Error(`${label}: the server stopped`);
      },
      callTimeoutMs: MCP_CALL_TIMEOUT_MS,
    }),
  ]);
  const tools = new Tools(
    { workspace: await Workspace.open(workspaceDir), commandEnv: env, sandbox: unconfined() },
    WORKSPACE_TOOLS,
    () => defs,
  );

  // The grant an allow_session answer to this call's card leaves in the session.
  const grants: Grant[] = [grantForPlan(await tools.plan(TOOL, { message: MESSAGE }))];
  const log = new SessionLog({ file: path.join(root, `events-${label}.jsonl`), durability });
  let state = foldEvents([]);
  log.onAppend((event) => {
    state = applyOwned(state, event);
  });
  const noCard = (what: string) => () => {
    throw new Error(`${label}: the gate wanted ${what}, so the grant did not match`);
  };
  const record: GateRecord = {
    append: (payload: EventPayload): Promise<SessionEvent> => {
      if (payload.type === 'card') noCard('a card')();
      return log.append(payload);
    },
    putBlob: noCard('a blob for a card'),
  };
  const gate = new Gate({
    tools,
    record,
    grants: { list: () => grants, persist: noCard('to keep a grant') },
    diff: noCard('a diff for a card'),
    newId: noCard('a card id'),
  });
  const turnId = 'turn-1';
  await log.append({ type: 'user_message', messageId: 'm1', text: 'echo something, many times' });
  await log.append({ type: 'turn_started', turnId, messageId: 'm1' });
  // A turn's signal, as the runner passes one with every call; a turn has at most TURN_MAX_STEPS steps.
  let turn = new AbortController();
  const noBlobs = { put: noCard('a blob for the arguments') };
  let n = 0;
  let turnCalls = 0;

  const check = (r: ToolResult, who: string) => expectEcho(r.ok ? r.output : `error: ${r.error}`, who);
  const step = async () => {
    if (turnCalls++ % TURN_MAX_STEPS === 0) turn = new AbortController();
    const toolCallId = `call_${++n}`;
    const args = { message: MESSAGE };
    // Runner.step: the call's event is logged while the call starts; both are awaited after.
    const stored = await storeToolArgs(args, noBlobs);
    const logged = log.append({ type: 'tool_call', turnId, toolCallId, tool: TOOL, ...stored });
    const call: ToolCall = { turnId, toolCallId, tool: TOOL, args };
    const r = await gate.run(call, { signal: turn.signal, onOutput: () => {} });
    await log.append({
      type: 'tool_result',
      turnId,
      toolCallId,
      tool: TOOL,
      ok: r.ok,
      output: r.ok ? r.output : r.error,
      ...(r.details ? { details: r.details } : {}),
    });
    await logged;
    check(r, label);
  };
  const appendsOnly = async () => {
    const toolCallId = `call_${++n}`;
    const logged = log.append({ type: 'tool_call', turnId, toolCallId, tool: TOOL, args: { message: MESSAGE } });
    await log.append({ type: 'tool_result', turnId, toolCallId, tool: TOOL, ok: true, output: EXPECTED });
    await logged;
  };
  const gateOnly = async () => {
    const r = await gate.run({ turnId, toolCallId: `call_${++n}`, tool: TOOL, args: { message: MESSAGE } });
    check(r, `${label}, gate only`);
  };
  const connectionOnly = async () => {
    const result = await connection.call('echo', { message: MESSAGE }, { timeoutMs: MCP_CALL_TIMEOUT_MS });
    const first = result.content[0];
    expectEcho(first?.type === 'text' ? first.text : undefined, `${label}, connection only`);
  };
  const close = async () => {
    await connection.stop();
    await log.close();
    if (state.grants.length !== 0 || state.openCards.length !== 0) throw new Error(`${label}: a card went up`);
  };
  const turnSignal = () => ({
    calls: ((turnCalls - 1) % TURN_MAX_STEPS) + 1,
    listeners: getEventListeners(turn.signal, 'abort').length,
  });
  return { step, gateOnly, connectionOnly, appendsOnly, turnSignal, tools, grants, connection, close };
}

/** The pid and its descendants, as /proc shows them now. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone since the listing
    }
  }
  const tree: number[] = [];
  for (let todo = [root]; todo.length > 0;) {
    const pid = todo.pop()!;
    tree.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Nanoseconds on CPU so far of each process of the tree (every thread), by "pid name". */
function treeCpuNs(pids: readonly number[]): Map<string, number> {
  const spent = new Map<string, number>();
  for (const pid of pids) {
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      let ns = 0;
      for (const tid of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      spent.set(`${pid} ${comm}`, ns);
    } catch {
      // gone
    }
  }
  return spent;
}

/** A server's process tree, whose CPU is counted while its side runs. */
interface ServerTree {
  pids: number[];
  /** Microseconds on CPU while its side's timed calls ran, by "pid name". */
  usedUs: Map<string, number>;
}

function serverTree(root: number | null): ServerTree | undefined {
  return root === null ? undefined : { pids: processTree(root), usedUs: new Map() };
}

/**
 * Rounds of PER_ROUND calls a side, the order turning each round; every sample of a side
 * together. A side with a server tree also counts the CPU its processes spend in its rounds.
 */
async function alternate(
  sides: Record<string, () => Promise<void>>,
  servers: Record<string, ServerTree | undefined> = {},
): Promise<Record<string, Stats>> {
  const names = Object.keys(sides);
  const samples = new Map(names.map((k) => [k, [] as number[]]));
  const cpu = new Map(names.map((k) => [k, 0]));
  for (const name of names) await timeInto(sides[name]!, WARMUP, []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const tree = servers[name];
      const before = tree && treeCpuNs(tree.pids);
      cpu.set(name, cpu.get(name)! + (await timeInto(sides[name]!, PER_ROUND, samples.get(name)!)));
      if (tree && before) {
        for (const [who, ns] of treeCpuNs(tree.pids))
          tree.usedUs.set(who, (tree.usedUs.get(who) ?? 0) + (ns - (before.get(who) ?? ns)) / 1000);
      }
    }
  }
  return Object.fromEntries(names.map((k) => [k, stats(samples.get(k)!, cpu.get(k)!)]));
}

/** "total us/call (pid name a, pid name b …)" for a server tree over `calls` calls. */
function treeWords(tree: ServerTree | undefined, calls: number): string {
  if (!tree) return 'not known';
  const parts = [...tree.usedUs].map(([who, us]) => `${who} ${(us / calls).toFixed(1)}`);
  const total = [...tree.usedUs.values()].reduce((a, b) => a + b, 0) / calls;
  return `${total.toFixed(1)} us/call (${parts.join(', ')})`;
}

/** A CPU-only piece of the path, timed on its own in microseconds. */
async function piece(fn: () => unknown): Promise<number> {
  const samples: number[] = [];
  await timeInto(async () => fn(), 500, []);
  await timeInto(async () => fn(), PIECE_CALLS, samples);
  return stats(samples).p50 * 1000;
}

const ms = (s: Stats) =>
  `${s.calls} calls, p50 ${s.p50.toFixed(3)} ms, mean ${s.mean.toFixed(3)} ms, this process's CPU ${s.cpuUs.toFixed(0)} us/call`;
const forScale = (name: string, s: Stats, ref: Stats) =>
  console.log(`  ${name}: ${ms(s)}, ${(s.p50 / ref.p50).toFixed(2)}x the reference (no target)`);

try {
  const [load] = os.loadavg();
  console.log(
    `machine: ${os.cpus().length} cores, load average ${load?.toFixed(1)} at the start, Node ${process.version}`,
  );
  const ref = await reference();
  const app = await ours('fsync', 'fsync');
  const unsynced = await ours('none', 'none');
  const t = await alternate({
    reference: ref.call,
    ours: app.step,
    gateOnly: app.gateOnly,
    connectionOnly: app.connectionOnly,
    oursNoSync: unsynced.step,
  });

  console.log(
    `mcp: echo {message} against test/mcp-server/test-mcp-server.mjs over stdio, one server process a side, ` +
      `unconfined on both sides (the ratio is Gatehouse's overhead, not bwrap's); ` +
      `${ROUNDS} rounds of ${PER_ROUND} calls a side, order alternating, after ${WARMUP} warm-up calls a side`,
  );
  console.log(`reference, SDK Client + StdioClientTransport, client.callTool: ${ms(t.reference!)}`);
  console.log(
    `ours, through the gate with an allow_session grant held (Gate.run: plan, schema check, canonical JSON, ` +
      `fingerprints, grant match, ServerConnection.call on Gatehouse's own transport, toolResultOf): ${ms(t.gateOnly!)}`,
  );
  reportRatio(
    'mcp: echo through the gate with a session grant vs the SDK client direct (p50)',
    t.gateOnly!.p50,
    t.reference!.p50,
    1.5,
  );

  console.log('where the time goes, and what a whole step adds (no target):');
  // The two log appends are every tool call's, a read_file's as much as an MCP call's: not the gate's cost.
  forScale(
    "the whole step as the runner makes it: tool_call append, Gate.run, tool_result append, the log fsync'd as the app writes it",
    t.ours!,
    t.reference!,
  );
  forScale("the same step with the log at durability 'none' (no fsync)", t.oursNoSync!, t.reference!);
  forScale(
    "ServerConnection.call alone (Gatehouse's transport and SDK client, no gate)",
    t.connectionOnly!,
    t.reference!,
  );
  const { calls, listeners } = app.turnSignal();
  console.log(
    `  the turn's AbortSignal holds ${listeners} abort listeners after ${calls} calls in the turn (the SDK keeps one ` +
      `on the signal it is given, so each call gives it a signal of its own)` +
      (listenerWarnings > 0
        ? ` (Node ${process.version} warned ${listenerWarnings} times, once per turn past 10)`
        : ''),
  );
  const appendPair = await alternate({ fsync: app.appendsOnly, none: unsynced.appendsOnly });
  console.log(
    `  the step's two appends alone (tool_call and tool_result, no call between): fsync p50 ` +
      `${appendPair.fsync!.p50.toFixed(3)} ms, 'none' p50 ${appendPair.none!.p50.toFixed(3)} ms`,
  );
  const args = { message: MESSAGE };
  const plan = await app.tools.plan(TOOL, args);
  const sample = await app.connection.call('echo', args, { timeoutMs: MCP_CALL_TIMEOUT_MS });
  const echo = app.connection.tools.find((tool) => tool.name === 'echo')!;
  const shape = { description: echo.description ?? '', inputSchema: echo.inputSchema };
  const planUs = await piece(() => app.tools.plan(TOOL, args));
  const fingerprintUs = await piece(() => toolFingerprint(echo.name, shape));
  const classifyUs = await piece(() => {
    if (classify(plan, app.grants).kind !== 'granted') throw new Error('the grant does not match');
  });
  const resultUs = await piece(() => toolResultOf(sample, SERVER));
  console.log(
    `  in-process pieces, p50 of ${PIECE_CALLS}: Tools.plan ${planUs.toFixed(1)} us ` +
      `(one toolFingerprint of echo, canonical JSON + SHA-256, is ${fingerprintUs.toFixed(1)} us), ` +
      `classify ${classifyUs.toFixed(1)} us, toolResultOf ${resultUs.toFixed(1)} us`,
  );
  await unsynced.close();

  // The confined variant: the server as a workspace's runs, inside bubblewrap with network.
  await fs.mkdir(path.join(root, 'data'));
  const sandbox = new BwrapSandbox({
    dataDir: path.join(root, 'data'),
    home: root,
    env: process.env,
    extraShown: () => [TEST_SERVER_FOLDER],
  });
  const availability = await sandbox.availability();
  if (!availability.available) {
    console.log(`confined variant skipped: ${availability.reason}`);
  } else {
    const profile = await sandbox.profile(workspaceDir, { network: true, git: false });
    const confined = await ours('confined', 'fsync', { sandbox, profile });
    const servers = {
      unconfined: serverTree(app.connection.pid),
      confined: serverTree(confined.connection.pid),
    };
    const c = await alternate(
      {
        unconfined: app.gateOnly,
        confined: confined.gateOnly,
        unconfinedConnection: app.connectionOnly,
        confinedConnection: confined.connectionOnly,
        unconfinedStep: app.step,
        confinedStep: confined.step,
      },
      { unconfined: servers.unconfined, confined: servers.confined },
    );
    console.log(
      `confined variant: the same Gate.run (a session grant held) with the server inside bwrap as a workspace's ` +
        `runs (seccomp program, namespaces, network through the socat bridge), against the same server unconfined, ` +
        `${ROUNDS} rounds of ${PER_ROUND} calls a side, order alternating`,
    );
    console.log(`  unconfined: ${ms(c.unconfined!)}`);
    console.log(`  confined: ${ms(c.confined!)}`);
    reportRatio(
      'mcp: a call to a confined server vs the same server unconfined, through the gate (p50)',
      c.confined!.p50,
      c.unconfined!.p50,
      1.5,
    );
    reportRatio(
      "mcp: this process's CPU per call, confined server vs the same server unconfined, through the gate",
      c.confined!.cpuUs,
      c.unconfined!.cpuUs,
      1.5,
      'us',
    );
    console.log(
      `  the server's process tree on CPU per call (the gate-only rounds): unconfined ` +
        `${treeWords(servers.unconfined, c.unconfined!.calls)}; confined ${treeWords(servers.confined, c.confined!.calls)}`,
    );
    const compare = (name: string, confinedSide: Stats, unconfinedSide: Stats) =>
      console.log(
        `  ${name}: confined ${ms(confinedSide)}; unconfined ${ms(unconfinedSide)}; ` +
          `ratio ${(confinedSide.p50 / unconfinedSide.p50).toFixed(2)}x (no target)`,
      );
    compare('ServerConnection.call alone', c.confinedConnection!, c.unconfinedConnection!);
    compare(
      "the whole step (tool_call and tool_result appended to a log fsync'd as the app writes it)",
      c.confinedStep!,
      c.unconfinedStep!,
    );
    await confined.close();
  }
  await app.close();
  await ref.close();
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
