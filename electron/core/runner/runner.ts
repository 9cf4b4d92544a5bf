/**
 * One ask is one turn: a tool loop against the chat client. The runner owns the loop
 * (one model step per call, tools without `execute`), so the gate steps in between
 * steps. What the model sees comes from the session's context (electron/core/context),
 * a view of the log kept inside the window, which is what makes a turn resumable after
 * a restart: the runner never walks the log to build a request.
 */
import type { z } from 'zod';
import type { ModelConfig } from '../../../shared/contract.js';
import { HOOK_OUTPUT_MAX_BYTES, MAX_FAILED_FINISHES, TURN_MAX_STEPS } from '../../../shared/limits.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { CardEvent, QuestionEvent } from '../../../shared/reducer.js';
import type { ChatClient, StepResult, StepToolCall } from '../chat/chat-client.js';
import { isChatError } from '../chat/chat-error.js';
import { ContextFullError } from '../context/context-full-error.js';
import type { SessionContext } from '../context/session-context.js';
import { CancelledError } from '../gate/gate-error.js';
import { DENIED, type Gate, type ToolCall } from '../gate/gate.js';
import { finishRefused } from '../hooks/hook-report.js';
import { readStopHooks } from '../hooks/stop-hooks.js';
import type { Workspace } from '../paths/workspace.js';
import { findSkills, loadSkill, skillRoots } from '../skills/skills.js';
import type { ToolResult } from '../tools/types.js';
import { storeToolArgs } from '../log/tool-args.js';
import { capText } from '../text/output-cap.js';
import { askSchema, finishSchema, useSkillSchema } from './agent-tools.js';
import type { Questions } from './questions.js';

/** The session's log as the runner uses it. */
export interface TurnRecord {
  append(payload: EventPayload): Promise<SessionEvent>;
  putBlob(bytes: Buffer): Promise<string>;
  getBlob(id: string): Promise<Buffer>;
  events(): readonly SessionEvent[];
}

export interface RunnerDeps {
  /** The model this turn talks to (looked up when a step needs it: after a restart, one may be configured only then). */
  model: () => { chat: ChatClient; model: ModelConfig };
  /** What the model sees: the session's context. */
  context: SessionContext;
  gate: Gate;
  questions: Questions;
  /** The session's MCP servers, started (or asked for) before the turn's first model request. */
  mcp?: { prepare(turnId: string, signal: AbortSignal): Promise<void> };
  record: TurnRecord;
  workspace: Workspace;
  home: string;
  newId: () => string;
  /** Streamed text; `reset` means drop what this step streamed so far (a retry streams it afresh). */
  onDelta?: (turnId: string, text: string, reset?: boolean) => void;
  onOutput?: (toolCallId: string, stream: 'stdout' | 'stderr', chunk: string) => void;
}

/** Where a turn picks up after a restart: the card or question that was open. */
export interface ResumePoint {
  card?: CardEvent;
  question?: QuestionEvent;
}

type Dispatched = ToolResult & { finished?: boolean; finishFailed?: boolean };

class TurnOver extends Error {}

export class Runner {
  constructor(private readonly deps: RunnerDeps) {}

  /** Runs the turn to its end and logs `turn_ended`. Never throws: every failure is an event. */
  async run(turnId: string, signal: AbortSignal, resume?: ResumePoint): Promise<void> {
    const state = { failedFinishes: 0 };
    try {
      this.deps.context.beginTurn();
      const at = await this.withdrawServerStart(resume);
      // Servers first: a call to one of their tools, resumed below, needs its server running.
      await this.deps.mcp?.prepare(turnId, signal);
      if (signal.aborted) throw new CancelledError();
      if (at) await this.resumePending(turnId, at, signal, state);
      for (let step = 0; step < TURN_MAX_STEPS; step++) {
        if (signal.aborted) throw new CancelledError();
        await this.step(turnId, signal, state);
      }
      await this.logEnd(turnId, 'error', `stopped after ${TURN_MAX_STEPS} model steps (the step cap)`);
    } catch (err) {
      if (err instanceof TurnOver) return;
      if (signal.aborted || err instanceof CancelledError) {
        await this.closePending(turnId, 'cancelled by the user before this call finished');
        return this.logEnd(turnId, 'cancelled');
      }
      const message = endMessage(err);
      await this.closePending(turnId, `not run: the turn stopped with an error (${message})`);
      await this.deps.record.append({ type: 'error', turnId, message });
      await this.logEnd(turnId, 'error', message);
    }
  }

