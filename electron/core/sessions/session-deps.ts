/**
 * What a session is made from: its record on disk (info, events, files), its workspace or
 * why it has none, and the app's services it uses (chat, diff, checkpoints, MCP, a driver).
 */
import type { SessionAgent } from '../../../shared/agents.js';
import type { Grant } from '../../../shared/cards.js';
import type { ModelConfig, Push } from '../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { ChatClient } from '../chat/chat-client.js';
import type { CheckpointAccess } from '../checkpoints/session-checkpoints.js';
import type { SandboxAvailability } from '../sandbox/sandbox.js';
import type { DiffFn } from '../gate/card-body.js';
import type { SessionMcpDeps } from '../mcp/session-mcp.js';
import type { Workspace } from '../paths/workspace.js';
import type { Places } from '../places/places.js';
import type { ToolContext } from '../tools/tool-def.js';
import type { DriverFactory } from './session-driver.js';

/** The session's files on disk, as the session uses them. */
export interface SessionFiles {
  /** Resolves once the event is durable. */
  append(payload: EventPayload): Promise<SessionEvent>;
  /** Called for each event in seq order as soon as its line is written (before it is durable). */
  onAppend(listener: (event: SessionEvent) => void): () => void;
  putBlob(bytes: Buffer): Promise<string>;
  getBlob(id: string): Promise<Buffer>;
  /** Replaces the grants in meta.json (atomically) and bumps updatedAt. */
  saveGrants(grants: Grant[]): Promise<void>;
  /** Records the model a turn runs with, and bumps updatedAt. */
  saveModel(model: ModelConfig): Promise<void>;
}

export interface SessionInfo {
  id: string;
  title: string;
  workspace: string;
  model: ModelConfig | null;
  createdAt: string;
  updatedAt: string;
  /** The external agent that drives it (SPEC §14); absent: the native runner. */
  agent?: SessionAgent;
}

export interface SessionDeps {
  info: SessionInfo;
  events: SessionEvent[];
  files: SessionFiles;
  /** null when the workspace folder is gone or refused: the session can be read but runs no turn. */
  workspace: Workspace | null;
  /** Why there is no workspace, in the words every refused turn and MCP call says; by default "missing". */
  noWorkspace?: string;
  /** The workspace's tools work in this; null when the session has no workspace (`noWorkspace` says why). */
  toolContext: ToolContext | null;
  diff: DiffFn;
  /** The chat client for a model, or a SessionError saying plainly how to configure one. */
  chat: (model: ModelConfig | null) => { chat: ChatClient; model: ModelConfig };
  home: string;
  newId: () => string;
  emit: (push: Push) => void;
  clock?: () => Date;
  /** Whether commands run confined here, for what the model is told. */
  commands?: () => Promise<SandboxAvailability>;
  /** The workspace's checkpoint store (SPEC §12), opened on first use; without it nothing is snapshotted. */
  checkpoints?: CheckpointAccess;
  /** Drives the session's turns, through the seam only; by default the native runner. */
  driver?: DriverFactory;
  /** The places room (SPEC §15): a session in a place of its own reviews, applies and discards through it. */
  places?: Places;
  /** The session's MCP servers (SPEC §10); the session wires the gate and the log in. */
  mcp?: Omit<SessionMcpDeps, 'events' | 'grants' | 'append' | 'gate' | 'changed'> & { changed: (id: string) => void };
}
