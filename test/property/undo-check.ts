/**
 * Checkpoints and undo (SPEC §12), against a model of the workspace this suite keeps
 * itself: the watched tree just before and just after every step of the app's that
 * changed files (a turn's checkpoint, or the person's undo, redo or rewind). What an undo
 * should do is worked out from those trees alone, never from the app's restore plan or
 * its snapshots:
 *
 * - Undo of turn T: each file T changed goes back to the tree just before T's first step
 *   that listed it, unless it differs now from the tree just after T's last such step
 *   (the person, the other session, or a later turn changed it since): then it is
 *   reported in `kept` and left byte for byte as it was. A file already at its target is
 *   neither. Nothing else in the tree moves, the person's `.git` least of all.
 * - Redo: the undo's files go back to how the undo found them, with the same rule.
 * - Rewind (code): every file a step after the message changed goes back to before its
 *   first change, with the same rule; a conversation rewind changes no file.
 * - A call that would restore nothing fails in words and logs nothing; so does any while
 *   the session's turn runs ("stop the running turn first").
 *
 * Besides: each checkpoint lists exactly the files its step changed in its workspace (so
 * the model above stands on what really happened), every session's events.jsonl only
 * grows (every complete line stays byte for byte: a rewind deletes nothing), the log
 * folds after every undo, redo and rewind, and no step of the app's touches the person's
 * `.git`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChangedFile, KeptFile, Restoration } from '../../shared/checkpoints.js';
import type { SessionEvent } from '../../shared/events.js';
import { foldEvents } from '../../shared/reducer.js';
import { isRestoreStep, type RestoreStep, type Step } from './history.js';
import { lastSeq, type Observation, type SessionView } from './observation.js';
import type { RestoreCall, RestoreRequest } from './restore-request.js';
import { changedPaths, sameEntry, type Entry, type Tree } from './tree.js';

/** One file across one step of the app's: the tree's entry just before the step and just after. */
interface FileSpan {
  was: Entry | undefined;
  now: Entry | undefined;
  /** No other step logged in the same history step named this file, so the trees are its own. */
  certain: boolean;
}

/** A step of the app's that changed files, as the log names it and the tree saw it. */
interface AppStep {
  seq: number;
  kind: 'checkpoint' | 'undo' | 'redo' | 'rewind';
  /** A checkpoint's turn. */
  turnId?: string;
  /** By absolute path. */
  files: Map<string, FileSpan>;
}

/** One file an undo, redo or rewind would take back, as the model sees it. */
interface Item {
  abs: string;
  /** The tree's entry it goes back to. */
  target: Entry | undefined;
  /** The entry the app itself last left there: a file that differs from it was changed since. */
  left: Entry | undefined;
  /** A later turn's checkpoint changed it too. */
  laterTurn: boolean;
  /** Any later step of the app's (a checkpoint, an undo, a redo or a rewind) changed it. */
  laterAny: boolean;
  certain: boolean;
}

/** What the model says a call must do. */
type Plan =
  | { kind: 'fail'; why: string }
  /** A rewind of the conversation only: one event, no file moves. */
  | { kind: 'conversation' }
  | {
      kind: 'restore';
      restore: Item[];
      kept: Item[];
      /** Why the outcome cannot be told exactly (then only its safety is checked), or null. */
      unsure: string | null;
      /** A rewind of both with nothing to restore rewinds the conversation alone (the kept files said). */
      conversationIfNothing: boolean;
    };

type Restoring = Extract<SessionEvent, { type: 'undo' | 'redo' | 'rewind' }>;

class SessionModel {
  readonly steps: AppStep[] = [];
  /** Seqs of the undo events not yet redone, latest last: what a redo takes back. */
  readonly undoStack: number[] = [];
  /** Seq ranges a rewind took out of the conversation. */
  readonly rewound: { from: number; to: number }[] = [];
  /** What the snapshots said they left out, last said (absolute paths). */
  skipped: string[] = [];
  /** Every path a snapshot of the session ever left out: an undo may keep it as skipped_by_snapshot. */
  readonly skippedEver = new Set<string>();
  /** The session said its store cannot be opened: none of its steps is recorded from then on. */
  unrecorded = false;
  /** Complete lines of events.jsonl as last read. */
  logText = '';

  constructor(readonly root: string) {}
}

export class UndoCheck {
  private models: SessionModel[] | null = null;

