/**
 * The one map from a card's kind to its view (DESIGN.md, MCP servers: "describe a card kind
 * once on each side"). The words (a notification's title, the waiting list, the accessible
 * name) come from shared describeCard; everything a kind shows is here, so a new kind is
 * one entry, and the type below refuses a kind without one.
 */
import type { ComponentType } from 'react';
import { describeCard, type CardBody } from '../../../../shared/cards';
import { AgentAskCard, AgentAskRecordSubject } from './AgentAskCard';
import { AgentStartCard, AgentStartRecordNote, AgentStartRecordSubject } from './AgentStartCard';
import { ArgvTokens } from './ArgvTokens';
import type { CardViewProps } from './card-view-props';
import { CommandCard } from './CommandCard';
import { McpCard, McpRecordNote, McpRecordSubject, McpWarnings } from './McpCard';
import { McpServerCard, McpServerRecordNote, McpServerRecordSubject, McpServerWarnings } from './McpServerCard';
import { PlaceApplyCard, PlaceApplyRecordSubject } from './PlaceApplyCard';
import { ReadCard } from './ReadCard';
import { SandboxRecordLine, SandboxWarnings } from './SandboxNotes';
import { VisibleText } from './VisibleText';
import { WriteCard } from './WriteCard';
import { workspaceRelative } from './workspace-path';

export type CardKind = CardBody['kind'];
export type BodyOf<K extends CardKind> = Extract<CardBody, { kind: K }>;

export interface CardView<B extends CardBody> {
  /** Everything the card shows of what would happen (rule 1): the open card, and its record opened. */
  Body: ComponentType<CardViewProps<B>>;
  /** The record's one line, after its mark: "write src/a.ts", "run npm test". `verb` is describeCard's. */
  RecordSubject: ComponentType<{ body: B; workspace: string; verb: string }>;
  /** Under the record's line once answered: what it could reach, or that it had changed. */
  RecordNote?: ComponentType<{ body: B }>;
  /** On the open card, right before the answers and outside its scrolling content (rules 7 and 8). */
  Warnings?: ComponentType<{ body: B }>;
  /** The fixed sentence at the top of a re-asked card (rule 5). */
  reasked: string;
  /** What a dropped card's record says changed: "Dropped: file changed (…)". */
  staleWhat: string;
}

export const CARD_VIEWS: { readonly [K in CardKind]: CardView<BodyOf<K>> } = {
  write: {
    Body: WriteCard,
    RecordSubject: ({ body, workspace, verb }) => (
      <>
        {verb} <VisibleText text={workspaceRelative(workspace, body.path)} title={body.path} />
      </>
    ),
    reasked: 'The file changed after the last card; this is the diff as it is now.',
    staleWhat: 'file',
  },
  read: {
    Body: ReadCard,
    // The tool, not just "read": listing a folder and searching everything below it differ.
    RecordSubject: ({ body }) => (
      <>
        {body.tool} <VisibleText text={body.path} />
      </>
    ),
    reasked: 'The path changed after the last card; this is the read as it is now.',
    staleWhat: 'path',
  },
  command: {
    Body: CommandCard,
    RecordSubject: ({ body, verb }) => (
      <>
        {verb} <ArgvTokens argv={body.argv} compact />
      </>
    ),
    RecordNote: SandboxRecordLine,
    Warnings: SandboxWarnings,
    reasked: 'Something changed after the last card; this is the command as it is now.',
    staleWhat: 'command',
  },
  mcp: {
    Body: McpCard,
    RecordSubject: McpRecordSubject,
    RecordNote: McpRecordNote,
    Warnings: McpWarnings,
    reasked: 'The tool (or its server) changed after the last card; this is the call as it is now.',
    staleWhat: 'tool',
  },
  mcp_server: {
    Body: McpServerCard,
    RecordSubject: McpServerRecordSubject,
    RecordNote: McpServerRecordNote,
    Warnings: McpServerWarnings,
    reasked: "The server's config changed after the last card; this is its start as it is now.",
    staleWhat: 'server config',
  },
  agent_start: {
    Body: AgentStartCard,
    RecordSubject: AgentStartRecordSubject,
    RecordNote: AgentStartRecordNote,
    reasked: "The agent's launch changed after the last card; this is its start as it is now.",
    staleWhat: 'launch',
  },
  agent_ask: {
    Body: AgentAskCard,
    RecordSubject: AgentAskRecordSubject,
    reasked: 'The agent asked again after the last card; this is its question as it is now.',
    staleWhat: 'question',
  },
  place_apply: {
    Body: PlaceApplyCard,
    RecordSubject: PlaceApplyRecordSubject,
    reasked: 'The session’s change, or your folder, changed after the last card; this is the apply as it is now.',
    staleWhat: 'change',
  },
};

/** The view of a card's kind. The one place the map is indexed, and the one cast its typing needs. */
export function cardView<B extends CardBody>(body: B): CardView<B> {
  return CARD_VIEWS[body.kind] as unknown as CardView<B>;
}

/** The card's verb in describeCard's words ("write", "run", "call", "start"), for its record. */
export function cardVerb(body: CardBody): string {
  return describeCard(body).verb;
}
