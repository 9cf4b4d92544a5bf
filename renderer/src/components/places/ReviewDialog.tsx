/**
 * The review screen of a session's place of its own (SPEC §15): the place's whole change
 * against its base, file by file, each checked against the person's folder now (ready,
 * conflict, already applied), with its side-by-side diff; ticks choose what to apply. Apply
 * to my folder, Apply as a commit (after a card with the git commands), Keep the branch and
 * Discard (after a card each). What a step did is said after it, and an apply is followed
 * by a fresh review, so the list is never older than the folder.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PlaceApplyReply, PlaceReview, SessionPlace } from '../../../../shared/places';
import { useCall, type Call } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { filesWord } from '../changes/change-words';
import { usePathSet } from '../changes/usePathSet';
import { byteSize } from '../cards/byte-size';
import { Dialog } from '../frame/Dialog';
import { useFocusKept } from '../frame/useFocusKept';
import { ApplyResult, type StepState } from './ApplyResult';
import { placeLine, shortCommit } from './place-words';
import { ReviewActions } from './ReviewActions';
import { CommitCard, DiscardCard, KeepBranchCard, type ConfirmKind } from './ReviewConfirm';
import { ReviewFileItem } from './ReviewFileItem';
import { usePlaceOf } from './usePlaceOf';
import '../changes/changes.css';
import './places.css';

/** Up to this many files, every diff shows open. */
const OPEN_UP_TO = 3;

interface ApplyAsk {
  reviewId: string;
  as: 'files' | 'commit';
  paths: string[];
  message?: string;
}

export function ReviewDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const title = useAppStore((s) => s.sessions[sessionId]?.summary.title ?? '');
  const place = usePlaceOf(sessionId);
  const review = useCall((api) => api['session.review']({ id: sessionId }));
  const apply = useCall((api, ask: ApplyAsk) => api['session.apply']({ id: sessionId, ...ask }));
  const discard = useCall((api, keepBranch: boolean) => api['session.discardPlace']({ id: sessionId, keepBranch }));
  const [last, setLast] = useState<'apply' | 'discard' | null>(null);
  const head = useRef<HTMLParagraphElement>(null);
  // Here, not in the body: Discard takes the whole body away, focused button and all.
  useFocusKept(head);
  const { run: reread } = review;
  useEffect(() => void reread(), [reread]);

  const applyNow = async (ask: ApplyAsk) => {
    setLast('apply');
    await apply.run(ask);
    // Whatever came of it (some files may have gone in before a failure), the list says what is now.
    void reread();
  };
  const remove = async (keepBranch: boolean) => {
    setLast('discard');
    await discard.run(keepBranch);
  };

  const gone = discard.data !== undefined || place?.state === 'discarded';
  const step = stepOf(last, apply, discard);
  const origin = review.data?.place.origin ?? place?.origin ?? '';

  return (
    <Dialog title="Review the place’s changes" className="changes-dialog review-dialog" onClose={onClose}>
      <p className="changes-head" tabIndex={-1} data-autofocus ref={head}>
        {gone
          ? 'This session’s place is removed.'
          : review.data
            ? headWords(review.data)
            : review.error === null
              ? 'Reading the place’s changes…'
              : ''}
      </p>
      {review.data && !gone && review.data.files.length > 0 && (
        <p className="field-help review-counts">{countWords(review.data)}</p>
      )}
      {review.error !== null && !gone && (
        <p className="dialog-error" role="alert">
          Could not read the place’s changes: {review.error}
        </p>
      )}
      {/* Once the place is gone there is no body to hold what the last step did. */}
      {(gone || !review.data) && <ApplyResult step={step} origin={origin} />}
      {review.data && !gone && (
        <ReviewBody
          key={review.data.reviewId}
          review={review.data}
          title={title}
          busy={apply.pending || discard.pending || review.pending}
          result={<ApplyResult step={step} origin={origin} />}
          onApply={(ask) => void applyNow(ask)}
          onRemove={(keepBranch) => void remove(keepBranch)}
        />
      )}
    </Dialog>
  );
}

