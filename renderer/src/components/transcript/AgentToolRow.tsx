/**
 * One of an external agent's own tool calls (SPEC §14): its reads and searches, which the
 * gate does not hold and no card asks for. A compact line with the agent's title, its kind
 * of tool and the places it named, and the call's state in words. Its writes and commands
 * are not these: they come through the gate as tool rows with cards.
 */
import { useMemo } from 'react';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { VisibleText } from '../cards/VisibleText';
import { STATE_MARKS, STATE_WORDS, toolState, type ToolItem } from './tool-row-state';

/** The tool name a driver logs an agent's own call under. */
export const AGENT_TOOL = 'agent_tool';

interface AgentToolArgs {
  title: string;
  kind: string;
  locations: { path: string; line?: number }[];
}

export function AgentToolRow({ item }: { item: ToolItem }) {
  const args = useMemo(() => agentToolArgs(item.args), [item.args]);
  const state = toolState(item);
  return (
    <div className={`agent-tool-row tool-row-${state}`}>
      {/* "read Read sum.test.js" says the verb twice: the kind shows only when the title does not start with it. */}
      {!saysKind(args) && (
        <>
          <span className="agent-tool-kind">{args.kind}</span>{' '}
        </>
      )}
      <VisibleText className="visible-prose agent-tool-title" text={args.title} options={PROSE_OPTIONS} />
      {args.locations.length > 0 && (
        <span className="agent-tool-places">
          {' '}
          {args.locations.map((l, i) => (
            <VisibleText key={i} text={l.line === undefined ? l.path : `${l.path}:${l.line}`} />
          ))}
        </span>
      )}{' '}
      <span className={`tool-row-mark tool-row-mark-${state}`}>
        {STATE_MARKS[state] && <span aria-hidden="true">{STATE_MARKS[state]} </span>}
        {STATE_WORDS[state]}
      </span>
    </div>
  );
}

/** The logged args, read defensively: the log is data, and an older or odd one still shows a line. */
function agentToolArgs(raw: unknown): AgentToolArgs {
  const args = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const locations = Array.isArray(args.locations) ? args.locations : [];
  return {
    title: typeof args.title === 'string' && args.title !== '' ? args.title : 'a tool call',
    kind: typeof args.kind === 'string' && args.kind !== '' ? args.kind : 'other',
    locations: locations.flatMap((l: unknown) => {
      // The driver logs each place as its path; a place with a line is an object.
      if (typeof l === 'string') return [{ path: l }];
      const loc = (typeof l === 'object' && l !== null ? l : {}) as Record<string, unknown>;
      if (typeof loc.path !== 'string') return [];
      return [{ path: loc.path, ...(typeof loc.line === 'number' ? { line: loc.line } : {}) }];
    }),
  };
}

function saysKind(args: AgentToolArgs): boolean {
  return args.title.toLowerCase().startsWith(`${args.kind.toLowerCase()} `);
}
