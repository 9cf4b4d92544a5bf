/**
 * The agent's own cancels of its gate calls (MCP `notifications/cancelled`). The face is
 * stateless, so a cancel arrives in an HTTP request of its own, to a protocol object that
 * never saw the call: the calls in flight are kept here by their request id, shared by all
 * requests. A call whose HTTP request has closed (its agent gone) is forgotten, so a
 * relaunched agent, counting its ids from the start again, cannot cancel a call it never
 * made: that call's card stays answerable, as the turn's own Cancel alone may withdraw it.
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { CardWithdrawal } from '../gate/gate-error.js';

/** The words a call the agent cancelled ends in, and its card's withdrawal reason. */
export const AGENT_CANCELLED = 'the agent cancelled this call before it finished';

export class GateCallCancels {
  private readonly inFlight = new Map<RequestId, AbortController>();

  /** A signal for the call `id`: aborted when the agent cancels it. */
  take(id: RequestId): AbortController {
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    return controller;
  }

  /** The call has its answer, or its agent is gone: a later cancel of `id` does not reach it. */
  forget(id: RequestId, controller: AbortController): void {
    if (this.inFlight.get(id) === controller) this.inFlight.delete(id);
  }

  /** The agent cancelled request `id`; a request not in flight (answered, or never a call) is ignored, as MCP asks. */
  cancel(id: RequestId): void {
    const controller = this.inFlight.get(id);
    if (!controller) return;
    this.inFlight.delete(id);
    controller.abort(new CardWithdrawal(AGENT_CANCELLED));
  }
}