  constructor(
    private readonly dataDir: string,
    /**
     * A racer swaps a folder of the workspace with a link all along (race-zone.ts): which
     * of a turn's files the app finds, and so what it restores, depends on the swap of the
     * moment. Then every undo, redo and rewind is held to what must hold whatever the swap:
     * it stays inside the files the session ever changed, and outside nothing moves.
     */
    private readonly racer = false,
  ) {}

  /**
   * After one step. `restores`: the undos, redos and rewinds the person asked for in it,
   * with the app's replies; `killed`: the host was killed during the step (no reply came).
   */
  async check(
    step: Step,
    before: Observation,
    after: Observation,
    restores: readonly RestoreCall[],
    killed: boolean,
  ): Promise<string[]> {
    const models = (this.models ??= before.sessions.map((v) => new SessionModel(v.root)));
    const problems: string[] = [];
    for (const [s, view] of after.sessions.entries()) problems.push(...(await this.logGrows(models[s]!, view)));
    const fresh = after.sessions.map((v, s) => v.events.filter((e) => e.seq > lastSeq(before.sessions[s]!)));
    if (isRestoreStep(step)) {
      const calls = restores.filter((r) => r.s === step.s);
      problems.push(...this.restoreStep(step, calls, before, after, fresh, killed));
    } else if (restores.length > 0) {
      problems.push(`the driver asked for an undo, redo or rewind in a step that is none`);
    }
    if (step.kind !== 'world') {
      problems.push(...this.checkpointsHonest(before.tree, after.tree, fresh, killed));
      problems.push(...personsGitUntouched(models[0]!.root, before.tree, after.tree));
    }
    this.record(before.tree, after.tree, fresh);
    return problems.map((p) => `undo: ${p}`);
  }

  /** events.jsonl only grows: every complete line read before is still there, byte for byte. */
  private async logGrows(model: SessionModel, view: SessionView): Promise<string[]> {
    const file = path.join(this.dataDir, 'sessions', view.id, 'events.jsonl');
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    const kept = whole.startsWith(model.logText);
    const problems = kept ? [] : [`${view.id}'s events.jsonl no longer begins with the lines it held before`];
    if (kept || whole.length >= model.logText.length) model.logText = whole;
    return problems;
  }

  // ---- the person's undo, redo and rewind ------------------------------------------------

  private restoreStep(
    step: RestoreStep,
    calls: readonly RestoreCall[],
    before: Observation,
    after: Observation,
    fresh: SessionEvent[][],
    killed: boolean,
  ): string[] {
    const s = step.s;
    const model = this.models![s]!;
    const mine = fresh[s]!;
    if (killed || this.racer) {
      // The reply died with the host, or a racer decides what the app finds: whatever it did
      // stays among the files the session ever changed.
      const every = [...new Set(model.steps.flatMap((st) => [...st.files.keys()]))];
      const why = killed ? 'cut short by a kill' : 'while a racer swaps links';
      return this.safe(model, `s${s}'s ${step.kind} ${why}`, every, before, after, mine);
    }
    const others = fresh.flatMap((events, t) => (t === s ? [] : events));
    const problems =
      others.length > 0 ? [`another session logged ${others.length} events in s${s}'s ${step.kind}`] : [];
    const call = calls[0];
    if (calls.length > 1) problems.push(`one ${step.kind} step made ${calls.length} calls`);
    if (!call) {
      // Nothing to press (no turn, no message): nothing may happen.
      if (mine.length > 0) problems.push(`s${s} logged ${mine.map((e) => e.type).join(', ')} with no call`);
      return [...problems, ...unchanged(before.tree, after.tree, `s${s}'s ${step.kind} that was never asked`)];
    }
    const what = describeRequest(call.request);
    if (turnLive(before.sessions[s]!.events)) {
      return [...problems, ...refused(what, call, mine, before.tree, after.tree, 'stop the running turn first')];
    }
    try {
      foldEvents(after.sessions[s]!.events);
    } catch (err) {
      problems.push(`s${s}'s log does not fold after ${what}: ${(err as Error).message}`);
    }
    const plan = this.plan(model, call.request, before.tree);
    problems.push(...this.judge(model, what, call, plan, before, after, mine));
    return problems;
  }

