/**
 * What one command will run under, decided when it is planned, so the card, the grant
 * and the execution see the same thing: confined with a profile, or unconfined and why
 * (the call asked for it, or no sandbox can run here). Where the sandbox cannot run and
 * Settings says to refuse such commands, the answer is a refusal instead of a card.
 */
import type { CommandSandbox } from '../../../shared/cards.js';
import { SandboxRefusal, type Sandbox } from './sandbox.js';

export interface ConfinementRequest {
  /** The call asked for the network: any domain, or only those listed. */
  network: boolean | string[];
  /** The call asked to run without the sandbox. */
  unconfined: boolean;
  /** The call asked to write git state. */
  git: boolean;
}

export interface ConfinementPolicy {
  sandbox: Sandbox;
  /** "Refuse commands that cannot be confined", read afresh for every command. */
  refuseUnconfined: () => boolean;
}

export const ASKED_UNCONFINED = 'the call asked to run without the sandbox';

export async function planConfinement(
  policy: ConfinementPolicy,
  workspaceRoot: string,
  request: ConfinementRequest,
): Promise<{ sandbox: CommandSandbox } | { refused: string }> {
  const availability = await policy.sandbox.availability();
  if (!availability.available) {
    if (policy.refuseUnconfined()) {
      return {
        refused: `refused: this command cannot be confined here (${availability.reason}), and Gatehouse is set to refuse commands that cannot be confined. Nothing ran. Tell the user; ${availability.fix}`,
      };
    }
    return { sandbox: { confined: false, reason: availability.reason } };
  }
  if (request.unconfined) return { sandbox: { confined: false, reason: ASKED_UNCONFINED } };
  try {
    const profile = await policy.sandbox.profile(workspaceRoot, { network: request.network, git: request.git });
    return { sandbox: { confined: true, ...profile } };
  } catch (err) {
    if (err instanceof SandboxRefusal) return { refused: err.message };
    throw err;
  }
}