  private async step(turnId: string, signal: AbortSignal, state: { failedFinishes: number }) {
    const { record } = this.deps;
    const { reply, usage } = await this.modelStep(turnId, signal);
    if (signal.aborted) throw new CancelledError();
    // The step's text and calls are logged together and share one fsync. The calls start
    // without waiting for it: the log keeps lines in order, so anything a call logs later
    // (a card, its result) is only durable once these lines are.
    const payloads = await Promise.all(reply.toolCalls.map((call) => this.callEvent(turnId, call)));
    const appends = [
      record.append(usage),
      ...(reply.text ? [record.append({ type: 'assistant_text', turnId, text: reply.text })] : []),
      ...payloads.map((p) => record.append(p)),
    ];
    const logged = Promise.all(appends).then(
      () => null,
      (err: unknown) => err,
    );
    if (reply.toolCalls.length === 0) {
      await rethrow(logged);
      // A step with plain text and no tool call counts as finish with that text.
      const done = await this.finish(turnId, undefined, reply.text, signal);
      return this.afterFinish(turnId, done === true, state);
    }
    try {
      await this.runCalls(turnId, reply.toolCalls, signal, state);
    } finally {
      await rethrow(logged);
    }
  }

  /**
   * One model call with the context's request for this step. A refusal as too long is
   * never fatal: the context takes the stated window and summarises, and the step is
   * tried once more.
   */
  private async modelStep(turnId: string, signal: AbortSignal): Promise<{ reply: StepResult; usage: EventPayload }> {
    const { context } = this.deps;
    const { chat, model } = this.deps.model();
    const call = { turnId, chat, model, signal };
    for (let attempt = 0; ; attempt++) {
      const step = await context.next(call);
      try {
        const reply = await chat.step({
          ...step,
          signal,
          onTextDelta: (t) => this.deps.onDelta?.(turnId, t),
          onRetry: () => this.deps.onDelta?.(turnId, '', true),
        });
        return { reply, usage: context.usage(turnId, 'step', step, reply.usage) };
      } catch (err) {
        if (!isChatError(err) || err.kind !== 'context_overflow' || attempt > 0 || signal.aborted) throw err;
        await context.overflow(call, step, err);
      }
    }
  }

  /** A tool_call event; arguments too large to sit inline go to a blob the event names. */
  private async callEvent(turnId: string, call: StepToolCall): Promise<EventPayload> {
    const stored = await storeToolArgs(call.input ?? null, {
      put: (data) => this.deps.record.putBlob(Buffer.from(data)),
    });
    return { type: 'tool_call', turnId, toolCallId: call.toolCallId, tool: call.toolName, ...stored };
  }

  /** Runs a step's calls in order. On cancel, every call left gets a result so the log stays whole. */
  private async runCalls(
    turnId: string,
    calls: StepToolCall[],
    signal: AbortSignal,
    state: { failedFinishes: number },
    first?: (call: StepToolCall) => Promise<Dispatched> | null,
  ): Promise<void> {
    for (const [i, call] of calls.entries()) {
      let result: Dispatched;
      try {
        if (signal.aborted) throw new CancelledError();
        result = await (first?.(call) ?? this.dispatch(turnId, call, signal));
      } catch (err) {
        if (!(err instanceof CancelledError) && !signal.aborted) throw err;
        await this.closeCalls(turnId, calls.slice(i), 'cancelled by the user before this call finished');
        throw new CancelledError();
      }
      await this.logResult(turnId, call, result);
      if (result.finished || result.finishFailed) {
        await this.closeCalls(turnId, calls.slice(i + 1), 'not run: it came after finish');
        await this.afterFinish(turnId, result.finished ?? false, state);
        return;
      }
    }
  }

  private async afterFinish(turnId: string, finished: boolean, state: { failedFinishes: number }) {
    if (finished) return this.end(turnId, 'finished');
    state.failedFinishes++;
    if (state.failedFinishes < MAX_FAILED_FINISHES) return;
    const why = `stopped: finish failed ${MAX_FAILED_FINISHES} times because the Stop hooks kept failing`;
    await this.deps.record.append({ type: 'result', turnId, summary: why });
    await this.end(turnId, 'error', why);
  }

  private async dispatch(turnId: string, call: StepToolCall, signal: AbortSignal): Promise<Dispatched> {
    if (call.error) return { ok: false, error: call.error };
    switch (call.toolName) {
      case 'ask':
        return this.ask(turnId, call, signal);
      case 'finish': {
        const args = parse(finishSchema, call.input, 'finish');
        if ('error' in args) return args;
        const done = await this.finish(turnId, call.toolCallId, args.value.summary, signal);
        return done === true
          ? { ok: true, output: 'finished', finished: true }
          : { ok: false, error: done, finishFailed: true };
      }
      case 'use_skill':
        return this.useSkill(call);
      default:
        return this.deps.gate.run(this.toolCall(turnId, call), {
          signal,
          onOutput: (stream, chunk) => this.deps.onOutput?.(call.toolCallId, stream, chunk),
        });
    }
  }

