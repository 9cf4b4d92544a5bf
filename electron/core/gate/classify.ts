/**
 * The gate's table (SPEC §3), as one pure function of a plan and the session's grants.
 */
import { commandGrant, sameGrant, type Grant } from '../../../shared/cards.js';
import type { Plan } from '../tools/tool-def.js';

export type Classification = { kind: 'free' } | { kind: 'granted'; grant: Grant } | { kind: 'card'; grant: Grant };

/**
 * The grant a plan's card offers: derived here once, carried by the card event from then
 * on (the gate records and revokes that one, and the reducer keeps it).
 */
export function grantForPlan(plan: Plan): Grant {
  switch (plan.kind) {
    case 'read':
      return { kind: 'read', tool: plan.tool, path: plan.target.real };
    case 'write':
      return { kind: 'write', path: plan.target.real };
    case 'command':
      // Exact in its flags: an allow given confined never covers an unconfined run.
      return commandGrant(plan.argv, plan.cwd, {
        network: plan.network,
        unconfined: !plan.sandbox.confined,
        git: plan.git,
      });
    // Bound to the fingerprint the card shows: a changed tool or config matches no grant.
    case 'mcp': {
      const { tool, argsCanonical, fingerprint } = plan.body;
      return { kind: 'mcp', tool, args: argsCanonical, fingerprint };
    }
    case 'mcp_server': {
      const { server, source, fingerprint } = plan.body;
      return { kind: 'mcp_server', server, source, fingerprint };
    }
    // Bound to the launch the card shows: a changed argv, view or domain list asks again.
    case 'agent_start':
      return { kind: 'agent_start', agent: plan.body.agent, fingerprint: plan.body.fingerprint };
    // Bound to the agent's exact words: another title or kind asks again.
    case 'agent_ask': {
      const { agent, toolKind, title } = plan.body;
      return { kind: 'agent_ask', agent, toolKind, title };
    }
    case 'place_apply':
      return { kind: 'place_apply', origin: plan.body.origin };
  }
}

export function classify(plan: Plan, grants: readonly Grant[]): Classification {
  if (plan.kind === 'read' && plan.target.inside) return { kind: 'free' };
  const grant = grantForPlan(plan);
  // Writing into the person's folder from a place is asked every time, whatever the log holds.
  if (plan.kind === 'place_apply') return { kind: 'card', grant };
  return grants.some((g) => sameGrant(g, grant)) ? { kind: 'granted', grant } : { kind: 'card', grant };
}
