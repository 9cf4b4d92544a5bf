/**
 * The model's context for one session: the room's one way in. The session hands it every
 * event as it is appended; the runner asks it for the next step's request and hands back
 * what the step cost. It keeps the request inside the window (masking older results,
 * then summarising), records each decision in the log, and shows the exact next context.
 *
 * Everything the request is made of comes from the log (folded by History) plus the
 * system prompt and the tool list, so a restart sends the same bytes a live session would.
 */
import type { ModelMessage } from 'ai';
import type { ModelConfig } from '../../../shared/contract.js';
import type { ContextPreview } from '../../../shared/context-preview.js';
import type { CompactionTrigger, EventPayload, SessionEvent } from '../../../shared/events.js';
import { SUMMARY_MAX_TOKENS } from '../../../shared/limits.js';
import { takesCacheBreakpoints } from '../chat/cache-breakpoint.js';
import type { CacheBreakpoints, ChatClient, StepUsage } from '../chat/chat-client.js';
import type { ChatError } from '../chat/chat-error.js';
import type { ToolSpec } from '../chat/sdk-tool-set.js';
import { SerialQueue } from '../files/serial-queue.js';
import { loadToolArgs } from '../log/stored-tool-args.js';
import type { Workspace } from '../paths/workspace.js';
import type { SandboxAvailability } from '../sandbox/sandbox.js';
import { findSkills, skillRoots } from '../skills/skills.js';
import type { ResultHolds, ToolShown } from '../tool-shape/tool-shown.js';
import { messageBreakpoints } from './breakpoints.js';
import { Estimator, roomFor, type Room } from './budget.js';
import { knownFacts, summaryRequest, tailStart, withKnownFacts } from './compaction.js';
import { ContextFullError } from './context-full-error.js';
import { fileUse, History, type Entry } from './history.js';
import { messagePosition, rewindsConversation, withoutRewound } from './rewound.js';
import { decideFit, type FitDecision } from './fit-decision.js';
import type { MaskCandidate, MaskPlan } from './masking.js';
import { worthMasking } from './masking-stubs.js';
import { resolveModel, type ResolvedModel } from './model-catalog.js';
import { previewParts } from './preview.js';
import { projectInstructions } from './project-instructions.js';
import { messageBytes, Renderer, summaryMessage, userMessage, type Rendered } from './render.js';
import { systemPrompt } from './system-prompt.js';
import { toolSpecs, toolText } from './tool-specs.js';
import { usageCost } from './usage-cost.js';

export interface ContextDeps {
  sessionId: string;
  events: readonly SessionEvent[];
  /** null when the workspace folder is gone: the context can still be shown. */
  workspace: Workspace | null;
  home: string;
  /** The tools the model is shown; the same array for as long as they do not change (MCP tools come and go). */
  tools: () => readonly ToolShown[];
  /** What the model is told of the MCP servers this turn, if any. */
  mcpNotes?: () => string | null;
  getBlob(id: string): Promise<Buffer>;
  append(payload: EventPayload): Promise<SessionEvent>;
  /** Whether commands run confined here, for the system prompt; confined when absent. */
  commands?: () => Promise<SandboxAvailability>;
  /** A summary call starts (true) or ends (false): the window says so while it runs. */
  onCompacting?: (active: boolean) => void;
}

/** Who is asking for a model call, and with what. */
export interface ContextCall {
  turnId?: string;
  chat: ChatClient;
  model: ModelConfig;
  signal: AbortSignal;
}

/** One step's request, ready for ChatClient.step. */
export interface PreparedStep {
  model: ModelConfig;
  system: string;
  messages: ModelMessage[];
  /** Where the prompt cache's breakpoints go; `chat/` writes them in the provider's format. */
  cacheBreakpoints: CacheBreakpoints;
  tools: Record<string, ToolSpec>;
  maxOutputTokens: number;
  cacheKey: string;
  /** The request's size in bytes as measured here, and its estimate in tokens. */
  requestBytes: number;
  tokens: number;
  room: Room;
}

interface ViewItem {
  entry: Entry;
  rendered: Rendered;
  masked: boolean;
  /** The entry's size once masked (the same as `rendered`'s when it is masked already). */
  maskedBytes: number;
}

/** Everything one request would carry, before breakpoints. */
interface View {
  model: ModelConfig;
  facts: ResolvedModel;
  room: Room;
  estimator: Estimator;
  system: string;
  tools: Record<string, ToolSpec>;
  /** Bytes of the system prompt and the tool definitions. */
  headBytes: number;
  summary: Rendered | null;
  items: ViewItem[];
  maskedThrough: number;
}

