/**
 * propose_apply (SPEC §15): the model, working in a place of its own, proposes applying
 * that place's change into the person's folder. Planning reviews the place now and puts
 * what the apply would do on a `place_apply` card (always a card, never granted); allowed
 * once, it runs as the person's own apply of that review, with every digest check; denied,
 * nothing is written and the model is told.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PlaceApplyCardBody, PlaceApplyCardFile } from '../../../shared/cards.js';
import type { PlaceApplyReply, PlaceFileChange, PlaceReview } from '../../../shared/places.js';
import { ToolError, type Plan, type PlaceApplyPlan, type ToolDef, type ToolResult } from '../tools/tool-def.js';
import type { ApplyRequest } from './session-place.js';

/** The most paths one proposal names (the review lists no more than this either). */
export const PROPOSE_MAX_PATHS = 10_000;

export const proposeApplyArgsSchema = z.strictObject({
  as: z.enum(['files', 'commit']),
  paths: z
    .array(z.string().min(1, 'a path must not be empty').max(4096))
    .min(1, 'paths must name at least one file; leave it out to propose every file')
    .max(PROPOSE_MAX_PATHS)
    .optional(),
  message: z.string().min(1, 'message must not be empty').max(10_000).optional(),
});

export type ProposeApplyArgs = z.infer<typeof proposeApplyArgsSchema>;

/** What the tool needs of the session's place calls. */
export interface ProposePlace {
  review(): Promise<PlaceReview>;
  applyProposed(request: ApplyRequest): Promise<PlaceApplyReply>;
}

const DESCRIPTION = `Propose applying your work into the user's own folder. This session works in a place of its own (a git worktree or a copy of the user's folder): your writes and commands change only the place, and nothing reaches the user's folder until it is applied.
- as: "files" writes the changed files into the user's folder; "commit" does that and makes one commit on the user's current branch (only when their folder is a git repository on a branch).
- paths: the files to apply, relative to the workspace, exactly as they changed (at most ${PROPOSE_MAX_PATHS}); leave it out to propose every changed file.
- message: the commit's message (only with as: "commit").
- The user sees every file, its change and its status, and allows or denies this once. A file the user also changed since the place was made is a conflict: it is never written, and the result names it.
- The result says what was applied, what conflicted, what failed, and the commit made.`;

export function proposeApplyTool(place: ProposePlace): ToolDef<ProposeApplyArgs> {
  return {
    name: 'propose_apply',
    description: DESCRIPTION,
    schema: proposeApplyArgsSchema,
    plan: (args) => planProposal(place, args),
    execute: (plan) => executeProposal(place, plan),
  };
}

async function planProposal(place: ProposePlace, args: ProposeApplyArgs): Promise<PlaceApplyPlan> {
  if (args.message !== undefined && args.as !== 'commit') {
    throw new ToolError('propose_apply: message goes only with as: "commit"');
  }
  for (const p of args.paths ?? []) checkRelative(p);
  if (args.paths && new Set(args.paths).size !== args.paths.length) {
    throw new ToolError('propose_apply: a path is named twice in paths');
  }
  const review = await place.review();
  const files = chosenFiles(review, args.paths);
  const commit = commitOf(review, args.as);
  // A file already in the user's folder would be written again as it is: only a ready one is worth a card.
  const writes = files.filter((f) => f.status === 'ready');
  if (writes.length === 0) {
    throw new ToolError(`propose_apply: nothing to apply: ${nothingWhy(files)}`);
  }
  const paths = files.map((f) => f.path);
  const message =
    args.as === 'commit' ? args.message?.trim() || `Apply the session's changes (${writes.length} files)` : undefined;
  const body: PlaceApplyCardBody = {
    kind: 'place_apply',
    as: args.as,
    origin: review.place.origin,
    place: review.place.path,
    files: files.map(cardFile),
    ...(commit ? { commit } : {}),
    ...(message !== undefined ? { message } : {}),
    fingerprint: fingerprintOf(files, args.as, message),
  };
  return {
    kind: 'place_apply',
    tool: 'propose_apply',
    body,
    request: { reviewId: review.reviewId, as: args.as, paths, ...(message !== undefined ? { message } : {}) },
    args: { ...args },
  };
}