  private async ask(turnId: string, call: StepToolCall, signal: AbortSignal): Promise<Dispatched> {
    const args = parse(askSchema, call.input, 'ask');
    if ('error' in args) return args;
    const questionId = this.deps.newId();
    // Take an answer from the moment the question can be seen, not only once it is durable.
    this.deps.questions.expect(questionId);
    await this.deps.record.append({
      type: 'question',
      turnId,
      toolCallId: call.toolCallId,
      questionId,
      question: args.value.question,
      ...(args.value.options ? { options: args.value.options } : {}),
    });
    return { ok: true, output: await this.deps.questions.wait(questionId, signal) };
  }

  /**
   * Runs the Stop hooks, each through the gate like any command. Returns true when all
   * pass (and logs the result), or the failure text the model reads back. A hook the
   * user denies is skipped rather than failed: refusing to run a folder's code must not
   * trap the turn.
   */
  private async finish(turnId: string, toolCallId: string | undefined, summary: string, signal: AbortSignal) {
    const { record, gate, workspace } = this.deps;
    const hooks = await readStopHooks(workspace);
    if (!hooks.ok) {
      await record.append({
        type: 'hook_run',
        turnId,
        toolCallId,
        argv: [],
        ok: false,
        exitCode: null,
        output: hooks.problem,
      });
      return hooks.problem;
    }
    for (const [i, argv] of hooks.hooks.entries()) {
      const call: ToolCall = {
        turnId,
        toolCallId: `${toolCallId ?? turnId}#hook${i + 1}`,
        tool: 'run',
        args: { argv },
      };
      const r = await gate.run(call, { signal, onOutput: (s, c) => this.deps.onOutput?.(call.toolCallId, s, c) });
      if (signal.aborted) throw new CancelledError();
      const exitCode = typeof r.details?.exitCode === 'number' ? r.details.exitCode : null;
      const denied = !r.ok && r.error === DENIED;
      const ok = denied || (r.ok && exitCode === 0);
      const output = capText(denied ? 'skipped: denied by the user' : r.ok ? r.output : r.error, HOOK_OUTPUT_MAX_BYTES);
      await record.append({ type: 'hook_run', turnId, toolCallId, argv, ok, exitCode, output });
      if (!ok) return finishRefused({ argv, exitCode, output });
    }
    await record.append({ type: 'result', turnId, summary });
    return true as const;
  }

  private async useSkill(call: StepToolCall): Promise<Dispatched> {
    const args = parse(useSkillSchema, call.input, 'use_skill');
    if ('error' in args) return args;
    const { skills } = await findSkills(skillRoots(this.deps.workspace.root, this.deps.home));
    const skill = skills.find((s) => s.name === args.value.name);
    if (!skill) {
      const known = skills.map((s) => s.name).join(', ') || 'none';
      return { ok: false, error: `no skill named "${args.value.name}" (skills: ${known})` };
    }
    let loaded: { body: string; files: string[] };
    try {
      loaded = await loadSkill(skill);
    } catch (err) {
      return { ok: false, error: `cannot load skill "${skill.name}": ${(err as Error).message}` };
    }
    const { body, files } = loaded;
    const listing = files.length ? `\n\nOther files in ${skill.dir}:\n${files.map((f) => `- ${f}`).join('\n')}` : '';
    return { ok: true, output: `${body}${listing}` };
  }

  /**
   * A server's start card open when the app stopped is withdrawn: the servers are asked
   * for again, from the config as it is now, before anything else in the turn.
   */
  private async withdrawServerStart(resume: ResumePoint | undefined): Promise<ResumePoint | undefined> {
    const card = resume?.card;
    if (card?.body.kind !== 'mcp_server') return resume;
    const reason = 'the app restarted; the server is asked for again';
    this.deps.gate.forget(card.cardId, reason);
    await this.deps.record.append({ type: 'card_withdrawn', cardId: card.cardId, reason });
    return { ...resume, card: undefined };
  }

