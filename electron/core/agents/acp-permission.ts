/**
 * An agent's own permission request (ACP `session/request_permission`) as an `agent_ask`
 * card (SPEC §14). It is the agent's second signal about something the gate does not hold
 * (a web fetch, a tool of its own); its writes and commands come to the gate anyway. The
 * person's answer goes back as one of the agent's own options.
 */
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { Answer } from '../../../shared/cards.js';
import type { SessionAgent } from '../../../shared/agents.js';
import { CancelledError } from '../gate/gate-error.js';
import type { Planner } from '../gate/permission-gate.js';
import type { DriverSeam } from '../sessions/session-driver.js';
import { agentAskCall } from './agent-ask-tool.js';
import type { LiveTurn } from './acp-fs.js';

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
/** Kept of what the agent showed with its request: a card is read, not scrolled. */
const DETAIL_MAX_CHARS = 4000;

export class AcpPermission {
  constructor(
    private readonly seam: DriverSeam,
    private readonly agent: SessionAgent,
    private readonly planner: Planner,
  ) {}

  async ask(turn: LiveTurn, params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const { toolCall, options } = params;
    const toolCallId = `agent-ask:${this.seam.newId()}`;
    const detail = detailOf(toolCall);
    const call = agentAskCall(turn.turnId, toolCallId, {
      agent: this.agent.id,
      label: this.agent.label,
      title: toolCall.title ?? '(the agent gave no title)',
      toolKind: toolCall.kind ?? 'other',
      ...(detail ? { detail } : {}),
      options: options.map(({ optionId, name, kind }) => ({ optionId, name, kind })),
    });
    let ok: boolean;
    try {
      ok = (await this.seam.gate.run(call, { signal: turn.signal }, this.planner)).ok;
    } catch (err) {
      if (err instanceof CancelledError || turn.signal.aborted) return CANCELLED;
      throw err;
    }
    if (!ok) return selected(pick(options, ['reject_once', 'reject_always']));
    // Allowed for the session (now, or by an earlier card's grant): the agent's "always", where it offers one.
    const answer = this.answerOf(toolCallId);
    const order = answer === 'allow_once' ? ['allow_once', 'allow_always'] : ['allow_always', 'allow_once'];
    return selected(pick(options, order));
  }

  /** The person's answer to this call's card; none when a grant answered without a card. */
  private answerOf(toolCallId: string): Answer | null {
    const events = this.seam.record.events();
    const card = events.findLast((e) => e.type === 'card' && e.toolCallId === toolCallId);
    if (!card || card.type !== 'card') return null;
    const answer = events.findLast((e) => e.type === 'card_answer' && e.cardId === card.cardId);
    return answer?.type === 'card_answer' ? answer.answer : null;
  }
}

function pick(options: readonly PermissionOption[], kinds: readonly string[]): PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  return undefined;
}

/** An option the agent offered, or cancelled when it offered none of the kind (an agent with odd options still gets an answer). */
function selected(option: PermissionOption | undefined): RequestPermissionResponse {
  return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : CANCELLED;
}

/** The request's text content and the places it names, as plain lines. */
function detailOf(toolCall: RequestPermissionRequest['toolCall']): string {
  const lines: string[] = [];
  for (const c of toolCall.content ?? []) {
    if (c.type === 'content' && c.content.type === 'text') lines.push(c.content.text);
    else if (c.type === 'diff') lines.push(`diff of ${c.path}`);
  }
  for (const l of toolCall.locations ?? []) lines.push(l.line ? `${l.path}:${l.line}` : l.path);
  return lines.join('\n').slice(0, DETAIL_MAX_CHARS);
}