export class SessionContext {
  private history: History;
  private readonly renderer: Renderer;
  private toolBlock: { defs: readonly ToolShown[]; specs: Record<string, ToolSpec>; bytes: number } | null = null;
  private readonly args = new Map<string, Promise<unknown>>();
  private system: string | null = null;
  private readonly decisions = new SerialQueue();
  /** What a tool's results hold, as its definition says: the room never names a tool. */
  private readonly holdsOf = (tool: string): ResultHolds | undefined =>
    this.deps.tools().find((d) => d.name === tool)?.holds;

  constructor(private readonly deps: ContextDeps) {
    this.history = this.fold();
    this.renderer = new Renderer((part) => this.callArgs(part), this.holdsOf);
  }

  /** Every appended event, in order. */
  add(event: SessionEvent): void {
    // A rewind of the conversation is rare: the fold starts again without what it took out.
    if (rewindsConversation(event)) this.history = this.fold();
    else this.history.add(event);
  }

  /** The history folded from the log, without what a rewind took out. */
  private fold(): History {
    return new History(this.holdsOf, withoutRewound(this.deps.events), (seq) => messagePosition(this.deps.events, seq));
  }

  /** A new turn reads AGENTS.md and the skills afresh; within a turn the system prompt stays byte for byte. */
  beginTurn(): void {
    this.system = null;
  }

  /** A call's arguments, from its event or its blob; a blob is read once per session. */
  callArgs(part: { args?: unknown; argsBlob?: string }): Promise<unknown> {
    if (part.argsBlob === undefined) return Promise.resolve(part.args);
    let loaded = this.args.get(part.argsBlob);
    if (!loaded) {
      loaded = loadToolArgs(part, { get: (id) => this.deps.getBlob(id) });
      this.args.set(part.argsBlob, loaded);
    }
    return loaded;
  }

  /**
   * The next step's request, inside the window: older results are masked, or the older
   * history summarised, first when needed (each logged). Throws ContextFullError when
   * nothing can make it fit.
   */
  next(call: ContextCall): Promise<PreparedStep> {
    return this.exclusive(async () => this.prepare(await this.fit(await this.view(call.model), call)));
  }

  /** The usage event for a model call made from `step`. */
  usage(
    turnId: string | undefined,
    purpose: 'step' | 'compaction',
    step: PreparedStep,
    u: StepUsage | undefined,
  ): EventPayload {
    const facts = resolveModel(step.model);
    const counts = {
      inputTokens: u?.inputTokens ?? null,
      outputTokens: u?.outputTokens ?? null,
      cacheReadTokens: u?.cacheReadTokens ?? null,
      cacheWriteTokens: u?.cacheWriteTokens ?? null,
    };
    return {
      type: 'usage',
      ...(turnId ? { turnId } : {}),
      purpose,
      model: modelKey(step.model),
      ...counts,
      requestBytes: step.requestBytes,
      contextWindow: step.room.window,
      cost: usageCost(counts, facts.prices),
    };
  }

  /**
   * The provider refused `step` as too long: take the window it stated from now on, then
   * summarise (whatever the last summary freed). The caller retries once.
   */
  overflow(call: ContextCall, step: PreparedStep, error: ChatError): Promise<void> {
    return this.exclusive(async () => {
      // Logged whenever the maximum is stated, even the one assumed: its count calibrates the estimate.
      const stated = error.contextLimit;
      if (stated?.maximum) {
        await this.deps.append({
          type: 'context_window',
          ...(call.turnId ? { turnId: call.turnId } : {}),
          model: modelKey(call.model),
          tokens: stated.maximum,
          reason: error.message,
          ...(stated.tokens ? { requestTokens: stated.tokens, requestBytes: step.requestBytes } : {}),
        });
      }
      await this.compact(await this.view(call.model), call, 'overflow');
    });
  }

  /** Compact now (a person's action): summarise all but the latest history, keeping what the instructions ask. */
  compactNow(call: ContextCall, instructions?: string): Promise<{ tokensBefore: number; tokensAfter: number }> {
    return this.exclusive(async () => {
      const view = await this.view(call.model);
      const done = await this.compact(view, call, 'user', instructions);
      if (!done) throw new ContextFullError('There is nothing to summarise yet: the history is only the latest step.');
      return done;
    });
  }

