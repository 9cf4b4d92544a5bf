/**
 * `card.proposal` (the whole proposed file of a write card) is being added to the contract
 * by the web host's work. Until it lands in GatehouseApi this names its shape once, so the
 * card reads it through the same `api` object and a missing call is a clear error.
 */
import type { RendererApi } from '../../api/types';
import type { Reply } from '../../../../shared/contract';

export interface Proposal {
  path: string;
  text: string;
  bytes: number;
}

type ProposalCall = (request: { id: string; cardId: string }) => Promise<Reply<Proposal>>;

export async function loadProposal(api: RendererApi, sessionId: string, cardId: string): Promise<Reply<Proposal>> {
  const call = (api as unknown as Record<string, ProposalCall | undefined>)['card.proposal'];
  if (typeof call !== 'function')
    return { ok: false, error: 'This version of the app cannot load the whole proposal.' };
  return call({ id: sessionId, cardId });
}
