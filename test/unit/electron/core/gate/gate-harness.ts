/**
 * A real gate over real folders, wired as the Session wires it: a workspace, a folder
 * outside it, a data folder holding the session (events.jsonl, meta.json, blobs), the real
 * Tools and the real card differ. `grants.list` folds the log and `grants.add` writes
 * meta.json. Every event the gate appends is collected, and the cards can be awaited.
 * Everything is removed when the test finishes.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { Grant } from '../../../../../shared/cards.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { foldEvents, type CardEvent } from '../../../../../shared/reducer.js';
import { CardDiffer } from '../../../../../electron/core/diff/card-differ.js';
import { Gate, type Planner, type ToolCall } from '../../../../../electron/core/gate/permission-gate.js';
import { SessionStore } from '../../../../../electron/core/log/session-store.js';
import type { SessionRecord } from '../../../../../electron/core/log/session-record.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ExecContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';

/** The one time the store and the log see, so meta.json can be predicted byte for byte. */
export const FIXED_TIME = '2025-03-04T05:06:07.000Z';

/** One file-system entry of a snapshot: what it is, its mode bits and its bytes or link target. */
export interface Entry {
  type: 'file' | 'dir' | 'link';
  mode: number;
  content?: string;
}

export type Snapshot = Record<string, Entry>;

/** A call on its way through the gate. */
export interface Pending {
  result: Promise<ToolResult>;
  /** The next card this gate puts up; fails if the call settles first. */
  card(): Promise<CardEvent>;
}

/** One Gate over one session record: what a Session holds. */
export class GateUnderTest {
  readonly gate: Gate;
  /** Every event this gate appended, in order. */
  readonly appended: SessionEvent[] = [];
  private readonly cards: CardEvent[] = [];
  private readonly cardWaiters: ((card: CardEvent) => void)[] = [];
  private nextCall = 0;

  constructor(
    readonly harness: GateHarness,
    readonly record: SessionRecord,
    /** The log as it stood when this gate was built (a restart starts from it). */
    private readonly earlier: SessionEvent[],
    planner: Planner,
  ) {
    this.gate = new Gate({
      tools: planner,
      record: {
        append: async (payload) => {
          const event = await record.log.append(payload);
          this.appended.push(event);
          if (event.type === 'card') this.cardUp(event);
          return event;
        },
        putBlob: (bytes) => record.blobs.put(bytes),
      },
      grants: {
        list: () => foldEvents([...this.earlier, ...this.appended]).grants,
        persist: async () => {
          const grants = foldEvents([...this.earlier, ...this.appended]).grants;
          await record.updateMeta((m) => ({ ...m, grants }));
        },
      },
      diff: harness.differ.diff,
      newId: () => harness.newId('card'),
    });
  }

  /** A tool call as the runner would hand it over. */
  call(tool: string, args: unknown): ToolCall {
    this.nextCall += 1;
    return { turnId: 'turn-1', toolCallId: `call-${this.nextCall}`, tool, args };
  }

  start(tool: string, args: unknown, exec: ExecContext = {}): Pending {
    return this.startCall(this.call(tool, args), exec);
  }

  startCall(call: ToolCall, exec: ExecContext = {}): Pending {
    return this.pending(this.gate.run(call, exec));
  }

  /** Wraps a run or resume promise so its next card can be awaited. */
  pending(result: Promise<ToolResult>): Pending {
    result.catch(() => undefined);
    return { result, card: () => this.cardBefore(result) };
  }

  /** The next card, or a failure naming the result when `settled` settles first. */
  private cardBefore(settled: Promise<ToolResult>): Promise<CardEvent> {
    const ready = this.cards.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise<CardEvent>((resolve, reject) => {
      const waiter = (card: CardEvent) => resolve(card);
      this.cardWaiters.push(waiter);
      const giveUp = (why: Error) => {
        const i = this.cardWaiters.indexOf(waiter);
        if (i === -1) return;
        this.cardWaiters.splice(i, 1);
        reject(why);
      };
      settled.then(
        (r) => giveUp(new Error(`the call settled without a card: ${JSON.stringify(r)}`)),
        (err: unknown) => giveUp(err instanceof Error ? err : new Error(String(err))),
      );
    });
  }

  /** Runs a call that is expected to need no card. */
  run(tool: string, args: unknown, exec: ExecContext = {}): Promise<ToolResult> {
    return this.gate.run(this.call(tool, args), exec);
  }

  nextCard(): Promise<CardEvent> {
    const ready = this.cards.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.cardWaiters.push(resolve));
  }

  /** The grants as the log on disk folds them. */
  async loggedGrants(): Promise<Grant[]> {
    return foldEvents(await this.record.log.readEvents()).grants;
  }

  async metaBytes(): Promise<Buffer> {
    return fs.readFile(path.join(this.record.dir, 'meta.json'));
  }

  /** The event types this gate appended, in order. */
  types(): string[] {
    return this.appended.map((e) => e.type);
  }

  private cardUp(card: CardEvent): void {
    const waiter = this.cardWaiters.shift();
    if (waiter) waiter(card);
    else this.cards.push(card);
  }
}

