/**
 * The tools that belong to the turn rather than to the workspace: ask, finish and
 * use_skill. The runner answers them itself (no gate, no card); the session appends them
 * to the tools the model is shown. Their schemas are strict like the workspace tools',
 * so a malformed call is an error the model can read.
 */
import { z } from 'zod';
import type { ToolShown } from '../tool-shape/tool-shown.js';

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

/** In the order the model is shown them, after every other tool. */
export const AGENT_TOOLS: readonly ToolShown[] = [
  {
    name: 'ask',
    description:
      "Ask the user a question and wait for the answer, which comes back as this tool's result. Give `options` when there are a few clear choices; the user can still answer in free text. Use it only when you cannot decide from the workspace yourself.",
    schema: askSchema,
  },
  {
    name: 'finish',
    description:
      "Finish the task. `summary` tells the user what you did and anything left open. The project's Stop hooks run first; if one fails, its output comes back as this tool's result and you should fix the problem and call finish again.",
    schema: finishSchema,
  },
  {
    name: 'use_skill',
    description:
      "Load a skill by name (skills are listed in the system prompt). Returns the skill's instructions and the other files in its folder.",
    schema: useSkillSchema,
  },
];

const shownWith = new WeakMap<readonly ToolShown[], readonly ToolShown[]>();

/**
 * The tools the model is shown: `tools`, then the turn's own. The same array for as
 * long as `tools` is, so the request's tool block stays byte for byte (and cached).
 */
export function withAgentTools(tools: readonly ToolShown[]): readonly ToolShown[] {
  let all = shownWith.get(tools);
  if (!all) shownWith.set(tools, (all = [...tools, ...AGENT_TOOLS]));
  return all;
}
