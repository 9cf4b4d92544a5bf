/**
 * Every session under the data folder. Sessions open lazily and stay open; each runs
 * its own turns, so a message to one session starts at once whatever the others do.
 * On start-up every session on disk is listed, and a turn that was live when the
 * process stopped is resumed or marked interrupted.
 */
import path from 'node:path';
import type { SessionAgent } from '../../../shared/agents.js';
import type { Grant } from '../../../shared/cards.js';
import type { ModelConfig, Push, SessionSummary } from '../../../shared/contract.js';
import { foldEvents } from '../../../shared/reducer.js';
import { sameGrant } from '../../../shared/cards.js';
import type { DiffFn } from '../gate/card-body.js';
import type { SessionRecord } from '../log/session-record.js';
import type { SessionStore } from '../log/session-store.js';
import { Workspace } from '../paths/workspace.js';
import { refuseWorkspace, WorkspaceRefusedError } from '../paths/workspace-refusal.js';
import type { ChatClient } from '../chat/chat-client.js';
import type { DisabledServers } from '../mcp/disabled-servers.js';
import type { SpareSandboxes } from '../process/spare-sandboxes.js';
import type { ConfinementPolicy } from '../sandbox/confinement.js';
import type { ToolContext } from '../tools/tool-def.js';
import { Session, type SessionDeps } from './session.js';
import type { DriverFactory } from './session-driver.js';
import type { WorkspaceStores } from '../checkpoints/workspace-stores.js';
import { reasonThen, SessionError } from './session-error.js';
import { realpath } from 'node:fs/promises';
import type { SessionEvent } from '../../../shared/events.js';
import type { PlaceListing, SessionPlace } from '../../../shared/places.js';
import { newSessionId } from '../log/session-id.js';
import { settlePlaceLog } from '../places/settle-place-log.js';
import { PlaceError } from '../places/place-error.js';
import { isPlaceFolderOf } from '../places/place-layout.js';
import { placeInLog } from '../places/session-place.js';
import type { Places } from '../places/places.js';

export interface SessionsDeps {
  store: SessionStore;
  chat: (model: ModelConfig | null) => { chat: ChatClient; model: ModelConfig };
  diff: DiffFn;
  /** The app's data folder: every workspace counts it as outside, so no tool reads it without a card. */
  dataDir: string;
  home: string;
  /** The environment commands run with: the app's own, secrets removed (asked afresh for each command). */
  commandEnv: () => NodeJS.ProcessEnv;
  /** The sandbox commands and Stop hooks run in (SPEC §9): a NoSandbox where none can run. */
  sandbox: ConfinementPolicy;
  /** Sandboxes started ahead for grep, per view; without them each grep starts its own when it runs. */
  spares?: SpareSandboxes;
  newId: () => string;
  emit: (push: Push) => void;
  /** The workspaces' checkpoint stores (SPEC §12); without it nothing is snapshotted. */
  checkpoints?: WorkspaceStores;
  /** Where the user's own mcp.json is, and which servers are disabled; without it no MCP server starts. */
  mcp?: { userConfigDir: string; disabled: DisabledServers; callTimeoutMs?: number };
  /** What drives every session's turns; by default the native runner (or the session's external agent). */
  driver?: DriverFactory;
  /**
   * The driver of a session opened with an external agent (SPEC §14); without it such a
   * session runs no turn. `place`: the session's place of its own (SPEC §15), when it has one
   * (then `workspaceRoot` is the place's folder).
   */
  agentDriver?: (session: {
    id: string;
    agent: SessionAgent;
    workspaceRoot: string;
    place?: SessionPlace;
  }) => DriverFactory;
  /** The places room (SPEC §15); without it no session gets a place of its own. */
  places?: Places;
  /** Whether an agent can only work in a place of its own (it cannot be held to the gate). */
  needsPlace?: (agent: SessionAgent) => boolean;
}

export class Sessions {
  private readonly open = new Map<string, Promise<Session>>();
  private unreadable: { name: string; error: string }[] = [];

  constructor(private readonly deps: SessionsDeps) {}

  /**
   * Opens every session on disk and recovers turns that were live when the process
   * stopped. One session that cannot be opened (a damaged log) is reported, not fatal.
   */
  async start(): Promise<{ unreadable: { name: string; error: string }[] }> {
    const listing = await this.deps.store.list();
    const unreadable = [...listing.unreadable];
    for (const meta of listing.sessions) {
      try {
        const session = await this.get(meta.id);
        await session.recover();
      } catch (err) {
        unreadable.push({ name: meta.id, error: (err as Error).message });
      }
    }
    this.unreadable = unreadable;
    return { unreadable };
  }

