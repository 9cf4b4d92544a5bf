/**
 * What the next request needs before it can be sent, as one pure decision over the
 * view's sizes. `SessionContext` carries it out before a step and shows it in "What the
 * model sees", so the preview never says something the step will not do.
 *
 * - Under the masking trigger, the request goes as it is.
 * - Over it, a block of older results is masked when that brings the request under the
 *   summary trigger.
 * - Otherwise the older history is summarised; `plan` is the masking to do as well (or
 *   instead, when a summary is not possible or frees too little).
 */
import { COMPACT_TRIGGER_SHARE, MASK_TRIGGER_SHARE } from '../../../shared/limits.js';
import { planMasking, type MaskCandidate, type MaskPlan } from './masking.js';

export type FitDecision =
  { next: 'send' } | { next: 'mask'; plan: MaskPlan } | { next: 'summarise'; plan: MaskPlan | null };

export interface FitInput {
  /** The request's estimated tokens now. */
  total: number;
  /** The most input a request may carry. */
  room: number;
  maskedThrough: number;
  /** The entries after the summary, oldest first. */
  entries: readonly MaskCandidate[];
}

export function decideFit({ total, room, maskedThrough, entries }: FitInput): FitDecision {
  if (total <= room * MASK_TRIGGER_SHARE) return { next: 'send' };
  const plan = planMasking(entries, maskedThrough, total, room);
  if (plan && plan.tokensAfter <= room * COMPACT_TRIGGER_SHARE) return { next: 'mask', plan };
  return { next: 'summarise', plan };
}
