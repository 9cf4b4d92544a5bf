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
import type { CardEvent } from '../../../shared/reducer.js';
import type { ChatClient, StepResult, StepToolCall } from '../chat/chat-client.js';
import { isChatError } from '../chat/chat-error.js';
import { ContextFullError } from '../context/context-full-error.js';
import type { SessionContext } from '../context/session-context.js';
import { CancelledError } from '../gate/gate-error.js';
import { DENIED, type Gate, type ToolCall } from '../gate/permission-gate.js';
import { finishRefused } from '../hooks/hook-report.js';
import { readStopHooks } from '../hooks/stop-hooks.js';
import type { Workspace } from '../paths/workspace.js';
import { findSkills, loadSkill, skillRoots } from '../skills/skills.js';
import type { ToolResult } from '../tools/tool-def.js';
import { storeToolArgs } from '../log/stored-tool-args.js';
import { capText } from '../text/output-cap.js';
import { askSchema, finishSchema, useSkillSchema } from './agent-tools.js';
import { pendingResults } from './pending-calls.js';
import type { Questions } from './questions.js';
import {
  HOOK_CARD_WITHDRAWN,
  planResume,
  SERVER_START_WITHDRAWN,
  type ResumePlan,
  type ResumePoint,
  type Waiting,
} from './resume.js';

export type { ResumePoint } from './resume.js';

/** The session's log as the runner uses it. */
export interface TurnRecord {
  append(payload: EventPayload): Promise<SessionEvent>;
  putBlob(bytes: Buffer): Promise<string>;
  getBlob(id: string): Promise<Buffer>;
  events(): readonly SessionEvent[];
}

/**
 * What the runner is given: the session's driver seam (sessions/session-driver.ts, which
 * the runner matches by shape, since a room does not import the one above it) and a model.
 */
export interface RunnerDeps {
  /**
   * The session's model now. A new turn looks it up once, at its first step, and keeps it;
   * a resumed turn looks it up at each step (after a restart, one may be configured only then).
   */
  model: () => { chat: ChatClient; model: ModelConfig };
  /** What the model sees: the session's context. */
  context: SessionContext;
  /** The gate's door for a planned call; the runner never reaches its maps. */
  gate: Pick<Gate, 'run' | 'resume' | 'forget'>;
  questions: Pick<Questions, 'expect' | 'wait'>;
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

/** One turn as the session hands it over: its id, what cancels it, and where it stood after a restart. */
export interface RunnerTurn {
  turnId: string;
  signal: AbortSignal;
  resume?: ResumePoint;
}

/** One turn as the runner steers it: its id, what cancels it, its model, and how often finish has failed. */
interface Turn {
  readonly id: string;
  readonly signal: AbortSignal;
  readonly model: RunnerDeps['model'];
  failedFinishes: number;
}

/** Whether the turn goes on to another model step, or has logged its end. */
type StepEnd = 'continue' | 'ended';

/** A call of this step, or one taken up after a restart with what it was waiting on. */
type TurnCall = StepToolCall & { waiting?: Waiting | null };

type Dispatched = ToolResult & { finished?: boolean; finishFailed?: boolean };

export class Runner {
  constructor(private readonly deps: RunnerDeps) {}

  /** Runs the turn to its end and logs `turn_ended`. Throws only when the log cannot be written. */
  async run({ turnId, signal, resume }: RunnerTurn): Promise<void> {
    // A new turn keeps the model it started with, even if Settings change under it.
    const model = resume ? this.deps.model : once(this.deps.model);
    const turn: Turn = { id: turnId, signal, model, failedFinishes: 0 };
    try {
      this.deps.context.beginTurn();
      const plan = resume ? planResume(this.deps.record.events(), turnId, resume) : null;
      if (plan?.serverStart) await this.withdraw(plan.serverStart, SERVER_START_WITHDRAWN);
      // Servers first: a call to one of their tools, resumed below, needs its server running.
      await this.deps.mcp?.prepare(turnId, signal);
      throwIfCancelled(signal);
      if (plan && (await this.resume(turn, plan)) === 'ended') return;
      for (let step = 0; step < TURN_MAX_STEPS; step++) {
        throwIfCancelled(signal);
        if ((await this.step(turn)) === 'ended') return;
      }
      await this.logEnd(turn, 'error', `stopped after ${TURN_MAX_STEPS} model steps (the step cap)`);
    } catch (err) {
      await this.endOnError(turn, err);
    }
  }