  /** What the model says the request must do, from the trees alone. */
  private plan(model: SessionModel, request: RestoreRequest, now: Tree): Plan {
    const tick = new Set((request.overwrite ?? []).map((p) => path.join(model.root, p)));
    switch (request.kind) {
      case 'undo': {
        const own = model.steps.filter((st) => st.kind === 'checkpoint' && st.turnId === request.turnId);
        if (own.length === 0) return { kind: 'fail', why: 'the turn changed no files' };
        const last = own.at(-1)!.seq;
        let items = spanItems(
          own,
          model.steps.filter((st) => st.seq > last),
        );
        if (request.paths) {
          const only = new Set(request.paths.map((p) => path.join(model.root, p)));
          items = items.filter((i) => only.has(i.abs));
        }
        if (items.length === 0) return { kind: 'fail', why: 'the turn changed none of those files' };
        return decide(model, items, tick, now, false);
      }
      case 'redo': {
        const top = model.undoStack.at(-1);
        const undo = model.steps.find((st) => st.seq === top);
        if (!undo) return { kind: 'fail', why: 'there is no undo to redo' };
        const later = model.steps.filter((st) => st.seq > undo.seq);
        const items = [...undo.files].map(([abs, span]) => itemFrom(abs, span, span, later));
        return decide(model, items, tick, now, false);
      }
      case 'rewind': {
        if (model.rewound.some((r) => request.seq >= r.from && request.seq <= r.to)) {
          return { kind: 'fail', why: 'that message was rewound already' };
        }
        if (request.restore === 'conversation') return { kind: 'conversation' };
        const items = spanItems(
          model.steps.filter((st) => st.seq > request.seq),
          [],
        );
        if (items.length === 0) {
          return request.restore === 'both'
            ? { kind: 'conversation' }
            : { kind: 'fail', why: 'no file changed since that message' };
        }
        return decide(model, items, tick, now, request.restore === 'both');
      }
    }
  }

  /** The call against the plan: its reply, its event, and the tree after it. */
  private judge(
    model: SessionModel,
    what: string,
    call: RestoreCall,
    plan: Plan,
    before: Observation,
    after: Observation,
    fresh: readonly SessionEvent[],
  ): string[] {
    if (plan.kind === 'fail') return refused(what, call, fresh, before.tree, after.tree, null, plan.why);
    if (plan.kind === 'conversation') return conversationOnly(what, call, fresh, before.tree, after.tree);
    if (plan.unsure !== null) {
      const files = [...plan.restore, ...plan.kept].map((i) => i.abs);
      return this.safe(model, `${what} (${plan.unsure})`, files, before, after, fresh);
    }
    if (plan.restore.length === 0) {
      const why = `every file is kept or already back (kept: ${names(model.root, plan.kept)})`;
      if (plan.conversationIfNothing) return conversationOnly(what, call, fresh, before.tree, after.tree);
      return refused(what, call, fresh, before.tree, after.tree, null, why);
    }
    const problems: string[] = [];
    const expected = `should restore ${names(model.root, plan.restore)} and keep ${names(model.root, plan.kept)}`;
    if (!call.reply.ok) return [`${what} ${expected}, but it failed: ${call.reply.error}`];
    const event = this.theEvent(model, what, call.request, fresh, problems);
    if (!event) return problems;
    const restoration = event.type === 'rewind' ? event.code : event;
    if (!restoration) return [...problems, `${what} ${expected}, but its rewind event holds no code`];
    const { data } = call.reply;
    if (
      data.seq !== event.seq ||
      !sameJson(data.restored, restoration.restored) ||
      !sameJson(data.kept, restoration.kept)
    ) {
      problems.push(`${what} answered ${JSON.stringify(data)}, which is not what its event ${event.seq} logged`);
    }
    problems.push(...restoredAsPlanned(model.root, what, restoration, plan.restore, before.tree));
    problems.push(...keptAsPlanned(model.root, what, restoration.kept, plan.kept));
    problems.push(...treeAsPlanned(model.root, what, plan.restore, before.tree, after.tree));
    return problems;
  }

