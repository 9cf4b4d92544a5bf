/**
 * Editing a write card's proposal (SPEC §13, UI.md card rule 11): the whole proposal (or the
 * person's edits a re-asked card kept) loaded into the editor, the person's text, and the
 * card's diff rebuilt from it by the core as they type.
 *
 * The rebuild is coalesced: at most one `card.preview` is on its way, and the latest text
 * waits for it and goes next, so a burst of keystrokes costs two requests, not one each,
 * and the diff always catches up with the last keystroke. There is no timer: the first
 * keystroke after a pause is sent at once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EditPreview } from '../../../../shared/card-edits';
import type { Reply } from '../../../../shared/contract';
import type { CardEvent } from '../../../../shared/reducer';
import { useCall } from '../../api/use-call';
import { cardDraft, keepCardDraft } from './card-drafts';

/**
 * How long the diff may stay behind the text before the card says it is updating: a rebuild
 * takes tens of milliseconds, and an indicator that blinked on every keystroke (with the
 * relayout it costs) would say nothing.
 */
export const LAGGING_MS = 150;

/** The write tools whose proposal is a whole file the person can edit. */
const EDITABLE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'search_replace']);

export interface PreviewOf {
  preview: EditPreview;
  /** The text this preview was built from. */
  text: string;
  /** Counts the previews received, so the edited answer re-arms on each new diff. */
  seq: number;
}

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
  /** The latest diff the core rebuilt, and the text it was built from. */
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
  const seq = useRef(0);

  const proposalCall = useCall((api) => api['card.proposal']({ id: sessionId, cardId }));
  const previewCall = useCall((api, text: string) =>
    api['card.preview']({ id: sessionId, cardId, text }).then((reply): Reply<PreviewOf> =>
      reply.ok ? { ok: true, data: { preview: reply.data, text, seq: ++seq.current } } : reply,
    ),
  );

  const inFlight = useRef(false);
  const queued = useRef<string | null>(null);
  const runPreview = previewCall.run;
  const requestPreview = useCallback(
    (next: string) => {
      if (inFlight.current) {
        queued.current = next;
        return;
      }
      inFlight.current = true;
      void runPreview(next).then(() => {
        inFlight.current = false;
        const waiting = queued.current;
        queued.current = null;
        if (waiting !== null) requestPreview(waiting);
      });
    },
    [runPreview],
  );

  const loaded = proposalCall.data;
  const proposal = loaded?.text ?? null;
  const initial = loaded ? (draft ?? loaded.edited?.text ?? loaded.text) : null;

  const runProposal = proposalCall.run;
  const startedLoading = useRef(false);
  const load = useCallback(() => {
    if (startedLoading.current) return;
    startedLoading.current = true;
    void runProposal().then((reply) => {
      if (!reply.ok) {
        startedLoading.current = false;
        return;
      }
      const start = draft ?? reply.data.edited?.text ?? reply.data.text;
      setText(start);
      if (start !== reply.data.text) requestPreview(start);
    });
  }, [runProposal, requestPreview, draft]);

  // A re-asked card with kept edits, or one the person had typed on, opens its editor at once (without taking focus).
  useEffect(() => {
    if (autoOpened) load();
  }, [autoOpened, load]);

  const openEditor = useCallback(() => {
    setOpen(true);
    load();
  }, [load]);

  const change = useCallback(
    (next: string, line?: number) => {
      keepCardDraft(cardId, next);
      setText(next);
      setFollowLine(line);
      if (next === proposal) {
        // The card's own diff is exact for the proposal; nothing to rebuild.
        queued.current = null;
        return;
      }
      requestPreview(next);
    },
    [cardId, proposal, requestPreview],
  );

  const reset = useCallback(() => {
    queued.current = null;
    if (proposal !== null) setText(proposal);
    setResets((n) => n + 1);
  }, [proposal]);

  const latest = previewCall.data ?? null;
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
    previewError: previewCall.error,
    resets,
    followLine,
    openEditor,
    change,
    reset,
  };
}
