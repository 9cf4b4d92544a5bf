/**
 * The two pseudo-tools an external agent's session puts through the gate (SPEC §14): its
 * start (`agent_start`) and its own permission requests (`agent_ask`). No model calls
 * them; the ACP driver does, with this planner as the gate's `via`, so their cards,
 * grants and answers are logged as every other card is.
 */
import { z } from 'zod';
import type { AgentAskCardBody, AgentStartCardBody } from '../../../shared/cards.js';
import type { Planner, ToolCall } from '../gate/permission-gate.js';
import { ToolError, type AgentAskPlan, type AgentStartPlan, type Plan, type ToolResult } from '../tools/tool-def.js';

export const AGENT_START_TOOL = 'agent_start';
export const AGENT_ASK_TOOL = 'agent_ask';
/** Said to the log when the start card was allowed: the driver starts the process next. */
export const START_ALLOWED = 'allowed to start';
export const ASK_ALLOWED = 'allowed';

const askArgs = z.object({
  agent: z.string().min(1),
  label: z.string().min(1),
  title: z.string(),
  toolKind: z.string().min(1),
  detail: z.string().optional(),
  options: z.array(z.object({ optionId: z.string(), name: z.string(), kind: z.string() })),
});

/** The call that puts an agent's start through the gate. */
export function agentStartCall(turnId: string, toolCallId: string, agent: string): ToolCall {
  return { turnId, toolCallId, tool: AGENT_START_TOOL, args: { agent } };
}

/** The call that puts an agent's permission request through the gate: its card body is its arguments. */
export function agentAskCall(turnId: string, toolCallId: string, body: Omit<AgentAskCardBody, 'kind'>): ToolCall {
  return { turnId, toolCallId, tool: AGENT_ASK_TOOL, args: { ...body } };
}

/**
 * Plans both pseudo-tools. The start card's body is made afresh at each planning (the
 * jail's view of the launch), so a launch changed while its card is open asks again.
 */
export function agentPlanner(startBody: () => Promise<AgentStartCardBody>): Planner {
  return {
    plan: async (tool, rawArgs): Promise<Plan> => {
      if (tool === AGENT_START_TOOL) return startPlan(await startBody(), rawArgs);
      if (tool === AGENT_ASK_TOOL) return askPlan(rawArgs);
      throw new ToolError(`${tool}: not an agent's pseudo-tool`);
    },
    // The gate's yes is the whole effect: the driver acts on it (starts the process, answers the agent).
    execute: (plan): Promise<ToolResult> => {
      if (plan.kind === 'agent_start') return Promise.resolve({ ok: true, output: START_ALLOWED });
      if (plan.kind === 'agent_ask') return Promise.resolve({ ok: true, output: ASK_ALLOWED });
      throw new Error(`the agent planner cannot execute a ${plan.kind} plan`);
    },
  };
}

function startPlan(body: AgentStartCardBody, rawArgs: unknown): AgentStartPlan {
  const agent = (rawArgs as { agent?: unknown } | null)?.agent;
  if (agent !== body.agent) throw new ToolError(`agent_start: the launch is for ${body.agent}, not ${String(agent)}`);
  return { kind: 'agent_start', tool: 'agent_start', body, args: { agent } };
}

function askPlan(rawArgs: unknown): AgentAskPlan {
  const parsed = askArgs.safeParse(rawArgs);
  if (!parsed.success) throw new ToolError(`agent_ask: the agent's request is malformed (${parsed.error.message})`);
  const { detail, ...rest } = parsed.data;
  const body: AgentAskCardBody = { kind: 'agent_ask', ...rest, ...(detail ? { detail } : {}) };
  return { kind: 'agent_ask', tool: 'agent_ask', body, args: { ...parsed.data } };
}