  /** The one event a successful call logs, with the request's own fields. */
  private theEvent(
    model: SessionModel,
    what: string,
    request: RestoreRequest,
    fresh: readonly SessionEvent[],
    problems: string[],
  ): Restoring | null {
    if (fresh.length !== 1 || fresh[0]!.type !== request.kind) {
      problems.push(
        `${what} logged ${fresh.map((e) => e.type).join(', ') || 'nothing'}, not one ${request.kind} event`,
      );
      return null;
    }
    const event = fresh[0] as Restoring;
    if (event.type === 'undo' && request.kind === 'undo') {
      if (event.turnId !== request.turnId || !sameJson(event.paths, request.paths)) {
        problems.push(`${what} logged an undo of ${event.turnId} (paths ${JSON.stringify(event.paths)})`);
      }
    }
    if (event.type === 'redo' && event.undoSeq !== model.undoStack.at(-1)) {
      problems.push(
        `${what} redid the undo at ${event.undoSeq}; the latest not yet redone is ${model.undoStack.at(-1)}`,
      );
    }
    if (event.type === 'rewind' && request.kind === 'rewind') {
      if (event.messageSeq !== request.seq || event.restore !== request.restore) {
        problems.push(`${what} logged a rewind to ${event.messageSeq} (${event.restore})`);
      }
    }
    return event;
  }

  /**
   * When the outcome cannot be told exactly (a file's points fell in a step where two
   * sessions logged it, a folder on its way is a link now, a snapshot left it out, the
   * workspace is gone, or the host was killed mid-call): whatever happened stays inside the
   * workspace and its files to take back, leaves `.git` alone, and is logged as what the
   * tree shows. The reply may be a refusal; an unexpected error in the core still counts.
   */
  private safe(
    model: SessionModel,
    what: string,
    files: readonly string[],
    before: Observation,
    after: Observation,
    fresh: readonly SessionEvent[],
  ): string[] {
    const problems: string[] = [];
    const related = (p: string) => files.some((f) => f === p || within(p, f) || within(f, p));
    for (const p of changedPaths(before.tree, after.tree)) {
      const inside = within(model.root, p) && !gitPath(model.root, p);
      if (!inside || !related(p)) problems.push(`${what} changed ${p}, which is none of the files it takes back`);
    }
    const restoring = fresh.filter(
      (e): e is Restoring => e.type === 'undo' || e.type === 'redo' || e.type === 'rewind',
    );
    for (const e of restoring) {
      const restored = e.type === 'rewind' ? (e.code?.restored ?? []) : e.restored;
      for (const c of restored) {
        const abs = path.join(model.root, c.path);
        if (!files.includes(abs)) problems.push(`${what} logged ${c.path} restored, which it does not take back`);
        else if (sameEntry(before.tree.get(abs), after.tree.get(abs)))
          problems.push(`${what} logged ${c.path} restored, but the tree shows it unchanged`);
      }
    }
    return problems;
  }

  // ---- what the checkpoints say ----------------------------------------------------------

  /**
   * Each checkpoint of the step lists only files the step changed, with the right kind of
   * change; and, when one session acted, every file the step changed in its workspace is
   * listed by one of its checkpoints (or its restoration): an undo can take back only what
   * was listed.
   */
  private checkpointsHonest(before: Tree, after: Tree, fresh: SessionEvent[][], killed: boolean): string[] {
    const models = this.models!;
    const problems: string[] = [];
    const counts = namedCounts(models, fresh);
    for (const [s, events] of fresh.entries()) {
      const root = models[s]!.root;
      for (const e of events) {
        if (e.type !== 'checkpoint') continue;
        for (const c of e.changed) {
          const abs = path.join(root, c.path);
          if (counts.get(abs) !== 1) continue;
          const why = wrongChange(c, before.get(abs), after.get(abs));
          if (why)
            problems.push(`s${s}'s checkpoint ${e.seq} (call ${e.toolCallId}) lists ${c.path} ${c.change}, but ${why}`);
        }
      }
    }
    // Whose step changed a file is plain only when one session acted (a restart may answer both).
    const acting = models.flatMap((_, s) => (fresh[s]!.some((e) => ACTS.includes(e.type)) ? [s] : []));
    if (killed || acting.length !== 1) return problems;
    for (const p of changedPaths(before, after)) {
      const entry = after.get(p) ?? before.get(p);
      if (entry?.type !== 'file' && entry?.type !== 'link') continue;
      const holders = acting.filter((s) => within(models[s]!.root, p) && !gitPath(models[s]!.root, p));
      if (holders.length === 0 || counts.has(p)) continue;
      if (holders.some((s) => models[s]!.skipped.some((q) => q === p || within(q, p)))) continue;
      // A snapshot that failed never stops the step; the log says the step cannot be taken back.
      if (holders.some((s) => models[s]!.unrecorded || fresh[s]!.some(saysUnrecorded))) continue;
      problems.push(
        `${p} changed in this step, but no checkpoint of s${holders.join(', s')} lists it: undo could not take it back`,
      );
    }
    return problems;
  }

