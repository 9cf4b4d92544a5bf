/**
 * The session's header line when it works in a place of its own (SPEC §15): which place
 * (its branch, or a copy, and the folder it came from), and Review, which opens the place's
 * whole change to apply or discard. A discarded place says so, and offers nothing.
 */
import { useAppStore } from '../../store/app-store';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { modKeyName } from '../frame/mod-key';
import { placeName } from './place-words';
import { usePlaceOf } from './usePlaceOf';
import './places.css';

export function PlaceBar({ sessionId }: { sessionId: string }) {
  const place = usePlaceOf(sessionId);
  const openDialog = useAppStore((s) => s.openDialog);
  if (!place) return null;
  const mod = modKeyName();
  if (place.state === 'discarded') {
    return (
      <div className="place-bar place-bar-discarded" role="note">
        <p>
          Its place of its own ({placeName(place)}) was discarded: this session has no folder to work in now. Your
          folder keeps whatever you applied.
        </p>
      </div>
    );
  }
  return (
    <div className="place-bar" role="note" aria-label="Place of its own">
      <p className="place-bar-words">
        <span className="place-mark" aria-hidden="true">
          ⎇
        </span>{' '}
        Works in a place of its own:{' '}
        {place.kind === 'worktree' ? (
          <>
            branch <VisibleText className="place-branch" text={placeName(place)} options={PROSE_OPTIONS} />, a worktree
            of <VisibleText className="place-origin" text={place.origin} options={PROSE_OPTIONS} />
          </>
        ) : (
          <>
            a copy of <VisibleText className="place-origin" text={place.origin} options={PROSE_OPTIONS} />
          </>
        )}
        . Nothing reaches your folder until you apply it.
      </p>
      <button
        type="button"
        className="place-review-button"
        aria-keyshortcuts={mod === 'Cmd' ? 'Meta+Shift+G' : 'Control+Shift+G'}
        title={`Review and apply the session’s changes (${mod}+Shift+G)`}
        onClick={() => openDialog('review')}
      >
        Review…
      </button>
    </div>
  );
}
