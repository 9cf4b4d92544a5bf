/**
 * A scripted ACP agent: a real child process speaking ACP over its stdio through the SDK's
 * agent side, whose every move a test writes down in a JSON script (argv[2]). Each
 * `session/prompt` plays the next turn of the script; a relaunched process carries on with
 * the turn after the last one played, counted in its journal. The journal (a JSON line per
 * thing the agent received: requests, the client's answers and errors) is how a test sees
 * what reached the agent.
 *
 * Run with `node --import tsx test/support/scripted-acp-agent.ts <script.json>`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** One move of a turn, played in order. */
export type ScriptStep =
  /** One message, streamed in these chunks. */
  | { say: string[] }
  | {
      toolCall: {
        id: string;
        title: string;
        kind?: acp.ToolKind;
        locations?: string[];
        meta?: Record<string, unknown>;
      };
    }
  /** A call's update: its end (status), or words learnt since it was announced (title, locations). */
  | { toolUpdate: { id: string; status?: acp.ToolCallStatus; text?: string; title?: string; locations?: string[] } }
  | { plan: acp.PlanEntry[] }
  /** fs/write_text_file; the answer (or error) goes to the journal. */
  | { write: { path: string; content: string } }
  | { read: { path: string; line?: number; limit?: number } }
  | {
      ask: { title: string; kind?: acp.ToolKind; options: acp.PermissionOption[]; text?: string; locations?: string[] };
    }
  /** Writes to stderr and exits at once, mid-turn. */
  | { crash: { code: number; stderr: string } }
  /** This many chunk updates, as fast as the pipe takes them. */
  | { flood: number }
  /** A raw line on stdout: not JSON, or JSON that is no ACP message. */
  | { raw: string }
  /** An update ACP does not know. */
  | { unknownUpdate: true }
  /** Waits for session/cancel, then ends the turn cancelled. */
  | { waitCancel: true }
  /** Never returns, whatever the client sends. */
  | { hang: true }
  /** Waits this long (ms). */
  | { sleep: number };

export interface AgentScript {
  journal: string;
  /** 'never': initialize is never answered. */
  initialize?: 'never' | { loadSession?: boolean; authMethods?: { id: string; name: string }[] };
  /** The session id session/new answers (default "agent-session-1"). */
  sessionId?: string;
  /** Played on session/load, as a real agent replays its history. */
  replay?: string[];
  /** Per prompt, in order; a turn's stop reason is end_turn unless `stop` says otherwise. */
  turns: { steps: ScriptStep[]; stop?: acp.StopReason }[];
  /**
   * Puppet mode: a Unix socket where a test plays the agent move by move. At each prompt the
   * agent says `{"prompt": text}`, then takes one ScriptStep (or `{"finish": true}`) per
   * line, answering `{"done": true}` after each, and `{"ended": reason}` when the turn ends.
   */
  puppet?: string;
}

const script = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as AgentScript;

function journal(entry: Record<string, unknown>): void {
  appendFileSync(script.journal, `${JSON.stringify(entry)}\n`);
}

/** The turns played by earlier processes of this script, so a relaunch carries on. */
function promptsSoFar(): number {
  try {
    return readFileSync(script.journal, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"method":"session/prompt"')).length;
  } catch {
    return 0;
  }
}

let cancelled: () => void = () => {};
/** Set by session/cancel, cleared at each prompt: a puppet turn looks at it between moves. */
let cancelRequested = false;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function play(step: ScriptStep, ctx: acp.AgentContext, sessionId: string): Promise<acp.StopReason | null> {
  const update = (u: acp.SessionUpdate) => ctx.notify(acp.methods.client.session.update, { sessionId, update: u });
  if ('say' in step) {
    for (const text of step.say)
      await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  } else if ('toolCall' in step) {
    const t = step.toolCall;
    await update({
      sessionUpdate: 'tool_call',
      toolCallId: t.id,
      title: t.title,
      kind: t.kind ?? 'read',
      status: 'pending',
      ...(t.locations ? { locations: t.locations.map((path) => ({ path })) } : {}),
      ...(t.meta ? { _meta: t.meta } : {}),
    });
  } else if ('toolUpdate' in step) {
    const t = step.toolUpdate;
    const content = t.text
      ? [{ type: 'content' as const, content: { type: 'text' as const, text: t.text } }]
      : undefined;
    await update({
      sessionUpdate: 'tool_call_update',
      toolCallId: t.id,
      ...(t.status ? { status: t.status } : {}),
      ...(t.title ? { title: t.title } : {}),
      ...(t.locations ? { locations: t.locations.map((path) => ({ path })) } : {}),
      ...(content ? { content } : {}),
    });
  } else if ('plan' in step) {
    await update({ sessionUpdate: 'plan', entries: step.plan });
  } else if ('write' in step) {
    await answerOf('write', () => ctx.request(acp.methods.client.fs.writeTextFile, { sessionId, ...step.write }));
  } else if ('read' in step) {
    await answerOf('read', () => ctx.request(acp.methods.client.fs.readTextFile, { sessionId, ...step.read }));
  } else if ('ask' in step) {
    const a = step.ask;
    const toolCall: acp.ToolCallUpdate = {
      toolCallId: `ask-${a.title}`,
      title: a.title,
      kind: a.kind ?? 'other',
      ...(a.text ? { content: [{ type: 'content', content: { type: 'text', text: a.text } }] } : {}),
      ...(a.locations ? { locations: a.locations.map((path) => ({ path })) } : {}),
    };
    await answerOf('ask', () =>
      ctx.request(acp.methods.client.session.requestPermission, { sessionId, toolCall, options: a.options }),
    );
  } else if ('crash' in step) {
    process.stderr.write(step.crash.stderr);
    process.exit(step.crash.code);
  } else if ('flood' in step) {
    const sends: Promise<void>[] = [];
    for (let i = 0; i < step.flood; i++)
      sends.push(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '.' } }));
    await Promise.all(sends);
  } else if ('raw' in step) {
    process.stdout.write(`${step.raw}\n`);
  } else if ('unknownUpdate' in step) {
    await ctx.notify('session/update', { sessionId, update: { sessionUpdate: 'something_new', x: 1 } });
  } else if ('waitCancel' in step) {
    // The cancel may have come already (while the client answered a request of this turn).
    if (!cancelRequested) await new Promise<void>((r) => (cancelled = r));
    return 'cancelled';
  } else if ('hang' in step) {
    await new Promise(() => {});
  } else if ('sleep' in step) {
    await sleep(step.sleep);
  }
  return null;
}