  /** Takes the step's events into the model: its file steps with the trees around them, the undo stack, the rewound ranges. */
  private record(before: Tree, after: Tree, fresh: SessionEvent[][]): void {
    const models = this.models!;
    const counts = namedCounts(models, fresh);
    for (const [s, events] of fresh.entries()) {
      const model = models[s]!;
      for (const e of events) {
        const named = namedBy(e);
        if (named && named.length > 0) {
          const files = new Map<string, FileSpan>();
          for (const rel of named) {
            const abs = path.join(model.root, rel);
            files.set(abs, { was: before.get(abs), now: after.get(abs), certain: counts.get(abs) === 1 });
          }
          model.steps.push({
            seq: e.seq,
            kind: e.type as AppStep['kind'],
            ...(e.type === 'checkpoint' ? { turnId: e.turnId } : {}),
            files,
          });
        }
        if (e.type === 'error' && saysUnrecorded(e) && e.message.includes("this session's steps"))
          model.unrecorded = true;
        if (e.type === 'checkpoint' && e.skipped) {
          model.skipped = e.skipped.paths.map((p) => path.join(model.root, p.path));
          for (const q of model.skipped) model.skippedEver.add(q);
        }
        if (e.type === 'undo') model.undoStack.push(e.seq);
        if (e.type === 'redo') {
          const at = model.undoStack.lastIndexOf(e.undoSeq);
          if (at >= 0) model.undoStack.splice(at, 1);
        }
        if (e.type === 'rewind' && e.restore !== 'code') model.rewound.push({ from: e.messageSeq, to: e.seq - 1 });
      }
    }
  }
}

// ---- the model's arithmetic ----------------------------------------------------------------

/** Per file: the tree before the first step of `span` that named it, and after the last. */
function spanItems(span: readonly AppStep[], later: readonly AppStep[]): Item[] {
  const first = new Map<string, FileSpan>();
  const last = new Map<string, FileSpan>();
  for (const st of span) {
    for (const [abs, f] of st.files) {
      if (!first.has(abs)) first.set(abs, f);
      last.set(abs, f);
    }
  }
  return [...first].map(([abs, f]) => itemFrom(abs, f, last.get(abs)!, later));
}

function itemFrom(abs: string, first: FileSpan, last: FileSpan, later: readonly AppStep[]): Item {
  const touching = later.filter((st) => st.files.has(abs));
  return {
    abs,
    target: first.was,
    left: last.now,
    laterTurn: touching.some((st) => st.kind === 'checkpoint'),
    laterAny: touching.length > 0,
    certain: first.certain && last.certain,
  };
}

/** Restored, kept or neither, for each item, from the tree as it is now. */
function decide(
  model: SessionModel,
  items: readonly Item[],
  tick: ReadonlySet<string>,
  now: Tree,
  both: boolean,
): Plan {
  const { root } = model;
  const restore: Item[] = [];
  const kept: Item[] = [];
  let unsure: string | null = null;
  const rootEntry = now.get(root);
  if (rootEntry?.type !== 'dir') unsure = `the workspace is ${rootEntry ? `a ${rootEntry.type}` : 'gone'}`;
  for (const item of items) {
    const current = now.get(item.abs);
    if (!item.certain) unsure ??= `${item.abs} changed in a step that two checkpoints named`;
    if ([...model.skippedEver].some((q) => q === item.abs || within(q, item.abs))) {
      unsure ??= `a snapshot left ${item.abs} out`;
    }
    if ([current, item.target, item.left].some((e) => e?.type === 'dir' || e?.type === 'other')) {
      unsure ??= `${item.abs} is or was a folder or a special file`;
    }
    if (sameEntry(current, item.target)) continue;
    if (sameEntry(current, item.left) || tick.has(item.abs)) {
      restore.push(item);
      const blocked = ancestors(root, item.abs).find((a) => now.get(a)?.type !== 'dir');
      if (blocked !== undefined) unsure ??= `${blocked}, on the way to ${item.abs}, is not a folder now`;
    } else {
      kept.push(item);
    }
  }
  return { kind: 'restore', restore, kept, unsure, conversationIfNothing: both };
}

/** The folders between root (excluded) and abs (excluded). */
function ancestors(root: string, abs: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(abs); dir !== root && within(root, dir); dir = path.dirname(dir)) out.push(dir);
  return out;
}

