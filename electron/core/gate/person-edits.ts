/**
 * Editing a proposal on the card (SPEC §13), as the gate sees it. The person's text is the
 * whole new file: it is held to the rules a proposal is held to (the size limit, no NUL
 * byte), it replaces the proposal in the plan the gate re-checks and executes, and the
 * model's result gains the person's changes as a diff from its proposal.
 *
 * While a write card is open its two sides (the bytes on disk when it went up, the
 * proposal) are kept with its wait (`WriteSides`), so the card's diff can be rebuilt from
 * the person's text as they type without reading the file again.
 */
import { isUtf8 } from 'node:buffer';
import { editProblem, type EditPreview } from '../../../shared/card-edits.js';
import type { Answer } from '../../../shared/cards.js';
import { editPreviewOf, type DiffBase } from '../../../shared/diff/edit-preview.js';
import { WRITE_MAX_BYTES } from '../../../shared/limits.js';
import { diffPath } from '../diff/bytes-diff.js';
import type { Plan, ToolResult, WritePlan } from '../tools/tool-def.js';
import type { DiffFn } from './card-body.js';
import { GateError } from './gate-error.js';

/** A person's answer to a card; `edited` only with allow_once, on a write card. */
export interface PersonAnswer {
  answer: Answer;
  edited?: Buffer;
}

/**
 * Why a proposal cannot be edited on the card, or null. An editor holds text: a proposal
 * with bytes that are not UTF-8 (search_replace works on bytes) would come back from it
 * with U+FFFD in their place, changing bytes the person never touched.
 */
export function whyProposalUneditable(proposal: Buffer): string | null {
  return isUtf8(proposal)
    ? null
    : 'the proposal holds bytes that are not UTF-8 text, which an editor cannot keep as they are';
}

/** Why these bytes cannot be written as the person's version, or null when they can. */
export function editedBytesProblem(bytes: Buffer): string | null {
  return editProblem(bytes.length, bytes.indexOf(0));
}

/** The person's text as the bytes to write; GateError, changing nothing, when it cannot be. */
export function editedBytes(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const problem = editedBytesProblem(bytes);
  if (problem) throw new GateError(`cannot allow with your edits: ${problem}`);
  return bytes;
}

/** The plan the person approved: the model's write with their bytes in place of the proposal. */
export function withEdits(plan: Plan, edited: Buffer): WritePlan {
  if (plan.kind !== 'write') throw new GateError('only a write card can be allowed with edits');
  return { ...plan, after: edited, proposal: plan.after };
}

/**
 * An open write card's two sides (the bytes on disk when it went up, the proposal), kept
 * with the card's wait (card-wait.ts) while it is open, for `preview` and `base`.
 */
export class WriteSides {
  private constructor(
    private readonly path: string,
    private readonly before: Buffer | null,
    private readonly proposal: Buffer,
  ) {}

  /** A write plan's sides; none for any other plan. */
  static of(plan: Plan): WriteSides | undefined {
    return plan.kind === 'write' ? new WriteSides(plan.target.real, plan.before, plan.after) : undefined;
  }

  /** Why this proposal cannot be edited, or null. */
  whyNotEditable(): string | null {
    return whyProposalUneditable(this.proposal);
  }

  /** The card's diff with the person's text in place of the proposal. */
  async preview(text: string, diff: DiffFn): Promise<EditPreview> {
    const after = Buffer.from(text, 'utf8');
    const d = await diff({ path: this.path, before: this.before, after });
    return editPreviewOf(d, {
      bytes: after.length,
      sameAsProposal: after.equals(this.proposal),
      problem: this.whyNotEditable() ?? editedBytesProblem(after),
    });
  }

  /**
   * The card's other side as text, for the window to rebuild the diff itself as the person
   * types (shared/diff/edit-preview.ts); undefined when it cannot do so exactly: a side that
   * is not UTF-8 text (the core keys those lines by their bytes), or a file on disk over
   * the write limit, too big to send and split on every keystroke.
   */
  base(): DiffBase | undefined {
    if (this.whyNotEditable() !== null) return undefined;
    const { before } = this;
    if (before !== null && (before.length > WRITE_MAX_BYTES || !isUtf8(before))) return undefined;
    return { path: diffPath(this.path), before: before === null ? null : before.toString('utf8') };
  }
}

/**
 * The model's result for a write the person edited: the write landed with their changes,
 * given as a unified diff from the proposal to what was written (cut like a card's, and
 * then said so), so its next step starts from the file as it is.
 */
export async function tellTheModel(result: ToolResult, plan: WritePlan, diff: DiffFn): Promise<ToolResult> {
  if (!result.ok || !plan.proposal) return result;
  const d = await diff({ path: plan.target.input, before: plan.proposal, after: plan.after });
  const cut = d.truncated
    ? `\n(The diff is cut to its first lines; it is ${d.diffBytes} bytes whole. Read the file for the rest.)`
    : '';
  const output = [
    result.output,
    `The user edited your proposal before allowing it: the file was written with their changes, not as you proposed (${plan.proposal.length} bytes proposed, ${plan.after.length} bytes written). Their changes, as a unified diff from your proposal to what was written:`,
    d.diff === '' ? '(no line differs)' : d.diff.trimEnd(),
    `${cut}Build on the file as written; do not undo the user's changes.`.trimStart(),
  ].join('\n');
  return { ...result, output, details: { ...result.details, editedByUser: true } };
}
