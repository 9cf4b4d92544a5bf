/**
 * Invariants 2 and 3: every change to the tree (outside included) is a write a person
 * allowed, landing on the path its card showed, over the bytes its digest named, with
 * exactly the proposal's bytes, or, allowed with the person's edits (SPEC §13), exactly
 * the bytes they sent, never the proposal's; and every command that started (a line in a marker file,
 * holding its real working folder) had a card with that argv and folder allowed, or a
 * grant of this session.
 */
import path from 'node:path';
import type { Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import type { CardEvent, ConsentLedger } from './consent-ledger.js';
import { markerArgv } from './history-arbitrary.js';
import { referenceResolve, within } from './reference-path.js';
import { changedPaths, fileBytes, type Entry, type Tree } from './tree.js';
import { digestOf, expectedWrite } from './write-reference.js';

const WRITE_TOOLS = ['write_file', 'search_replace'];
const NEW_FILE_MODE = 0o644;

export interface EffectInput {
  root: string;
  before: Tree;
  after: Tree;
  fresh: readonly SessionEvent[];
  ledger: ConsentLedger;
  /** The session's grants (the model's) when the step began. */
  grants: readonly Grant[];
  /** Cards whose allow was logged this step and not dropped as stale. */
  allowed: CardEvent[];
  blob: (id: string) => Promise<Buffer>;
}

export interface Landing {
  target: string;
  bytes: Buffer;
  via: string;
  /** Allowed with the person's edits: the model's proposal, which must not land in their place. */
  proposal?: Buffer;
}

/** The writes the step may have landed for one session: its allowed cards and its grants. */
export async function landingsOf(input: EffectInput, problems: string[]): Promise<Landing[]> {
  return [...(await cardLandings(input, problems)), ...(await grantLandings(input))];
}

/**
 * The empty folders the sandbox makes at a workspace's root as read-only mount points
 * (SPEC §9): `.gatehouse`, `.claude`, and an empty `.git` in a workspace that is not a
 * repository. Each goes again when the last confined process there ends (a command, or
 * a workspace MCP server when it stops). Nothing is ever in them.
 */
const MOUNT_POINTS = new Set(['.gatehouse', '.claude', '.git']);

function sandboxMountPoint(p: string, before: Tree, after: Tree): boolean {
  if (!MOUNT_POINTS.has(path.basename(p))) return false;
  const emptyIn = (tree: Tree) => ![...tree.keys()].some((q) => q.startsWith(`${p}/`));
  const made = !before.has(p) && after.get(p)?.type === 'dir' && emptyIn(after);
  const gone = before.get(p)?.type === 'dir' && emptyIn(before) && !after.has(p);
  return made || gone;
}

/** Every change between the trees must be one of the landings, exactly, or a folder made for one. */
export function writesConsented(before: Tree, after: Tree, landings: Landing[]): string[] {
  const problems: string[] = [];
  for (const p of changedPaths(before, after)) {
    const was = before.get(p);
    const now = after.get(p);
    if (landings.some((l) => l.target === p && landedExactly(l, was, now))) continue;
    if (sandboxMountPoint(p, before, after)) continue;
    const overruled = landings.find(
      (l) => l.target === p && l.proposal && now?.type === 'file' && now.bytes.equals(l.proposal),
    );
    if (overruled && !overruled.bytes.equals(overruled.proposal!)) {
      problems.push(`inv2: the model's proposal landed at ${p}, though the person allowed ${overruled.via}`);
      continue;
    }
    if (was === undefined && now?.type === 'dir' && landings.some((l) => within(p, l.target))) continue;
    problems.push(`inv2: unexplained change at ${p}: ${describe(was)} -> ${describe(now)}`);
  }
  return problems;
}

function landedExactly(l: Landing, was: Entry | undefined, now: Entry | undefined): boolean {
  if (now?.type !== 'file' || !now.bytes.equals(l.bytes)) return false;
  return now.mode === (was?.type === 'file' ? was.mode : NEW_FILE_MODE);
}

async function cardLandings(input: EffectInput, problems: string[]): Promise<Landing[]> {
  const out: Landing[] = [];
  for (const card of input.allowed) {
    if (card.body.kind !== 'write') continue;
    const { path: target, digest, proposalBlob } = card.body;
    const bytes = await input.blob(proposalBlob);
    const before = fileBytes(input.before, target);
    const changed = changedPaths(input.before, input.after).includes(target);
    if (changed && digestOf(before) !== digest) {
      problems.push(`inv2: card ${card.cardId} allowed a write over digest ${digest}, but ${target} held other bytes`);
      continue;
    }
    const call = input.ledger.calls.get(card.toolCallId);
    const expected = call ? expectedWrite(call.tool, call.args, before) : null;
    if (changed && (expected === null || !expected.equals(bytes))) {
      problems.push(`inv2: card ${card.cardId}'s proposal is not what its call asked for at ${target}`);
    }
    const edits = await personsEdits(input, card.cardId);
    if (edits === undefined) out.push({ target, bytes, via: `card ${card.cardId}` });
    else out.push({ target, bytes: edits, via: `card ${card.cardId} with their edits`, proposal: bytes });
  }
  return out;
}

/**
 * The bytes the person sent with the allow this step logged for the card, when it carried
 * edits: what the model of the tree says lands, in place of the proposal. Taken from what
 * the person did, not from the app's blob (which edit-check.ts holds to the same bytes).
 */
async function personsEdits(input: EffectInput, cardId: string): Promise<Buffer | undefined> {
  const logged = input.fresh.find((e) => e.type === 'card_answer' && e.cardId === cardId);
  if (logged?.type !== 'card_answer' || !logged.edited) return undefined;
  return input.ledger.approvedEdits(cardId) ?? (await input.blob(logged.edited.blob));
}

/** Writes that went through on a grant: no card for the call, and the grant held before the step. */
async function grantLandings(input: EffectInput): Promise<Landing[]> {
  const out: Landing[] = [];
  const carded = new Set([...input.ledger.cards.values()].map((c) => c.toolCallId));
  for (const e of input.fresh) {
    if (e.type !== 'tool_call' || !WRITE_TOOLS.includes(e.tool) || carded.has(e.toolCallId)) continue;
    const target = (e.args as { path?: unknown } | undefined)?.path;
    if (typeof target !== 'string') continue;
    const ref = await referenceResolve(input.root, target);
    if (!ref.ok || !input.grants.some((g) => g.kind === 'write' && g.path === ref.real)) continue;
    const bytes = expectedWrite(e.tool, e.args, fileBytes(input.before, ref.real));
    if (bytes) out.push({ target: ref.real, bytes, via: `grant for ${e.toolCallId}` });
  }
  return out;
}

function describe(e: Entry | undefined): string {
  if (e === undefined) return 'nothing';
  if (e.type === 'file') return `file(${e.bytes.length} bytes, mode ${e.mode.toString(8)})`;
  if (e.type === 'link') return `link(${e.target})`;
  return e.type;
}

/** The command a marker file belongs to, with real paths. */
export function markerCommand(name: string, markers: string): string[] | null {
  const k = /^m(\d+)$/.exec(name);
  return k ? markerArgv(Number(k[1])).map((a) => a.replace('<mk>', markers)) : null;
}

export function commandsConsented(
  beforeMarks: Map<string, string[]>,
  afterMarks: Map<string, string[]>,
  markers: string,
  allowed: CardEvent[] | null,
  grants: readonly Grant[],
): string[] {
  const problems: string[] = [];
  const cards = (allowed ?? []).filter((c) => c.body.kind === 'command');
  for (const [name, lines] of afterMarks) {
    const prev = beforeMarks.get(name) ?? [];
    if (prev.some((l, i) => lines[i] !== l)) problems.push(`inv3: marker ${name} lost lines`);
    const argv = markerCommand(name, markers);
    for (const cwd of lines.slice(prev.length)) {
      const i = cards.findIndex((c) => c.body.kind === 'command' && sameArgv(c.body.argv, argv) && c.body.cwd === cwd);
      if (i >= 0) {
        cards.splice(i, 1);
        continue;
      }
      const granted = grants.some((g) => g.kind === 'command' && sameArgv(g.argv, argv) && g.cwd === cwd);
      if (!granted) problems.push(`inv3: ${JSON.stringify(argv)} started in ${cwd} with no card allowed and no grant`);
    }
  }
  return problems;
}

function sameArgv(a: readonly string[], b: readonly string[] | null): boolean {
  return b !== null && a.length === b.length && a.every((s, i) => s === b[i]);
}