// ---- comparing -------------------------------------------------------------------------------

/** Each restored file is one the plan restores, logged with the right change. */
function restoredAsPlanned(
  root: string,
  what: string,
  restoration: Restoration,
  planned: readonly Item[],
  before: Tree,
): string[] {
  const problems: string[] = [];
  const got = restoration.restored.map((c) => c.path).sort();
  const want = planned.map((i) => rel(root, i.abs)).sort();
  if (!sameJson(got, want)) problems.push(`${what} restored ${got.join(', ')}; the model restores ${want.join(', ')}`);
  for (const c of restoration.restored) {
    const item = planned.find((i) => i.abs === path.join(root, c.path));
    const why = item && wrongChange(c, before.get(item.abs), item.target);
    if (why) problems.push(`${what} logged ${c.path} restored as ${c.change}, but ${why}`);
  }
  return problems;
}

/** The kept files are the plan's, each with a reason the model allows. */
function keptAsPlanned(root: string, what: string, kept: readonly KeptFile[], planned: readonly Item[]): string[] {
  const problems: string[] = [];
  const got = kept.map((k) => k.path).sort();
  const want = planned.map((i) => rel(root, i.abs)).sort();
  if (!sameJson(got, want))
    problems.push(`${what} kept ${got.join(', ') || 'nothing'}; the model keeps ${want.join(', ') || 'nothing'}`);
  for (const k of kept) {
    const item = planned.find((i) => i.abs === path.join(root, k.path));
    if (!item) continue;
    // A later undo, redo or rewind may be called either; a later turn, or none, only one.
    const allowed: KeptFile['why'][] = item.laterTurn
      ? ['changed_by_later_turn']
      : item.laterAny
        ? ['changed_by_later_turn', 'changed_since']
        : ['changed_since'];
    if (!allowed.includes(k.why))
      problems.push(`${what} kept ${k.path} as ${k.why}; the model says ${allowed.join(' or ')}`);
  }
  return problems;
}

/** The tree after: restored files at their targets, everything else as it was but folders on their way. */
function treeAsPlanned(root: string, what: string, restore: readonly Item[], before: Tree, after: Tree): string[] {
  const problems: string[] = [];
  for (const item of restore) {
    if (!sameEntry(after.get(item.abs), item.target)) {
      problems.push(`${what} left ${item.abs} as ${describe(after.get(item.abs))}, not as ${describe(item.target)}`);
    }
  }
  const restored = new Set(restore.map((i) => i.abs));
  const onTheWay = new Set(restore.flatMap((i) => ancestors(root, i.abs)));
  for (const p of changedPaths(before, after)) {
    if (restored.has(p)) continue;
    const dir = (after.get(p) ?? before.get(p))?.type === 'dir';
    if (dir && onTheWay.has(p)) continue;
    problems.push(
      `${what} changed ${p} (${describe(before.get(p))} -> ${describe(after.get(p))}), which it does not restore`,
    );
  }
  return problems;
}

/** A call that must fail: refused in words, nothing logged, nothing moved. */
function refused(
  what: string,
  call: RestoreCall,
  fresh: readonly SessionEvent[],
  before: Tree,
  after: Tree,
  words: string | null,
  why = 'the turn still runs',
): string[] {
  const problems: string[] = [];
  if (call.reply.ok) {
    problems.push(`${what} should fail (${why}), but it answered ${JSON.stringify(call.reply.data)}`);
  } else if (call.reply.error.trim() === '') {
    problems.push(`${what} failed without a word`);
  } else if (words !== null && !call.reply.error.includes(words)) {
    problems.push(`${what} failed with "${call.reply.error}", which does not say "${words}"`);
  }
  if (fresh.length > 0)
    problems.push(`${what} should fail (${why}), but logged ${fresh.map((e) => e.type).join(', ')}`);
  return [...problems, ...unchanged(before, after, what)];
}

/** A rewind of the conversation alone: one rewind event without code, no file moved. */
function conversationOnly(
  what: string,
  call: RestoreCall,
  fresh: readonly SessionEvent[],
  before: Tree,
  after: Tree,
): string[] {
  const problems: string[] = [];
  if (!call.reply.ok) problems.push(`${what} should rewind the conversation, but it failed: ${call.reply.error}`);
  const event = fresh[0];
  if (fresh.length !== 1 || event?.type !== 'rewind' || (event.code?.restored.length ?? 0) > 0) {
    problems.push(`${what} should log one rewind that restores no file; it logged ${JSON.stringify(fresh)}`);
  }
  return [...problems, ...unchanged(before, after, what)];
}

