/**
 * The tools that belong to the turn rather than to the workspace: ask, finish and
 * use_skill. Their schemas are strict like the workspace tools', so a malformed call is
 * an error the model can read.
 */
import { z } from 'zod';

export const askSchema = z.strictObject({
  question: z.string().min(1, 'question must not be empty').max(4000),
  options: z.array(z.string().min(1).max(200)).max(10).optional(),
});

export const finishSchema = z.strictObject({
  summary: z.string().max(20_000),
});

export const useSkillSchema = z.strictObject({
  name: z.string().min(1).max(200),
});

export const agentToolDescriptions = {
  ask: "Ask the user a question and wait for the answer, which comes back as this tool's result. Give `options` when there are a few clear choices; the user can still answer in free text. Use it only when you cannot decide from the workspace yourself.",
  finish:
    "Finish the task. `summary` tells the user what you did and anything left open. The project's Stop hooks run first; if one fails, its output comes back as this tool's result and you should fix the problem and call finish again.",
  use_skill:
    "Load a skill by name (skills are listed in the system prompt). Returns the skill's instructions and the other files in its folder.",
} as const;

export type AgentToolName = keyof typeof agentToolDescriptions;
export const AGENT_TOOL_NAMES = Object.keys(agentToolDescriptions) as AgentToolName[];
