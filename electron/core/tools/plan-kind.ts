/**
 * A tool's execute receives the general Plan type; these narrow it to the plan that tool
 * made, so a plan handed to the wrong tool is a loud programming error.
 */
import type { ReadTool, WriteTool } from '../../../shared/cards.js';
import type { Plan, ReadPlan, WritePlan } from './tool-def.js';

export function readPlanFor(plan: Plan, tool: ReadTool): ReadPlan {
  if (plan.kind !== 'read' || plan.tool !== tool) throw new Error(`${tool} cannot execute a ${plan.tool} plan`);
  return plan;
}

export function writePlanFor(plan: Plan, tool: WriteTool): WritePlan {
  if (plan.kind !== 'write' || plan.tool !== tool) throw new Error(`${tool} cannot execute a ${plan.tool} plan`);
  return plan;
}