  /**
   * What the model sees: the exact context of the next step, part by part. Between turns
   * the next step is a new turn's, which reads AGENTS.md and the skills afresh.
   */
  async preview(model: ModelConfig, { turnLive }: { turnLive: boolean }): Promise<ContextPreview> {
    if (!turnLive) this.system = null;
    let view = await this.view(model);
    let pending: string | null = null;
    const decision = this.decide(view);
    if (decision.next === 'mask') {
      view = await this.view(model, decision.plan.throughSeq);
      pending = `Before the next step, older tool results will be masked (shown masked here).`;
    } else if (decision.next === 'summarise') {
      pending = 'Before the next step, the older history will be summarised; shown is the context before that.';
    }
    const step = this.prepare(view);
    return {
      model: modelKey(model),
      window: view.room.window,
      outputReserve: view.room.outputReserve,
      tokens: step.tokens,
      tokensPerByte: view.estimator.tokensPerByte,
      calibrated: view.estimator.calibrated,
      parts: previewParts(step, view, (bytes) => view.estimator.part(bytes)),
      pending,
    };
  }

  /** Carries out the one decision: send, mask a block, or summarise (and mask what a summary leaves). */
  private async fit(view: View, call: ContextCall): Promise<View> {
    const { input } = view.room;
    let decision = this.decide(view);
    if (decision.next === 'mask') return this.mask(view, decision.plan, call);
    if (decision.next === 'summarise' && this.mayCompact(this.tokens(view), view.room)) {
      if (await this.compact(view, call, 'budget')) {
        view = await this.view(call.model);
        decision = this.decide(view);
      }
    }
    if (decision.next !== 'send' && decision.plan) view = await this.mask(view, decision.plan, call);
    const tokens = this.tokens(view);
    if (tokens > input) {
      throw new ContextFullError(
        `The conversation no longer fits ${modelKey(call.model)}'s context window, even masked and summarised (about ${tokens.toLocaleString('en-US')} tokens, with room for ${input.toLocaleString('en-US')}). Start a new session, or pick a model with a larger window.`,
      );
    }
    return view;
  }

  /**
   * A summary that freed little is not tried again until the context has grown by a
   * tenth of the room since, or every step would pay for another one.
   */
  private mayCompact(total: number, room: Room): boolean {
    const last = this.history.summary;
    if (!last) return true;
    const freedLittle = last.tokensAfter > last.tokensBefore * 0.8;
    return !freedLittle || total > last.tokensBefore + room.input * 0.1;
  }

  private async mask(view: View, plan: MaskPlan, call: ContextCall): Promise<View> {
    const before = this.tokens(view);
    const masked = await this.view(view.model, plan.throughSeq);
    await this.deps.append({
      type: 'context_masked',
      ...(call.turnId ? { turnId: call.turnId } : {}),
      throughSeq: plan.throughSeq,
      results: countMaskedResults(view.items, view.maskedThrough, plan.throughSeq),
      tokensBefore: before,
      tokensAfter: this.tokens(masked),
    });
    return this.view(view.model);
  }

  /**
   * Summarises the history before the kept tail with a model call, and logs the
   * compaction. Returns null when there is nothing older than the tail to summarise.
   */
  private async compact(
    view: View,
    call: ContextCall,
    trigger: CompactionTrigger,
    instructions?: string,
  ): Promise<{ tokensBefore: number; tokensAfter: number } | null> {
    const tail = this.tailIndex(view, trigger);
    if (tail === 0) return null;
    const covered = view.items.slice(0, tail);
    const kept = view.items.slice(tail);
    const toSeq = kept[0] ? kept[0].entry.seq - 1 : covered.at(-1)!.entry.lastSeq;
    const input = await this.summaryInput(view, covered);
    const step: PreparedStep = {
      ...this.prepare(input, [userMessage(summaryRequest(instructions))]),
      maxOutputTokens: Math.min(SUMMARY_MAX_TOKENS, view.room.outputReserve),
    };
    const written = step.tokens <= view.room.input ? await this.summarise(call, step) : TOO_LONG_TO_SUMMARISE;
    const facts = knownFacts({
      userMessages: this.history.userMessages.filter((m) => m.seq <= toSeq),
      files: await this.namedFiles(),
    });
    const summary = withKnownFacts(written, facts);
    const tokensBefore = this.tokens(view);
    const keptBytes = kept.reduce((n, i) => n + i.rendered.bytes, 0);
    const summaryBytes = messageBytes(summaryMessage({ fromSeq: this.history.summary?.fromSeq ?? 1, toSeq, summary }));
    const tokensAfter = view.estimator.request(view.headBytes + summaryBytes + keptBytes);
    await this.deps.append({
      type: 'compaction',
      ...(call.turnId ? { turnId: call.turnId } : {}),
      fromSeq: this.history.summary?.fromSeq ?? 1,
      toSeq,
      summary,
      trigger,
      ...(instructions ? { instructions } : {}),
      tokensBefore,
      tokensAfter,
    });
    return { tokensBefore, tokensAfter };
  }

