/**
 * Builds what a card shows from a plan: the diff for a write (with the proposal's every
 * byte stored as a blob), the absolute path for an outside read, the argv for a command.
 */
import type { CardBody, CommandSandbox } from '../../../shared/cards.js';
import type { CardDiff } from '../../../shared/diff/card-diff.js';
import type { DiffSides } from '../diff/bytes-diff.js';
import type { Plan } from '../tools/tool-def.js';
import { whyProposalUneditable } from './person-edits.js';

/** The card diff (electron/core/diff), injected so the gate can be tested with any differ. */
export type DiffFn = (sides: DiffSides) => Promise<CardDiff>;
export type PutBlob = (bytes: Buffer) => Promise<string>;

export async function cardBody(plan: Plan, diff: DiffFn, putBlob: PutBlob): Promise<CardBody> {
  switch (plan.kind) {
    case 'read':
      return { kind: 'read', tool: plan.tool, path: plan.target.real };
    case 'mcp':
    case 'mcp_server':
    case 'agent_start':
    case 'agent_ask':
    case 'place_apply':
      return plan.body;
    case 'command':
      return commandBody(plan);
    case 'write':
      return writeBody(plan, diff, putBlob);
  }
}

function commandBody(plan: Extract<Plan, { kind: 'command' }>): CardBody {
  return {
    kind: 'command',
    tool: 'run',
    argv: [...plan.argv],
    cwd: plan.cwd,
    ...(plan.customTimeout ? { timeoutS: plan.timeoutS } : {}),
    sandbox: plan.sandbox,
    ...(plan.network === true ? { network: true as const } : {}),
    ...(Array.isArray(plan.network) ? { network: [...plan.network] } : {}),
    ...(plan.unconfined ? { unconfined: true as const } : {}),
    ...(plan.git ? { git: true as const } : {}),
  };
}

/** A write's diff, with the proposal's every byte stored as a blob the card names. */
async function writeBody(plan: Extract<Plan, { kind: 'write' }>, diff: DiffFn, putBlob: PutBlob): Promise<CardBody> {
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
    ...withReason(whyProposalUneditable(plan.after)),
  };
}

function withReason(uneditable: string | null): { uneditable?: string } {
  return uneditable === null ? {} : { uneditable };
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
  if ((body.kind === 'mcp' && fresh.kind === 'mcp') || (body.kind === 'mcp_server' && fresh.kind === 'mcp_server')) {
    return fresh.body.fingerprint === body.fingerprint ? null : mcpChange(body.kind);
  }
  if (body.kind === 'agent_start' && fresh.kind === 'agent_start') {
    return fresh.body.fingerprint === body.fingerprint ? null : "the agent's launch changed after the card went up";
  }
  // The agent's request is its words: planned again they are the same words.
  if (body.kind === 'agent_ask' && fresh.kind === 'agent_ask') return null;
  if (body.kind === 'place_apply' && fresh.kind === 'place_apply') {
    return fresh.body.fingerprint === body.fingerprint
      ? null
      : "the place's change, or your folder, changed after the card went up";
  }
  if (body.kind === 'command' && fresh.kind === 'command') {
    if (fresh.cwd !== body.cwd) return `the working folder now lands at ${fresh.cwd} instead of ${body.cwd}`;
    return body.sandbox ? sandboxChange(body.sandbox, fresh.sandbox) : null;
  }
  return 'the call no longer plans the same kind of action';
}

function mcpChange(kind: 'mcp' | 'mcp_server'): string {
  return kind === 'mcp'
    ? 'the tool (or its server) changed after the card went up'
    : "the server's config changed after the card went up";
}

/**
 * Whether the command would now run under less than its card said: unconfined where it
 * said confined, with the network, or writing elsewhere. A place hidden since is not a
 * change the person has to see again.
 */
function sandboxChange(shown: CommandSandbox, now: CommandSandbox): string | null {
  if (shown.confined !== now.confined) {
    return now.confined ? 'the command can now be confined' : `the command can no longer be confined (${now.reason})`;
  }
  if (!shown.confined || !now.confined) return null;
  if (JSON.stringify(shown.network) !== JSON.stringify(now.network)) return "the command's network access changed";
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((p, i) => p === b[i]);
  if (!same(shown.writable, now.writable) || !same(shown.readOnly, now.readOnly)) {
    return 'where the command may write changed';
  }
  // A place shown since (added in Settings, or installed) is more than the card said.
  if (!(now.shown ?? []).every((p) => (shown.shown ?? []).includes(p))) {
    return 'what the command can see of your home folder changed';
  }
  return null;
}