  /** A turn cut short: cancelled by the user, or stopped by an error. Every pending call gets a result first. */
  private async endOnError(turn: Turn, err: unknown): Promise<void> {
    if (turn.signal.aborted || err instanceof CancelledError) {
      await this.closePending(turn, 'cancelled by the user before this call finished');
      await this.logEnd(turn, 'cancelled');
      return;
    }
    const message = endMessage(err);
    await this.closePending(turn, `not run: the turn stopped with an error (${message})`);
    await this.deps.record.append({ type: 'error', turnId: turn.id, message });
    await this.logEnd(turn, 'error', message);
  }

  private async step(turn: Turn): Promise<StepEnd> {
    const { record } = this.deps;
    const { reply, usage } = await this.modelStep(turn);
    throwIfCancelled(turn.signal);
    // The step's text and calls are logged together and share one fsync. The calls start
    // without waiting for it: the log keeps lines in order, so anything a call logs later
    // (a card, its result) is only durable once these lines are.
    const payloads = await Promise.all(reply.toolCalls.map((call) => this.callEvent(turn, call)));
    const appends = [
      record.append(usage),
      ...(reply.text ? [record.append({ type: 'assistant_text', turnId: turn.id, text: reply.text })] : []),
      ...payloads.map((p) => record.append(p)),
    ];
    const logged = Promise.all(appends).then(
      () => null,
      (err: unknown) => err,
    );
    if (reply.toolCalls.length === 0) {
      await rethrow(logged);
      // A step with plain text and no tool call counts as finish with that text.
      const done = await this.finish(turn, undefined, reply.text);
      return this.afterFinish(turn, done === true);
    }
    try {
      return await this.runCalls(turn, reply.toolCalls);
    } finally {
      await rethrow(logged);
    }
  }

  /**
   * One model call with the context's request for this step. A refusal as too long is
   * never fatal: the context takes the stated window and summarises, and the step is
   * tried once more.
   */
  private async modelStep(turn: Turn): Promise<{ reply: StepResult; usage: EventPayload }> {
    const { context } = this.deps;
    const { chat, model } = turn.model();
    const call = { turnId: turn.id, chat, model, signal: turn.signal };
    for (let attempt = 0; ; attempt++) {
      const step = await context.next(call);
      try {
        const reply = await chat.step({
          ...step,
          signal: turn.signal,
          onTextDelta: (t) => this.deps.onDelta?.(turn.id, t),
          onRetry: () => this.deps.onDelta?.(turn.id, '', true),
        });
        return { reply, usage: context.usage(turn.id, 'step', step, reply.usage) };
      } catch (err) {
        if (!isChatError(err) || err.kind !== 'context_overflow' || attempt > 0 || turn.signal.aborted) throw err;
        await context.overflow(call, step, err);
      }
    }
  }

  /** A tool_call event; arguments too large to sit inline go to a blob the event names. */
  private async callEvent(turn: Turn, call: StepToolCall): Promise<EventPayload> {
    const stored = await storeToolArgs(call.input ?? null, {
      put: (data) => this.deps.record.putBlob(Buffer.from(data)),
    });
    return { type: 'tool_call', turnId: turn.id, toolCallId: call.toolCallId, tool: call.toolName, ...stored };
  }

  /** Runs a step's calls in order. On cancel, every call left gets a result so the log stays whole. */
  private async runCalls(turn: Turn, calls: readonly TurnCall[]): Promise<StepEnd> {
    for (const [i, call] of calls.entries()) {
      let result: Dispatched;
      try {
        throwIfCancelled(turn.signal);
        result = await this.dispatch(turn, call);
      } catch (err) {
        if (!(err instanceof CancelledError) && !turn.signal.aborted) throw err;
        await this.closeCalls(turn, calls.slice(i), 'cancelled by the user before this call finished');
        throw new CancelledError();
      }
      await this.logResult(turn, call, result);
      if (result.finished || result.finishFailed) {
        await this.closeCalls(turn, calls.slice(i + 1), 'not run: it came after finish');
        return this.afterFinish(turn, result.finished ?? false);
      }
    }
    return 'continue';
  }