  /** The model's summary of `step`'s history; its cost is logged like a step's. */
  private async summarise(call: ContextCall, step: PreparedStep): Promise<string> {
    this.deps.onCompacting?.(true);
    try {
      const reply = await call.chat.step({ ...step, signal: call.signal });
      await this.deps.append(this.usage(call.turnId, 'compaction', step, reply.usage));
      return reply.text;
    } finally {
      this.deps.onCompacting?.(false);
    }
  }

  /** Where the kept tail starts. A person's or the provider's request summarises all but an open step. */
  private tailIndex(view: View, trigger: CompactionTrigger): number {
    const items = view.items.map((i) => ({
      seq: i.entry.seq,
      lastSeq: i.entry.lastSeq,
      tokens: view.estimator.part(i.rendered.bytes),
      open: isOpen(i.entry),
    }));
    const start = tailStart(items, view.room.input);
    if (start > 0 || trigger === 'budget') return start;
    const firstOpen = items.findIndex((i) => i.open);
    return firstOpen < 0 ? items.length : firstOpen;
  }

  /**
   * What the summary call reads: the summary so far and the covered history, as the
   * model saw them. When that would not fit (the window shrank), every older result is
   * masked, and then the oldest entries are left out until it fits; the verbatim facts
   * appended to the summary still name their messages and files.
   */
  private async summaryInput(view: View, covered: ViewItem[]): Promise<View> {
    const budget = view.room.input - Math.min(SUMMARY_MAX_TOKENS, view.room.outputReserve) - 1000;
    let items = covered;
    const fits = (list: ViewItem[]) =>
      view.estimator.request(
        view.headBytes + (view.summary?.bytes ?? 0) + list.reduce((n, i) => n + i.rendered.bytes, 0),
      ) <= budget;
    if (!fits(items)) {
      items = await Promise.all(
        covered.map(async (i) => ({ ...i, masked: true, rendered: await this.renderer.entry(i.entry, true) })),
      );
    }
    while (items.length > 1 && !fits(items)) items = items.slice(1);
    return { ...view, items };
  }

  /** Paths named by the file tools, including calls whose arguments sit in blobs. */
  private async namedFiles(): Promise<ReadonlyMap<string, Set<string>>> {
    const files = new Map([...this.history.files].map(([path, how]) => [path, new Set(how)]));
    for (const call of this.history.callsInBlobs) {
      const use = fileUse(this.holdsOf(call.tool), await this.callArgs({ argsBlob: call.argsBlob }).catch(() => null));
      if (use) files.set(use.path, (files.get(use.path) ?? new Set()).add(use.how));
    }
    return files;
  }

  private async view(model: ModelConfig, maskedThrough = this.history.maskedThrough): Promise<View> {
    const facts = resolveModel(model);
    const window = this.history.statedWindow(modelKey(model)) ?? facts.window;
    const room = roomFor(window, facts.maxOutput, model.maxOutputTokens);
    const system = await this.systemText();
    const tools = this.toolsNow();
    const summary = this.history.summary;
    const items: ViewItem[] = [];
    for (const entry of this.history.entries) {
      const masked = entry.lastSeq <= maskedThrough;
      const hidden = await this.renderer.entry(entry, true);
      const rendered = masked ? hidden : await this.renderer.entry(entry, false);
      items.push({ entry, masked, rendered, maskedBytes: hidden.bytes });
    }
    const summaryMsg = summary ? [summaryMessage(summary)] : null;
    return {
      model,
      facts,
      room,
      estimator: new Estimator(this.history.calibration),
      system,
      tools: tools.specs,
      headBytes: Buffer.byteLength(system) + tools.bytes,
      summary: summaryMsg ? { messages: summaryMsg, bytes: messageBytes(summaryMsg[0]!) } : null,
      items,
      maskedThrough,
    };
  }