  /**
   * Every session that could be opened; the others are in `unreadableSessions()`. start()
   * opened all of them and create() adds new ones, so this reads nothing from disk.
   */
  async list(): Promise<SessionSummary[]> {
    const opened = await Promise.allSettled([...this.open.values()]);
    const summaries = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value.summary()] : []));
    return summaries.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** Sessions found at start-up that could not be opened, and why. */
  unreadableSessions(): { name: string; error: string }[] {
    return this.unreadable;
  }

  /**
   * `agent`: the external agent that drives it (SPEC §14), kept in meta.json and the summary.
   * `place`: work in a place of its own (SPEC §15) made from the folder; an agent that
   * cannot be held to the gate always gets one.
   */
  async create(
    workspaceDir: string,
    title?: string,
    agent?: SessionAgent,
    place?: { base?: string },
  ): Promise<Session> {
    if (!path.isAbsolute(workspaceDir)) throw new SessionError(`workspace must be an absolute path: ${workspaceDir}`);
    const workspace = await this.openOrSay(workspaceDir);
    const named = title?.trim() || path.basename(workspace.root) || workspace.root;
    const wantsPlace = place ?? (agent && this.deps.needsPlace?.(agent) ? {} : undefined);
    if (wantsPlace) return this.createInPlace(workspace.root, named, agent, wantsPlace);
    const record = await this.deps.store.create({
      workspace: workspace.root,
      title: named,
      model: null,
      ...(agent ? { agent } : {}),
    });
    const session = this.build(record, { workspace });
    this.open.set(record.id, session);
    return session;
  }

  /** The session's id first, then its place, then the session on the place's folder; nothing stays if a step fails. */
  private async createInPlace(
    origin: string,
    title: string,
    agent: SessionAgent | undefined,
    wanted: { base?: string },
  ): Promise<Session> {
    const places = this.deps.places;
    if (!places) throw new SessionError('sessions in a place of their own are not in this build');
    const id = newSessionId(new Date());
    const made = await places
      .make(id, origin, { title, ...(wanted.base !== undefined ? { base: wanted.base } : {}) })
      .catch((err: unknown) => {
        if (err instanceof PlaceError) throw new SessionError(err.message);
        throw new SessionError(`the place could not be made: ${(err as Error).message}`);
      });
    try {
      const workspace = await this.openWorkspace(made.path, id);
      const record = await this.deps.store.create({
        id,
        workspace: workspace.root,
        title,
        model: null,
        ...(agent ? { agent } : {}),
      });
      await record.log.append({ type: 'place', place: made });
      const session = this.build(record, { workspace });
      this.open.set(record.id, session);
      // The base snapshot hashes the whole place: taken now, while the person writes the first message.
      void session.then((s) => s.place.ensureBase());
      return session;
    } catch (err) {
      await places.unmake(made);
      throw err;
    }
  }

  /**
   * The session's workspace for something that can change it outside a turn (the terminal's
   * shell): a place's base snapshot is taken first, so what it changes shows in the review.
   */
  async workspaceToChange(id: string): Promise<string> {
    const session = await this.get(id);
    await session.place.ensureBase();
    return session.summary().workspace;
  }

  /** Removes a session's place; the session stays, to be read (it has no workspace now). */
  async discardPlace(id: string, keepBranch: boolean): Promise<SessionPlace> {
    const session = await this.get(id);
    const place = await session.place.discard(keepBranch);
    // Opened again, it reads as a session with no workspace: no turn runs in a folder that is gone.
    this.open.delete(id);
    await session.dispose();
    await this.get(id);
    return place;
  }

  /** Every place in the data folder, with whether its session is still there. */
  async placesListing(): Promise<PlaceListing[]> {
    return this.deps.places ? this.deps.places.list(await this.titles()) : [];
  }

  /** Removes a place whose session is gone (an orphan). */
  async removePlace(placePath: string): Promise<void> {
    if (!this.deps.places) throw new SessionError('sessions in a place of their own are not in this build');
    await this.deps.places.remove(placePath, await this.titles());
  }

  private async titles(): Promise<Map<string, string>> {
    const listing = await this.deps.store.list();
    return new Map(listing.sessions.map((m) => [m.id, m.title]));
  }

  private async openOrSay(workspaceDir: string): Promise<Workspace> {
    try {
      return await this.openWorkspace(workspaceDir);
    } catch (err) {
      // A refusal's words already say what and why, and suggest a folder instead.
      if (err instanceof WorkspaceRefusedError) throw new SessionError(err.message);
      throw new SessionError(`cannot open ${workspaceDir} as a workspace: ${(err as Error).message}`);
    }
  }

  get(id: string): Promise<Session> {
    const existing = this.open.get(id);
    if (existing) return existing;
    const opening = this.deps.store.open(id).then(async (record) => {
      const meta = await record.meta();
      // A stop in a discard, or before the place was logged, is settled before anything reads the place.
      const settled = this.deps.places
        ? await settlePlaceLog(this.deps.places, {
            id: meta.id,
            workspace: meta.workspace,
            events: await record.log.readEvents(),
            append: (p) => record.log.append(p),
          })
        : { events: await record.log.readEvents() };
      const opened = await this.reopenWorkspace(meta.workspace, meta.id, settled.events);
      return this.build(record, settled.why && !opened.workspace ? { workspace: null, why: settled.why } : opened);
    });
    this.open.set(id, opening);
    opening.catch(() => this.open.delete(id));
    return opening;
  }

  /** Cancels every running turn (a running command's process group is stopped) and waits for them. */
  async dispose(): Promise<void> {
    const open = await Promise.allSettled([...this.open.values()]);
    await Promise.all(open.map((r) => (r.status === 'fulfilled' ? r.value.dispose() : undefined)));
  }

  /**
   * The one door a workspace comes through: refused folders (paths/workspace-refusal.ts)
   * never pass. `sessionId`: the session whose own place (and nothing else of the data
   * folder) may be its workspace.
   */
  private async openWorkspace(dir: string, sessionId?: string): Promise<Workspace> {
    const admittedPlace = sessionId !== undefined ? await this.placeFolderOf(sessionId, dir) : undefined;
    const places = { home: this.deps.home, dataDir: this.deps.dataDir, ...(admittedPlace ? { admittedPlace } : {}) };
    // Asked before Workspace.open, whose own data-folder check would say less; and asked
    // again of the root it took, in case the folder was swapped for a link meanwhile.
    await refuseWorkspace(dir, places);
    const workspace = await Workspace.open(dir, {
      dataDir: this.deps.dataDir,
      ...(admittedPlace ? { admittedPlace } : {}),
    });
    await refuseWorkspace(workspace.root, places);
    return workspace;
  }

  /**
   * A session's workspace at reopening, or why it has none. A session whose folder is now
   * refused (made before the rule, or the data folder moved) still opens and replays, and
   * every send and command says the refusal's words; nothing in it is lost.
   */
  private async reopenWorkspace(dir: string, id: string, events: readonly SessionEvent[]): Promise<WorkspaceOrWhy> {
    const place = placeInLog(events);
    if (place?.state === 'discarded') {
      return { workspace: null, why: 'its place was discarded, so this session can only be read' };
    }
    const missing = `the workspace folder ${dir} is missing`;
    try {
      const opened = await this.openWorkspace(dir, place ? id : undefined);
      // meta.json keeps the real root. A folder now reached there through a link (the
      // workspace swapped for a link, say to a folder outside) is not this workspace:
      // taking it would make every file there free to read.
      return opened.root === dir ? { workspace: opened } : { workspace: null, why: missing };
    } catch (err) {
      return { workspace: null, why: err instanceof WorkspaceRefusedError ? err.message : missing };
    }
  }

  /**
   * The real path `dir` has when it is exactly session `sessionId`'s place folder
   * (`<dataDir>/places/<id>/<name>`), else undefined: then the data-folder rule applies whole.
   */
  private async placeFolderOf(sessionId: string, dir: string): Promise<string | undefined> {
    if (!this.deps.places) return undefined;
    const real = await realpath(dir).catch(() => null);
    if (real === null) return undefined;
    return isPlaceFolderOf(path.dirname(this.deps.places.realRoot()), sessionId, real) ? real : undefined;
  }

  private toolContext(workspace: Workspace): ToolContext {
    const commandEnv = this.deps.commandEnv;
    return {
      workspace,
      // A getter, so a key saved in Settings after the session opened is scrubbed as well.
      get commandEnv() {
        return commandEnv();
      },
      sandbox: this.deps.sandbox,
      ...(this.deps.spares ? { spares: this.deps.spares } : {}),
    };
  }

  private async build(record: SessionRecord, opened: WorkspaceOrWhy): Promise<Session> {
    const { workspace } = opened;
    // The words every refused send and command says when there is no workspace.
    const why = opened.why ?? '';
    const meta = await record.meta();
    const events = await record.log.readEvents();
    await reconcileGrants(record, foldEvents(events).grants, meta.grants);
    return new Session({
      info: {
        id: meta.id,
        title: meta.title,
        workspace: meta.workspace,
        model: meta.model,
        createdAt: meta.createdAt,
        // Appends do not rewrite meta.json, so the log's last event can be newer.
        updatedAt: latest(meta.updatedAt, events.at(-1)?.ts),
        ...(meta.agent ? { agent: meta.agent } : {}),
      },
      events,
      files: {
        append: (p) => record.log.append(p),
        onAppend: (listener) => record.log.onAppend(listener),
        putBlob: (b) => record.blobs.put(b),
        getBlob: (id) => record.blobs.get(id),
        saveGrants: async (grants) => void (await record.updateMeta((m) => ({ ...m, grants }))),
        saveModel: async (model) => void (await record.updateMeta((m) => ({ ...m, model }))),
      },
      workspace,
      ...(opened.why === undefined ? {} : { noWorkspace: opened.why }),
      toolContext: workspace ? this.toolContext(workspace) : null,
      diff: this.deps.diff,
      chat: (model) => {
        if (!workspace) throw new SessionError(reasonThen(why, 'this session can only be read'));
        return this.deps.chat(model);
      },
      home: this.deps.home,
      newId: this.deps.newId,
      emit: this.deps.emit,
      commands: () => this.deps.sandbox.sandbox.availability(),
      mcp: workspace && this.deps.mcp ? this.mcpDeps(workspace) : undefined,
      checkpoints: workspace ? this.deps.checkpoints?.access(meta.id, workspace.root) : undefined,
      ...(this.deps.places ? { places: this.deps.places } : {}),
      ...this.driverOf(meta.id, meta.agent, workspace, placeInLog(events)),
    });
  }

  /** A test's driver for every session; else a session's external agent's; else (none given) the native runner. */
  private driverOf(
    id: string,
    agent: SessionAgent | undefined,
    workspace: Workspace | null,
    place: SessionPlace | undefined,
  ): Pick<SessionDeps, 'driver'> {
    if (this.deps.driver) return { driver: this.deps.driver };
    if (!agent || !workspace) return {};
    if (!this.deps.agentDriver) return { driver: noAgents(agent) };
    return { driver: this.deps.agentDriver({ id, agent, workspaceRoot: workspace.root, ...(place ? { place } : {}) }) };
  }

  private mcpDeps(workspace: Workspace): SessionDeps['mcp'] {
    const mcp = this.deps.mcp!;
    return {
      workspaceRoot: workspace.root,
      userConfigDir: mcp.userConfigDir,
      env: this.deps.commandEnv,
      sandbox: this.deps.sandbox,
      disabled: mcp.disabled,
      callTimeoutMs: mcp.callTimeoutMs,
      changed: (id) => this.deps.emit({ name: 'mcp.changed', payload: { id } }),
    };
  }
}

/** A session's workspace, or the words saying why it has none (missing, or refused). */
type WorkspaceOrWhy = { workspace: Workspace; why?: undefined } | { workspace: null; why: string };

/** A session opened with an agent in a build that has none: each turn ends saying so. */
function noAgents(agent: SessionAgent): DriverFactory {
  return (seam) => ({
    run: async ({ turnId }) =>
      void (await seam.record.append({
        type: 'turn_ended',
        turnId,
        reason: 'error',
        message: `${agent.label} cannot run here: external agents are not available in this build`,
      })),
  });
}

function latest(a: string, b: string | undefined): string {
  return b !== undefined && b > a ? b : a;
}

/** The log is the record of grants; meta.json mirrors it. A crash between the two is repaired here. */
async function reconcileGrants(record: SessionRecord, fromLog: Grant[], inMeta: Grant[]): Promise<void> {
  const same = fromLog.length === inMeta.length && fromLog.every((g) => inMeta.some((m) => sameGrant(g, m)));
  if (!same) await record.updateMeta((m) => ({ ...m, grants: fromLog }));
}