  private async afterFinish(turn: Turn, finished: boolean): Promise<StepEnd> {
    if (finished) return this.logEnd(turn, 'finished');
    turn.failedFinishes++;
    if (turn.failedFinishes < MAX_FAILED_FINISHES) return 'continue';
    const why = `stopped: finish failed ${MAX_FAILED_FINISHES} times because the Stop hooks kept failing`;
    await this.deps.record.append({ type: 'result', turnId: turn.id, summary: why });
    return this.logEnd(turn, 'error', why);
  }

  /** A call goes to the turn's own tools, or through the gate; one taken up after a restart waits as it did. */
  private async dispatch(turn: Turn, call: TurnCall): Promise<Dispatched> {
    const { gate, questions } = this.deps;
    const waiting = call.waiting;
    if (waiting && 'card' in waiting)
      return gate.resume(waiting.card, this.toolCall(turn, call), { signal: turn.signal });
    if (waiting) return { ok: true, output: await questions.wait(waiting.question.questionId, turn.signal) };
    if (call.error) return { ok: false, error: call.error };
    switch (call.toolName) {
      case 'ask':
        return this.ask(turn, call);
      case 'finish':
        return this.finishCall(turn, call);
      case 'use_skill':
        return this.useSkill(call);
      default:
        return gate.run(this.toolCall(turn, call), {
          signal: turn.signal,
          onOutput: (stream, chunk) => this.deps.onOutput?.(call.toolCallId, stream, chunk),
        });
    }
  }

  private async ask(turn: Turn, call: StepToolCall): Promise<Dispatched> {
    const args = parse(askSchema, call.input, 'ask');
    if ('error' in args) return args;
    const questionId = this.deps.newId();
    // Take an answer from the moment the question can be seen, not only once it is durable.
    this.deps.questions.expect(questionId);
    await this.deps.record.append({
      type: 'question',
      turnId: turn.id,
      toolCallId: call.toolCallId,
      questionId,
      question: args.value.question,
      ...(args.value.options ? { options: args.value.options } : {}),
    });
    return { ok: true, output: await this.deps.questions.wait(questionId, turn.signal) };
  }

  private async finishCall(turn: Turn, call: StepToolCall): Promise<Dispatched> {
    const args = parse(finishSchema, call.input, 'finish');
    if ('error' in args) return args;
    const done = await this.finish(turn, call.toolCallId, args.value.summary);
    return done === true
      ? { ok: true, output: 'finished', finished: true }
      : { ok: false, error: done, finishFailed: true };
  }

  /**
   * Runs the Stop hooks, each through the gate like any command. Returns true when all
   * pass (and logs the result), or the failure text the model reads back. A hook the
   * user denies is skipped rather than failed: refusing to run a folder's code must not
   * trap the turn.
   */
  private async finish(turn: Turn, toolCallId: string | undefined, summary: string): Promise<true | string> {
    const { record, workspace } = this.deps;
    const hooks = await readStopHooks(workspace);
    if (!hooks.ok) {
      const run = { argv: [], ok: false, exitCode: null, output: hooks.problem };
      await record.append({ type: 'hook_run', turnId: turn.id, toolCallId, ...run });
      return hooks.problem;
    }
    for (const [i, argv] of hooks.hooks.entries()) {
      const run = await this.runHook(turn, `${toolCallId ?? turn.id}#hook${i + 1}`, argv);
      await record.append({ type: 'hook_run', turnId: turn.id, toolCallId, ...run });
      if (!run.ok) return finishRefused(run);
    }
    await record.append({ type: 'result', turnId: turn.id, summary });
    return true;
  }

