/**
 * Builds what a card shows from a plan: the diff for a write (with the proposal's every
 * byte stored as a blob), the absolute path for an outside read, the argv for a command.
 */
import type { CardBody } from '../../../shared/cards.js';
import type { CardDiff } from '../diff/card-diff.js';
import type { DiffSides } from '../diff/unified-diff.js';
import type { Plan } from '../tools/types.js';

/** The card diff (electron/core/diff), injected so the gate can be tested with any differ. */
export type DiffFn = (sides: DiffSides) => Promise<CardDiff>;
export type PutBlob = (bytes: Buffer) => Promise<string>;

export async function cardBody(plan: Plan, diff: DiffFn, putBlob: PutBlob): Promise<CardBody> {
  switch (plan.kind) {
    case 'read':
      return { kind: 'read', tool: plan.tool, path: plan.target.real };
    case 'command':
      return {
        kind: 'command',
        tool: 'run',
        argv: [...plan.argv],
        cwd: plan.cwd,
        ...(plan.customTimeout ? { timeoutS: plan.timeoutS } : {}),
      };
    case 'write': {
      const [d, proposalBlob] = await Promise.all([
        diff({ path: plan.target.real, before: plan.before, after: plan.after }),
        putBlob(plan.after),
      ]);
      return {
        kind: 'write',
        tool: plan.tool,
        path: plan.target.real,
        inside: plan.target.inside,
        creates: plan.before === null,
        diff: d.diff,
        diffTruncated: d.truncated,
        diffBytes: d.diffBytes,
        proposalBytes: d.proposalBytes,
        beforeBytes: d.beforeBytes,
        digest: plan.digest,
        proposalBlob,
        ...(d.note ? { diffNote: d.note } : {}),
      };
    }
  }
}

/**
 * Whether a fresh plan still matches what the card showed. A write must find the same
 * bytes at the same real path; a read or command must land at the same real place.
 */
export function staleReason(body: CardBody, fresh: Plan): string | null {
  if (body.kind === 'write' && fresh.kind === 'write') {
    if (fresh.target.real !== body.path) return `the path now lands at ${fresh.target.real} instead of ${body.path}`;
    if (fresh.digest !== body.digest) {
      if (fresh.digest === 'absent') return 'the file was deleted after the card went up';
      if (body.digest === 'absent') return 'the file was created after the card went up';
      return 'the file changed on disk after the card went up';
    }
    return null;
  }
  if (body.kind === 'read' && fresh.kind === 'read') {
    return fresh.target.real === body.path
      ? null
      : `the path now lands at ${fresh.target.real} instead of ${body.path}`;
  }
  if (body.kind === 'command' && fresh.kind === 'command') {
    return fresh.cwd === body.cwd ? null : `the working folder now lands at ${fresh.cwd} instead of ${body.cwd}`;
  }
  return 'the call no longer plans the same kind of action';
}