export class GateHarness {
  private ids = 0;
  private readonly stores: SessionStore[] = [];

  private constructor(
    /** The temp folder holding everything below. */
    readonly root: string,
    /** The workspace's real root. */
    readonly ws: string,
    /** A real folder outside the workspace. */
    readonly outside: string,
    readonly dataDir: string,
    readonly workspace: Workspace,
    readonly tools: Tools,
    readonly differ: CardDiffer,
    readonly store: SessionStore,
  ) {}

  static async open(): Promise<GateHarness> {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-gate-')));
    const differ = new CardDiffer();
    onTestFinished(async () => {
      await differ.dispose();
      await fs.rm(root, { recursive: true, force: true });
    });
    const ws = path.join(root, 'ws');
    const outside = path.join(root, 'outside');
    const dataDir = path.join(root, 'data');
    await Promise.all([fs.mkdir(ws), fs.mkdir(outside), fs.mkdir(dataDir)]);
    const workspace = await Workspace.open(ws);
    // Commands run confined, as a Session runs them (a home of its own, with no secret stores in it).
    const sandbox = new BwrapSandbox({ dataDir, home: path.join(root, 'home'), env: process.env });
    const tools = new Tools({
      workspace,
      commandEnv: commandEnv(process.env),
      sandbox: { sandbox, refuseUnconfined: () => false },
    });
    const h = new GateHarness(root, ws, outside, dataDir, workspace, tools, differ, newStore(dataDir));
    onTestFinished(() => h.closeStores());
    h.stores.push(h.store);
    return h;
  }

  newId(prefix: string): string {
    this.ids += 1;
    return `${prefix}-${this.ids}`;
  }

  /** A new session on the workspace, with its own gate. */
  async session(planner: Planner = this.tools): Promise<GateUnderTest> {
    const record = await this.store.create({ workspace: this.ws, title: 'gate test', model: null });
    return new GateUnderTest(this, record, [], planner);
  }

  /**
   * What a restart leaves: the old gate object is dropped (its wait is never settled)
   * and its record closed, the session is opened again from disk by a fresh store, and
   * a new gate is built over it.
   */
  async restart(before: GateUnderTest, planner: Planner = this.tools): Promise<GateUnderTest> {
    await before.record.close();
    const store = newStore(this.dataDir);
    this.stores.push(store);
    const record = await store.open(before.record.id);
    return new GateUnderTest(this, record, await record.log.readEvents(), planner);
  }

  /** Writes a file below the workspace (a relative path) or anywhere (an absolute one). */
  async put(file: string, content: string | Buffer, mode?: number): Promise<string> {
    const abs = path.resolve(this.ws, file);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, content);
    if (mode !== undefined) await fs.chmod(abs, mode);
    return abs;
  }

  async read(file: string): Promise<string | null> {
    return fs.readFile(path.resolve(this.ws, file), 'utf8').catch(() => null);
  }

  /** Every entry below the workspace and the outside folder: type, mode, bytes or link target. */
  async snapshot(): Promise<Snapshot> {
    const all: Snapshot = {};
    await walk(this.root, this.ws, all);
    await walk(this.root, this.outside, all);
    return all;
  }

  private async closeStores(): Promise<void> {
    await Promise.all(this.stores.map((s) => s.dispose()));
  }
}

function newStore(dataDir: string): SessionStore {
  return new SessionStore({ dataDir, durability: 'none', clock: () => new Date(FIXED_TIME) });
}

async function walk(root: string, dir: string, into: Snapshot): Promise<void> {
  const st = await fs.lstat(dir);
  into[path.relative(root, dir)] = { type: 'dir', mode: st.mode & 0o7777 };
  for (const name of (await fs.readdir(dir)).sort()) {
    const abs = path.join(dir, name);
    const s = await fs.lstat(abs);
    const key = path.relative(root, abs);
    if (s.isDirectory()) await walk(root, abs, into);
    else if (s.isSymbolicLink()) into[key] = { type: 'link', mode: 0, content: await fs.readlink(abs) };
    else into[key] = { type: 'file', mode: s.mode & 0o7777, content: (await fs.readFile(abs)).toString('latin1') };
  }
}

/** The meta.json bytes writeMeta gives for `before` with these grants (the clock is fixed). */
export function metaWithGrants(before: Buffer, grants: Grant[]): string {
  const meta = JSON.parse(before.toString('utf8')) as Record<string, unknown>;
  return `${JSON.stringify({ ...meta, grants }, null, 2)}\n`;
}