  /** One Stop hook through the gate, as its hook_run records it. */
  private async runHook(turn: Turn, toolCallId: string, argv: string[]) {
    const call: ToolCall = { turnId: turn.id, toolCallId, tool: 'run', args: { argv } };
    const onOutput = (s: 'stdout' | 'stderr', c: string) => this.deps.onOutput?.(toolCallId, s, c);
    const r = await this.deps.gate.run(call, { signal: turn.signal, onOutput });
    throwIfCancelled(turn.signal);
    const exitCode = typeof r.details?.exitCode === 'number' ? r.details.exitCode : null;
    const denied = !r.ok && r.error === DENIED;
    const ok = denied || (r.ok && exitCode === 0);
    const output = capText(denied ? 'skipped: denied by the user' : r.ok ? r.output : r.error, HOOK_OUTPUT_MAX_BYTES);
    return { argv, ok, exitCode, output };
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

  /** After a restart (resume.ts): withdraw a Stop hook's card, then finish again or run the step's pending calls. */
  private async resume(turn: Turn, plan: ResumePlan): Promise<StepEnd> {
    if (plan.hookCard) await this.withdraw(plan.hookCard, HOOK_CARD_WITHDRAWN);
    if (plan.finishAgain !== null) {
      const done = await this.finish(turn, undefined, plan.finishAgain);
      return this.afterFinish(turn, done === true);
    }
    const calls: TurnCall[] = [];
    for (const { event, waiting } of plan.calls) {
      const input = await this.deps.context.callArgs(event);
      calls.push({ toolCallId: event.toolCallId, toolName: event.tool, input, waiting });
    }
    return this.runCalls(turn, calls);
  }

  private async withdraw(card: CardEvent, reason: string): Promise<void> {
    this.deps.gate.forget(card.cardId, reason);
    await this.deps.record.append({ type: 'card_withdrawn', cardId: card.cardId, reason });
  }

  /** Gives every call of the turn still without a result one, so the log stays a whole transcript. */
  private async closePending(turn: Turn, why: string) {
    for (const result of pendingResults(this.deps.record.events(), turn.id, why)) {
      await this.deps.record.append(result);
    }
  }

  private async closeCalls(turn: Turn, calls: readonly StepToolCall[], why: string) {
    for (const call of calls) await this.logResult(turn, call, { ok: false, error: why });
  }

  private async logResult(turn: Turn, call: StepToolCall, r: ToolResult) {
    await this.deps.record.append({
      type: 'tool_result',
      turnId: turn.id,
      toolCallId: call.toolCallId,
      tool: call.toolName,
      ok: r.ok,
      output: r.ok ? r.output : r.error,
      ...(r.details ? { details: r.details } : {}),
    });
  }

  private async logEnd(turn: Turn, reason: 'finished' | 'cancelled' | 'error', message?: string): Promise<'ended'> {
    await this.deps.record.append({ type: 'turn_ended', turnId: turn.id, reason, ...(message ? { message } : {}) });
    return 'ended';
  }

  private toolCall(turn: Turn, call: StepToolCall): ToolCall {
    return { turnId: turn.id, toolCallId: call.toolCallId, tool: call.toolName, args: call.input };
  }
}

function parse<T>(schema: z.ZodType<T>, input: unknown, tool: string): { value: T } | { ok: false; error: string } {
  const r = schema.safeParse(input);
  if (r.success) return { value: r.data };
  const what = r.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
  return { ok: false, error: `invalid arguments for ${tool}: ${what}` };
}

/** The message a turn that stopped with an error ends on: plain words for a context that cannot fit. */
function endMessage(err: unknown): string {
  if (err instanceof ContextFullError) return err.message;
  if (isChatError(err) && err.kind === 'context_overflow') {
    return `The conversation is still longer than the model's context window after summarising it (${err.message}). Send a shorter message, or start a new session.`;
  }
  return err instanceof Error ? err.message : String(err);
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new CancelledError();
}

/** The first call's value (or its error, thrown again) for every call. */
function once<T>(get: () => T): () => T {
  let got: { value: T } | { error: unknown } | null = null;
  return () => {
    if (!got) {
      try {
        got = { value: get() };
      } catch (error) {
        got = { error };
      }
    }
    if ('error' in got) throw got.error;
    return got.value;
  };
}

/** Throws what a settled-to-error promise holds, if anything. */
async function rethrow(settled: Promise<unknown>): Promise<void> {
  const err = await settled;
  if (err) throw err;
}