function nothingWhy(files: readonly PlaceFileChange[]): string {
  if (files.length === 0) return 'the place has no change';
  if (files.every((f) => f.status === 'applied')) return "the user's folder already has every file named";
  return "every file named conflicts with a change the user made, or is already in the user's folder";
}

/** A path relative to the place, as the review spells it: no root, no `.` or `..`, forward slashes. */
function checkRelative(p: string): void {
  const segments = p.split('/');
  if (p.startsWith('/') || p.includes('\\') || p.includes('\0') || segments.some((s) => s === '..' || s === '.')) {
    throw new ToolError(
      `propose_apply: ${JSON.stringify(p)} is not a path inside the workspace: name it relative to the workspace, with forward slashes and no "." or ".." parts`,
    );
  }
}

/** The review's files the call names (all of them when it names none); a path the review does not list is an error. */
function chosenFiles(review: PlaceReview, paths: readonly string[] | undefined): PlaceFileChange[] {
  if (!paths) return review.files;
  const byPath = new Map(review.files.map((f) => [f.path, f]));
  const unknown = paths.filter((p) => !byPath.has(p.replace(/\/+$/, '')));
  if (unknown.length > 0) {
    const named = unknown
      .slice(0, 5)
      .map((p) => JSON.stringify(p))
      .join(', ');
    throw new ToolError(
      `propose_apply: not changed in the place: ${named}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}. Name only files you changed (added, modified or deleted)${
        review.more > 0 ? `; the review lists the first ${review.files.length} changed files, so apply those first` : ''
      }.`,
    );
  }
  return paths.map((p) => byPath.get(p.replace(/\/+$/, ''))!);
}

function commitOf(review: PlaceReview, as: 'files' | 'commit'): PlaceApplyCardBody['commit'] | undefined {
  if (as !== 'commit') return undefined;
  if (review.commit && 'branch' in review.commit) return { branch: review.commit.branch, argv: review.commit.argv };
  const why = review.commit && 'why' in review.commit ? review.commit.why : 'no commit can be made from this place';
  throw new ToolError(`propose_apply: as "commit" is not possible here (${why}); propose as "files" instead`);
}

function cardFile(f: PlaceFileChange): PlaceApplyCardFile {
  return { path: f.path, change: f.change, status: f.status };
}

/** What the card showed, as one hash: a fresh review that reads otherwise drops the answer. */
function fingerprintOf(files: readonly PlaceFileChange[], as: string, message: string | undefined): string {
  const shown = files.map((f) => [f.path, f.change, f.status, f.originDigest, f.bytes, f.diff]);
  return createHash('sha256')
    .update(JSON.stringify([as, message ?? null, shown]))
    .digest('hex');
}

async function executeProposal(place: ProposePlace, plan: Plan): Promise<ToolResult> {
  if (plan.kind !== 'place_apply') throw new Error(`propose_apply cannot execute a ${plan.kind} plan`);
  const outcome = await place.applyProposed(plan.request);
  const details = {
    applied: outcome.applied,
    conflicts: outcome.conflicts,
    failed: outcome.failed,
    ...(outcome.commit ? { commit: outcome.commit } : {}),
  };
  const words = outcomeWords(plan, outcome);
  // Nothing landed though something was meant to: an error, so the model does not take it as done.
  const landed = outcome.applied.length > 0 || (outcome.conflicts.length === 0 && outcome.failed.length === 0);
  return landed ? { ok: true, output: words, details } : { ok: false, error: words, details };
}

/** The result in words: what was applied, what conflicted, what failed, the commit. */
function outcomeWords(plan: PlaceApplyPlan, outcome: PlaceApplyReply): string {
  const lines = [`Applied into ${plan.body.origin}: ${listed(outcome.applied)}.`];
  if (outcome.conflicts.length > 0) {
    lines.push(`Not applied, the user changed them too (conflicts): ${listed(outcome.conflicts)}.`);
  }
  for (const f of outcome.failed) lines.push(`Failed: ${f.path}: ${f.reason}`);
  if (plan.request.as === 'commit') {
    lines.push(
      outcome.commit
        ? `Committed as ${outcome.commit} on ${plan.body.commit?.branch ?? 'the branch'}.`
        : 'No commit was made.',
    );
  }
  return lines.join('\n');
}

function listed(paths: readonly string[]): string {
  return paths.length === 0 ? 'nothing' : paths.join(', ');
}