  /** After a restart: answer the open card or question, then run the step's other pending calls. */
  private async resumePending(turnId: string, at: ResumePoint, signal: AbortSignal, state: { failedFinishes: number }) {
    const pending = pendingCalls(this.deps.record.events(), turnId);
    const card = at.card;
    if (card && !pending.some((c) => c.toolCallId === card.toolCallId)) {
      // A Stop hook's card. Its finish runs the hooks, and asks, again: the finish call when
      // it is pending, or, for a plain-text finish, the same finish with the step's text.
      const reason = 'the app restarted; the Stop hooks run again';
      this.deps.gate.forget(card.cardId, reason);
      await this.deps.record.append({ type: 'card_withdrawn', cardId: card.cardId, reason });
      if (pending.length === 0) {
        const done = await this.finish(turnId, undefined, lastText(this.deps.record.events(), turnId), signal);
        await this.afterFinish(turnId, done === true, state);
        return;
      }
    }
    const calls: StepToolCall[] = [];
    for (const p of pending) {
      calls.push({
        toolCallId: p.toolCallId,
        toolName: p.tool,
        input: await this.deps.context.callArgs(p),
      });
    }
    await this.runCalls(turnId, calls, signal, state, (call) => {
      if (card && card.toolCallId === call.toolCallId)
        return this.deps.gate.resume(card, this.toolCall(turnId, call), { signal });
      const q = at.question;
      if (q && q.toolCallId === call.toolCallId) {
        return this.deps.questions.wait(q.questionId, signal).then((text) => ({ ok: true as const, output: text }));
      }
      return null;
    });
    if (this.ended()) throw new TurnOver();
  }

  private ended(): boolean {
    const events = this.deps.record.events();
    return events[events.length - 1]?.type === 'turn_ended';
  }

  /** Gives every call of the turn still without a result one, so the log stays a whole transcript. */
  private async closePending(turnId: string, why: string) {
    for (const call of pendingCalls(this.deps.record.events(), turnId)) {
      await this.logResult(
        turnId,
        { toolCallId: call.toolCallId, toolName: call.tool, input: null },
        { ok: false, error: why },
      );
    }
  }

  private async closeCalls(turnId: string, calls: StepToolCall[], why: string) {
    for (const call of calls) await this.logResult(turnId, call, { ok: false, error: why });
  }

  private async logResult(turnId: string, call: StepToolCall, r: ToolResult) {
    await this.deps.record.append({
      type: 'tool_result',
      turnId,
      toolCallId: call.toolCallId,
      tool: call.toolName,
      ok: r.ok,
      output: r.ok ? r.output : r.error,
      ...(r.details ? { details: r.details } : {}),
    });
  }

  /** Logs the end of the turn and unwinds the loop. */
  private async end(turnId: string, reason: 'finished' | 'cancelled' | 'error', message?: string): Promise<never> {
    await this.logEnd(turnId, reason, message);
    throw new TurnOver();
  }

  private async logEnd(turnId: string, reason: 'finished' | 'cancelled' | 'error', message?: string): Promise<void> {
    await this.deps.record.append({ type: 'turn_ended', turnId, reason, ...(message ? { message } : {}) });
  }

  private toolCall(turnId: string, call: StepToolCall): ToolCall {
    return { turnId, toolCallId: call.toolCallId, tool: call.toolName, args: call.input };
  }
}

/**
 * The current turn's tool calls that have no result yet, in the order they were made. A
 * result closes the latest open call with its id: some servers reuse ids such as call_0.
 */
export function pendingCalls(events: readonly SessionEvent[], turnId: string) {
  const open: Extract<SessionEvent, { type: 'tool_call' }>[] = [];
  for (const e of events) {
    if (e.type === 'tool_call' && e.turnId === turnId) open.push(e);
    if (e.type === 'tool_result' && e.turnId === turnId) {
      const i = open.findLastIndex((c) => c.toolCallId === e.toolCallId);
      if (i >= 0) open.splice(i, 1);
    }
  }
  return open;
}

/** An error result for each of the turn's calls still without one, so the log stays a whole transcript. */
export function pendingResults(events: readonly SessionEvent[], turnId: string, why: string): EventPayload[] {
  return pendingCalls(events, turnId).map((call) => ({
    type: 'tool_result',
    turnId,
    toolCallId: call.toolCallId,
    tool: call.tool,
    ok: false,
    output: why,
  }));
}

function parse<T>(schema: z.ZodType<T>, input: unknown, tool: string): { value: T } | { ok: false; error: string } {
  const r = schema.safeParse(input);
  if (r.success) return { value: r.data };
  const what = r.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
  return { ok: false, error: `invalid arguments for ${tool}: ${what}` };
}

/** The text of the turn's last model step, for a plain-text finish taken up again. */
function lastText(events: readonly SessionEvent[], turnId: string): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'assistant_text' && e.turnId === turnId) return e.text;
  }
  return '';
}

/** The message a turn that stopped with an error ends on: plain words for a context that cannot fit. */
function endMessage(err: unknown): string {
  if (err instanceof ContextFullError) return err.message;
  if (isChatError(err) && err.kind === 'context_overflow') {
    return `The conversation is still longer than the model's context window after summarising it (${err.message}). Send a shorter message, or start a new session.`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Throws what a settled-to-error promise holds, if anything. */
async function rethrow(settled: Promise<unknown>): Promise<void> {
  const err = await settled;
  if (err) throw err;
}