function unchanged(before: Tree, after: Tree, what: string): string[] {
  return changedPaths(before, after).map((p) => `${what} changed ${p}, and should have changed nothing`);
}

/** No step of the app's changes the person's repository: the first session's `.git`. */
function personsGitUntouched(root: string, before: Tree, after: Tree): string[] {
  return changedPaths(before, after)
    .filter((p) => gitPath(root, p))
    .map(
      (p) => `the person's ${path.relative(root, p)} changed: ${describe(before.get(p))} -> ${describe(after.get(p))}`,
    );
}

/** Why a listed change is not what the tree shows, or null. */
function wrongChange(c: ChangedFile, was: Entry | undefined, now: Entry | undefined): string | null {
  const gone = (e: Entry | undefined) => e === undefined || e.type === 'dir';
  if (sameEntry(was, now)) return `the tree shows it unchanged (${describe(was)})`;
  const kind = gone(was) ? 'added' : gone(now) ? 'deleted' : 'modified';
  if (kind !== c.change) return `the tree shows it ${kind}: ${describe(was)} -> ${describe(now)}`;
  const sized = c.change === 'deleted' ? was : now;
  if (sized?.type === 'file' && sized.bytes.length !== c.bytes)
    return `it holds ${sized.bytes.length} bytes, not ${c.bytes}`;
  return null;
}

/** The events of a step that can change files: a tool's, a Stop hook's, the person's undo, redo or rewind. */
const ACTS: readonly SessionEvent['type'][] = ['tool_result', 'hook_run', 'undo', 'redo', 'rewind'];

/** How many of the step's events (over all sessions) name each absolute path. */
function namedCounts(models: readonly SessionModel[], fresh: SessionEvent[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [s, events] of fresh.entries()) {
    for (const e of events) {
      for (const rel of namedBy(e) ?? []) {
        const abs = path.join(models[s]!.root, rel);
        counts.set(abs, (counts.get(abs) ?? 0) + 1);
      }
    }
  }
  return counts;
}

/** The files a checkpoint changed or a restoration restored; null for other events. */
function namedBy(e: SessionEvent): string[] | null {
  if (e.type === 'checkpoint') return e.changed.map((c) => c.path);
  if (e.type === 'undo' || e.type === 'redo') return e.restored.map((c) => c.path);
  if (e.type === 'rewind') return (e.code?.restored ?? []).map((c) => c.path);
  return null;
}

/** An error that says a step (or every step of the session) went unrecorded: undo cannot take it back. */
function saysUnrecorded(e: SessionEvent): boolean {
  return e.type === 'error' && e.message.includes('undo cannot take');
}

/** A turn started and not ended: undo, redo and rewind wait for it. */
function turnLive(events: readonly SessionEvent[]): boolean {
  const ended = new Set(events.flatMap((e) => (e.type === 'turn_ended' ? [e.turnId] : [])));
  return events.some((e) => e.type === 'turn_started' && !ended.has(e.turnId));
}

function describeRequest(r: RestoreRequest): string {
  const tick = r.overwrite ? ` ticking ${r.overwrite.join(', ')}` : '';
  switch (r.kind) {
    case 'undo':
      return `undo of ${r.turnId}${r.paths ? ` (only ${r.paths.join(', ')})` : ''}${tick}`;
    case 'redo':
      return `redo${tick}`;
    case 'rewind':
      return `rewind to seq ${r.seq} (${r.restore})${tick}`;
  }
}

function describe(e: Entry | undefined): string {
  if (e === undefined) return 'nothing';
  if (e.type === 'file')
    return `file(${e.bytes.length} bytes ${JSON.stringify(e.bytes.toString('utf8').slice(0, 40))}, mode ${e.mode.toString(8)})`;
  if (e.type === 'link') return `link(${e.target})`;
  return e.type;
}

function names(root: string, items: readonly Item[]): string {
  return items.map((i) => rel(root, i.abs)).join(', ') || 'nothing';
}

function rel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** `inner` is strictly inside `outer`. */
function within(outer: string, inner: string): boolean {
  return inner.startsWith(`${outer}/`);
}

/** The path is the workspace's `.git` or inside it. */
function gitPath(root: string, p: string): boolean {
  const git = path.join(root, '.git');
  return p === git || within(git, p);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
