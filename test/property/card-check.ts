/**
 * A card tells the truth about its call: the real path the reference resolves the
 * call's path to (outside, for a read), the digest of the bytes there now, a proposal
 * that is exactly what the call asks for, the argv and real working folder of a command.
 * An inside read never gets a card.
 */
import type { Tree } from './tree.js';
import { fileBytes } from './tree.js';
import type { CardEvent, ConsentLedger } from './consent-ledger.js';
import { referenceResolve } from './reference-path.js';
import { digestOf, expectedWrite } from './write-reference.js';

export async function cardTruthful(
  root: string,
  card: CardEvent,
  ledger: ConsentLedger,
  trees: Tree[],
  blob: (id: string) => Promise<Buffer>,
): Promise<string[]> {
  const call = ledger.calls.get(card.toolCallId);
  if (!call) return [];
  const args = (call.args ?? {}) as { path?: string; cwd?: string; argv?: string[] };
  const body = card.body;
  const where = `inv-card: card ${card.cardId} (${call.tool})`;
  if (body.kind === 'command') {
    const ref = await referenceResolve(root, args.cwd ?? '.');
    const problems: string[] = [];
    if (JSON.stringify(body.argv) !== JSON.stringify(args.argv)) problems.push(`${where} shows another argv`);
    if (!ref.ok || !ref.inside || ref.real !== body.cwd) problems.push(`${where} shows cwd ${body.cwd}`);
    return problems;
  }
  const ref = await referenceResolve(root, args.path ?? '.');
  if (!ref.ok || ref.real !== body.path) {
    return [`${where} names ${body.path}, but the call's path resolves to ${ref.ok ? ref.real : ref.why}`];
  }
  if (body.kind === 'read') {
    if (ref.inside) return [`${where} asks about a read inside the workspace`];
    return body.tool === call.tool ? [] : [`${where} names tool ${body.tool}`];
  }
  // The card went up during the step: before its own write landed (an answer can follow at once), or after.
  const bytes = trees.map((t) => fileBytes(t, body.path)).find((b) => digestOf(b) === body.digest);
  if (bytes === undefined) return [`${where} carries digest ${body.digest} for other bytes`];
  const expected = expectedWrite(call.tool, call.args, bytes);
  const proposal = await blob(body.proposalBlob);
  if (expected === null || !expected.equals(proposal)) return [`${where}'s proposal is not what the call asks for`];
  return [];
}
