/**
 * The diffs of the person's text on a write card, newest shown (useCardEditing). The window
 * builds one at once when it can (the quick preview, shared/diff/edit-preview.ts); else the
 * core's `card.preview` does, coalesced: at most one on its way, and the latest text waits
 * for it and goes next, so a burst of keystrokes costs two requests, not one each. Each
 * rebuild is numbered when asked for, and a diff is shown only if it was asked for after the
 * one on screen, so a slow reply from the core never replaces a newer diff built here.
 */
import { useCallback, useRef, useState } from 'react';
import type { EditPreview } from '../../../../shared/card-edits';
import { useCall } from '../../api/use-call';

export interface PreviewOf {
  preview: EditPreview;
  /** The text this preview was built from. */
  text: string;
  /** Counts the previews received, so the edited answer re-arms on each new diff. */
  seq: number;
}

/** The diff of the person's text, built in the window; null when the core must build it. */
export type QuickPreview = (text: string) => EditPreview | null;

export interface RebuiltDiffs {
  latest: PreviewOf | null;
  /** Why the core could not rebuild the diff of the latest text it was sent, if it could not. */
  error: string | null;
  /** Rebuild the diff of `text`: at once in the window when it can, else by the core. */
  rebuild(text: string): void;
  /** No rebuild is wanted any more (the text is the proposal again): a text waiting is dropped. */
  drop(): void;
  /** From now on the window builds the diffs it can with `quick`. */
  buildWith(quick: QuickPreview): void;
}

export function useRebuiltDiffs(sessionId: string, cardId: string): RebuiltDiffs {
  const [latest, setLatest] = useState<PreviewOf | null>(null);
  const [error, setError] = useState<string | null>(null);
  const quick = useRef<QuickPreview | null>(null);
  const asked = useRef(0);
  const shown = useRef(0);
  const seq = useRef(0);
  const inFlight = useRef(false);
  const queued = useRef<{ text: string; at: number } | null>(null);
  const previewCall = useCall((api, text: string) => api['card.preview']({ id: sessionId, cardId, text }));
  const runPreview = previewCall.run;

  const show = useCallback((preview: EditPreview, text: string, at: number) => {
    if (at <= shown.current) return;
    shown.current = at;
    setError(null);
    setLatest({ preview, text, seq: ++seq.current });
  }, []);

  const fromCore = useCallback(
    (text: string, at: number) => {
      if (inFlight.current) {
        queued.current = { text, at };
        return;
      }
      inFlight.current = true;
      void runPreview(text).then((reply) => {
        inFlight.current = false;
        if (reply.ok) show(reply.data, text, at);
        else if (at > shown.current) setError(reply.error);
        const waiting = queued.current;
        queued.current = null;
        if (waiting !== null) fromCore(waiting.text, waiting.at);
      });
    },
    [runPreview, show],
  );

  const rebuild = useCallback(
    (text: string) => {
      const at = ++asked.current;
      const here = quickly(quick.current, text);
      if (here === null) {
        fromCore(text, at);
        return;
      }
      queued.current = null;
      show(here, text, at);
    },
    [fromCore, show],
  );

  const drop = useCallback(() => {
    queued.current = null;
  }, []);
  const buildWith = useCallback((next: QuickPreview) => {
    quick.current = next;
  }, []);
  return { latest, error, rebuild, drop, buildWith };
}

/** The window's diff of `text`, or null (none to build with, over its budget, or it threw: the core's answer is the one that counts then). */
function quickly(quick: QuickPreview | null, text: string): EditPreview | null {
  if (quick === null) return null;
  try {
    return quick(text);
  } catch {
    return null;
  }
}
