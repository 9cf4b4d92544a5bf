/**
 * Editing a write card's proposal (SPEC §13, UI.md card rule 11): the whole proposal (or the
 * person's edits a re-asked card kept) loaded into the editor, the person's text, and the
 * card's diff rebuilt from it as they type.
 *
 * The window rebuilds the diff itself, in the keystroke's own frame, with the core's
 * algorithm and the card's other side the core sends with the proposal (`diffBase`): the
 * diff then paints with the echo of the key, not a round trip and a frame later. What it
 * cannot build goes to the core (useRebuiltDiffs).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CardEvent } from '../../../../shared/reducer';
import { useCall } from '../../api/use-call';
import { cardDraft, keepCardDraft } from './card-drafts';
import { useRebuiltDiffs, type PreviewOf } from './useRebuiltDiffs';

/**
 * How long the diff may stay behind the text before the card says it is updating: a rebuild
 * takes tens of milliseconds, and an indicator that blinked on every keystroke (with the
 * relayout it costs) would say nothing.
 */
export const LAGGING_MS = 150;

/** The write tools whose proposal is a whole file the person can edit. */
const EDITABLE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'search_replace']);

export interface CardEditing {
  /** A write card whose proposal the person may edit. */
  editable: boolean;
  /** The editor is shown (or loading). */
  open: boolean;
  /** The card re-asks after a stale answer and carries the person's edits from it. */
  kept: boolean;
  /** The editor opened by itself (kept edits, or text typed before the card was last shown): it takes no focus. */
  autoOpened: boolean;
  loading: boolean;
  loadError: string | null;
  /** The model's whole proposal, once loaded. */
  proposal: string | null;
  /** What the editor starts from: the proposal, or the kept edits. */
  initial: string | null;
  /** The person's text as it is now; null before the editor loaded. */
  text: string | null;
  /** The text differs from the proposal. */
  edited: boolean;
  /** The latest diff rebuilt (by the window or the core), and the text it was built from. */
  latest: PreviewOf | null;
  /** The latest preview is of the text as it is now. */
  current: boolean;
  /** The diff has been behind the text for LAGGING_MS with no newer rebuild arriving. */
  lagging: boolean;
  previewError: string | null;
  /** Bumped by reset: the editor replaces its text with the proposal (an undoable change). */
  resets: number;
  /** The line the person last changed, for the diff to keep in view. */
  followLine: number | undefined;
  openEditor(): void;
  change(text: string, line?: number): void;
  reset(): void;
}

export function isEditableWrite(card: CardEvent): boolean {
  return card.body.kind === 'write' && EDITABLE_TOOLS.has(card.body.tool) && card.body.uneditable === undefined;
}

/** The window's own diff, in a chunk of its own fetched when an editor opens. */
const loadQuickPreview = () => import('../../../../shared/diff/edit-preview');

export function useCardEditing(sessionId: string, card: CardEvent): CardEditing {
  const editable = isEditableWrite(card);
  const kept = editable && card.reasked?.edits !== undefined;
  const cardId = card.cardId;
  // What the person typed on this card before it was last unmounted (another tab shown).
  const [draft] = useState(() => (editable ? cardDraft(cardId) : undefined));
  const autoOpened = kept || draft !== undefined;
  const [open, setOpen] = useState(autoOpened);
  const [text, setText] = useState<string | null>(null);
  const [resets, setResets] = useState(0);
  const [followLine, setFollowLine] = useState<number | undefined>(undefined);
  const diffs = useRebuiltDiffs(sessionId, cardId);

  const proposalCall = useCall((api) => api['card.proposal']({ id: sessionId, cardId }));
  const loaded = proposalCall.data;
  const proposal = loaded?.text ?? null;
  const initial = loaded ? (draft ?? loaded.edited?.text ?? loaded.text) : null;

  const runProposal = proposalCall.run;
  const startedLoading = useRef(false);
  const { rebuild, buildWith } = diffs;
  const load = useCallback(() => {
    if (startedLoading.current) return;
    startedLoading.current = true;
    const quick = loadQuickPreview().catch(() => null);
    void Promise.all([runProposal(), quick]).then(([reply, module]) => {
      if (!reply.ok) {
        startedLoading.current = false;
        return;
      }
      const { text: proposalText, diffBase, edited } = reply.data;
      if (module && diffBase) buildWith((next) => module.quickEditPreview(diffBase, proposalText, next));
      const start = draft ?? edited?.text ?? proposalText;
      setText(start);
      if (start !== proposalText) rebuild(start);
    });
  }, [runProposal, rebuild, buildWith, draft]);

  // A re-asked card with kept edits, or one the person had typed on, opens its editor at once (without taking focus).
  useEffect(() => {
    if (autoOpened) load();
  }, [autoOpened, load]);

  const openEditor = useCallback(() => {
    setOpen(true);
    load();
  }, [load]);

  const { drop } = diffs;
  const change = useCallback(
    (next: string, line?: number) => {
      keepCardDraft(cardId, next);
      setText(next);
      setFollowLine(line);
      // The card's own diff is exact for the proposal; nothing to rebuild.
      if (next === proposal) drop();
      else rebuild(next);
    },
    [cardId, proposal, rebuild, drop],
  );

  const reset = useCallback(() => {
    drop();
    if (proposal !== null) setText(proposal);
    setResets((n) => n + 1);
  }, [proposal, drop]);

  const { latest } = diffs;
  const edited = text !== null && proposal !== null && text !== proposal;
  const current = latest !== null && latest.text === text;
  const behind = edited && !current;
  const rebuilt = latest?.seq ?? 0;
  const [laggedAt, setLaggedAt] = useState<number | null>(null);
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(() => setLaggedAt(rebuilt), LAGGING_MS);
    return () => clearTimeout(timer);
  }, [behind, rebuilt]);
  return {
    editable,
    open: editable && open,
    kept,
    autoOpened,
    loading: proposalCall.pending,
    loadError: proposalCall.error,
    proposal,
    initial,
    text,
    edited,
    latest,
    current,
    lagging: behind && laggedAt === rebuilt,
    previewError: diffs.error,
    resets,
    followLine,
    openEditor,
    change,
    reset,
  };
}