function stepOf(
  last: 'apply' | 'discard' | null,
  apply: Call<[ApplyAsk], PlaceApplyReply>,
  discard: Call<[boolean], { place: SessionPlace }>,
): StepState | null {
  if (last === 'apply') {
    const ask = apply.args?.[0];
    return {
      kind: 'apply',
      pending: apply.pending,
      error: apply.error,
      ...(ask ? { asked: { files: ask.paths.length, as: ask.as } } : {}),
      ...(apply.data && !apply.pending && apply.error === null ? { applied: apply.data } : {}),
    };
  }
  if (last === 'discard') {
    const done = discard.data && !discard.pending && discard.error === null;
    return {
      kind: 'discard',
      pending: discard.pending,
      error: discard.error,
      ...(done ? { discarded: { place: discard.data!.place, keepBranch: discard.args?.[0] ?? false } } : {}),
    };
  }
  return null;
}

function headWords(review: PlaceReview): string {
  const { place, files } = review;
  const base = place.baseCommit ? `, since its base ${shortCommit(place.baseCommit)}` : ', since it was made';
  const changed = files.length === 0 ? 'no files' : filesWord(files.length + review.more);
  return `The session changed ${changed} in ${placeLine(place)}${base}.`;
}

/** "2 ready to apply, 1 in conflict with your folder. The place takes 3.1 MiB on disk." */
function countWords(review: PlaceReview): string {
  const count = (status: string) => review.files.filter((f) => f.status === status).length;
  const parts = [
    ...(count('ready') > 0 ? [`${count('ready')} ready to apply`] : ['none left to apply']),
    ...(count('conflict') > 0 ? [`${count('conflict')} in conflict with your folder`] : []),
    ...(count('applied') > 0 ? [`${count('applied')} already in your folder`] : []),
  ];
  const words = parts.join(', ');
  return `${words[0]!.toUpperCase()}${words.slice(1)}. The place takes ${byteSize(review.bytes)} on disk.`;
}

interface BodyProps {
  review: PlaceReview;
  title: string;
  busy: boolean;
  /** What the last step did, said under the buttons that did it. */
  result: ReactNode;
  onApply: (ask: ApplyAsk) => void;
  onRemove: (keepBranch: boolean) => void;
}

function ReviewBody({ review, title, busy, result, onApply, onRemove }: BodyProps) {
  const ready = review.files.filter((f) => f.status === 'ready').map((f) => f.path);
  const ticked = usePathSet(() => ready);
  const open = usePathSet(() => (review.files.length <= OPEN_UP_TO ? review.files.map((f) => f.path) : []));
  const [confirm, setConfirm] = useState<ConfirmKind | null>(null);
  const paths = ready.filter((p) => ticked.has(p));
  const { reviewId } = review;
  const cancel = () => setConfirm(null);

  return (
    <>
      <ReviewActions
        review={review}
        ready={ready.length}
        ticked={paths.length}
        busy={busy || confirm !== null}
        onApply={() => onApply({ reviewId, as: 'files', paths })}
        onConfirm={setConfirm}
      />
      {confirm === 'commit' && review.commit !== null && 'argv' in review.commit && (
        <CommitCard
          commit={review.commit}
          paths={paths}
          defaultMessage={title.trim() || 'Changes made in a Gatehouse session'}
          busy={busy}
          onCancel={cancel}
          onConfirm={(message) => {
            setConfirm(null);
            onApply({ reviewId, as: 'commit', paths, message });
          }}
        />
      )}
      {confirm === 'keep' && (
        <KeepBranchCard review={review} busy={busy} onCancel={cancel} onConfirm={() => onRemove(true)} />
      )}
      {confirm === 'discard' && (
        <DiscardCard review={review} busy={busy} onCancel={cancel} onConfirm={() => onRemove(false)} />
      )}
      {result}
      <ul className="changes-files review-files" aria-label="Files the session changed">
        {review.files.map((file) => (
          <ReviewFileItem
            key={file.path}
            file={file}
            diffKey={`place:${reviewId}:${file.path}`}
            open={open.has(file.path)}
            onToggle={() => open.set(file.path, !open.has(file.path))}
            ticked={ticked.has(file.path)}
            onTick={(on) => ticked.set(file.path, on)}
            busy={busy}
          />
        ))}
      </ul>
      {review.more > 0 && (
        <p className="changes-note">
          {filesWord(review.more)} more past the review’s limit: not listed here, and not applied by this review.
        </p>
      )}
    </>
  );
}