  private bytes(view: View): number {
    return view.headBytes + (view.summary?.bytes ?? 0) + view.items.reduce((n, i) => n + i.rendered.bytes, 0);
  }

  private tokens(view: View): number {
    return view.estimator.request(this.bytes(view));
  }

  private decide(view: View): FitDecision {
    const entries: MaskCandidate[] = view.items.map((i) => ({
      kind: i.entry.kind,
      lastSeq: i.entry.lastSeq,
      tokens: view.estimator.part(i.rendered.bytes),
      maskedTokens: view.estimator.part(i.maskedBytes),
    }));
    return decideFit({ total: this.tokens(view), room: view.room.input, maskedThrough: view.maskedThrough, entries });
  }

  /** The request a view makes, with breakpoints; `extra` messages (a summary request) follow the history. */
  private prepare(view: View, extra: ModelMessage[] = []): PreparedStep {
    const history = [...(view.summary?.messages ?? []), ...view.items.flatMap((i) => i.rendered.messages)];
    const messages = [...history, ...extra];
    const requestBytes = this.bytes(view) + extra.reduce((n, m) => n + messageBytes(m), 0);
    return {
      model: view.model,
      system: view.system,
      messages,
      cacheBreakpoints: breakpointsFor(view.model, messages, extra.length > 0 ? -1 : frozenEnd(view)),
      tools: view.tools,
      maxOutputTokens: view.room.outputReserve,
      cacheKey: this.deps.sessionId,
      requestBytes,
      tokens: view.estimator.request(requestBytes),
      room: view.room,
    };
  }

  /** The tool block, converted again only when the list changed, so the request's head stays byte for byte. */
  private toolsNow(): { specs: Record<string, ToolSpec>; bytes: number } {
    const defs = this.deps.tools();
    if (this.toolBlock?.defs !== defs) {
      const specs = toolSpecs(defs);
      const bytes = Object.entries(specs).reduce((n, [name, spec]) => n + Buffer.byteLength(toolText(name, spec)), 0);
      this.toolBlock = { defs, specs, bytes };
    }
    return this.toolBlock;
  }

  private async systemText(): Promise<string> {
    if (this.system !== null) return this.system;
    const { workspace, home } = this.deps;
    if (!workspace) return (this.system = '');
    const [instructions, catalog, commands] = await Promise.all([
      projectInstructions(workspace),
      findSkills(skillRoots(workspace.root, home)),
      this.deps.commands?.(),
    ]);
    this.system = systemPrompt({
      workspaceRoot: workspace.root,
      instructions,
      skills: catalog.skills,
      commands,
      mcp: this.deps.mcpNotes?.() ?? null,
    });
    return this.system;
  }

  /** One decision at a time: a summary and a step's masking never interleave. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.decisions.run(fn);
  }
}

/** When even one entry is too long for a summary call, no oversized request goes out: the log's own facts stand in. */
const TOO_LONG_TO_SUMMARISE =
  '(The older history was too long to summarise with the model within its window; what the log itself says follows.)';

export function modelKey(model: ModelConfig): string {
  return `${model.provider}:${model.modelId}`;
}

/** Where the breakpoints go, for a provider that caches only where a request marks it. */
function breakpointsFor(model: ModelConfig, messages: readonly ModelMessage[], frozen: number): CacheBreakpoints {
  if (!takesCacheBreakpoints(model.provider)) return { system: false, messages: [] };
  const roles = messages.map((m) => m.role);
  return { system: true, messages: messageBreakpoints(roles, frozen) };
}

/** The last message of the part that stays put between masking blocks: the summary and the masked entries. */
function frozenEnd(view: View): number {
  let index = view.summary ? view.summary.messages.length - 1 : -1;
  let at = view.summary?.messages.length ?? 0;
  for (const item of view.items) {
    at += item.rendered.messages.length;
    if (item.masked) index = at - 1;
  }
  return index;
}

function isOpen(entry: Entry): boolean {
  return entry.kind === 'step' && entry.parts.some((p) => p.type === 'call' && !entry.results.has(p.toolCallId));
}

function countMaskedResults(items: readonly ViewItem[], from: number, through: number): number {
  let n = 0;
  for (const { entry } of items) {
    if (entry.kind !== 'step' || entry.lastSeq <= from || entry.lastSeq > through) continue;
    for (const r of entry.results.values()) if (worthMasking(r.output)) n++;
  }
  return n;
}