/** A client request's answer or error, into the journal. */
async function answerOf(what: string, ask: () => Promise<unknown>): Promise<void> {
  try {
    journal({ answer: what, result: await ask() });
  } catch (err) {
    const e = err as { code?: number; message?: string; data?: unknown };
    journal({ answer: what, error: { code: e.code, message: e.message, data: e.data } });
  }
}

/** The puppet's line reader and writer, opened at the first prompt and kept for the process's life. */
let puppet: { next(): Promise<ScriptStep | { finish: true } | null>; say(line: object): void } | null = null;

async function openPuppet(file: string): Promise<NonNullable<typeof puppet>> {
  const socket = net.connect(file);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const lines = readline.createInterface({ input: socket })[Symbol.asyncIterator]();
  return {
    next: async () => {
      const { value, done } = await lines.next();
      return done ? null : (JSON.parse(value as string) as ScriptStep | { finish: true });
    },
    say: (line) => socket.write(`${JSON.stringify(line)}\n`),
  };
}

let pendingMove: Promise<ScriptStep | { finish: true } | null> | null = null;

/** One turn played move by move; a cancel (while waiting for a move, or during one) ends it cancelled. */
async function puppetTurn(params: acp.PromptRequest, ctx: acp.AgentContext): Promise<acp.StopReason> {
  puppet ??= await openPuppet(script.puppet!);
  const p = puppet;
  const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
  p.say({ prompt: text });
  const cancel = new Promise<'cancelled'>((r) => (cancelled = () => r('cancelled')));
  for (;;) {
    // A move asked for but not yet come stays asked for: a cancelled turn must not drop the next turn's move.
    pendingMove ??= p.next();
    const move = cancelRequested ? 'cancelled' : await Promise.race([pendingMove, cancel]);
    if (move !== 'cancelled') pendingMove = null;
    if (move === 'cancelled' || move === null || 'finish' in move) {
      const reason = move === 'cancelled' || move === null ? 'cancelled' : 'end_turn';
      p.say({ ended: reason });
      return reason;
    }
    await play(move, ctx, params.sessionId);
    p.say({ done: true });
  }
}

const init = script.initialize;
const app = acp
  .agent({ name: 'scripted-acp-agent' })
  .onRequest(acp.methods.agent.initialize, async ({ params }) => {
    journal({ method: 'initialize', params });
    if (init === 'never') await new Promise(() => {});
    const caps = init && init !== 'never' ? init : {};
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: caps.loadSession ?? false },
      authMethods: caps.authMethods ?? [],
    };
  })
  .onRequest(acp.methods.agent.authenticate, ({ params }) => {
    journal({ method: 'authenticate', params });
    return {};
  })
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    journal({ method: 'session/new', params });
    return { sessionId: script.sessionId ?? 'agent-session-1' };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client: ctx }) => {
    journal({ method: 'session/load', params });
    for (const text of script.replay ?? [])
      await ctx.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      });
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client: ctx }) => {
    cancelRequested = false;
    if (script.puppet) {
      journal({ method: 'session/prompt', params });
      return { stopReason: await puppetTurn(params, ctx) };
    }
    const turn = script.turns[promptsSoFar()];
    journal({ method: 'session/prompt', params });
    for (const step of turn?.steps ?? []) {
      const stop = await play(step, ctx, params.sessionId);
      if (stop) return { stopReason: stop };
    }
    return { stopReason: turn?.stop ?? 'end_turn' };
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    journal({ method: 'session/cancel', params });
    cancelRequested = true;
    cancelled();
  });

app.connect(
  acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
);
