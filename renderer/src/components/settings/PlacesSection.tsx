/**
 * Settings → Places (SPEC §15): every place of its own in the data folder, with its size on
 * disk, the folder it came from, its branch, and its session, or "session gone". A place
 * whose session is gone can be removed here, after a confirm; a live session's place goes
 * from that session's review (Keep the branch, Discard).
 */
import { useEffect, useId, useState } from 'react';
import type { PlaceListing } from '../../../../shared/places';
import { useCall } from '../../api/use-call';
import { byteSize } from '../cards/byte-size';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';
import '../places/places.css';

export function PlacesSection() {
  const headingId = useId();
  const listing = useCall((api) => api['places.list']({}));
  const { run: refresh } = listing;
  useEffect(() => void refresh(), [refresh]);
  const places = listing.data?.places;
  return (
    <section className="places-settings" aria-labelledby={headingId}>
      <h3 id={headingId}>Places</h3>
      <p className="field-help">
        A session that works in a place of its own keeps it in Gatehouse’s data folder until you discard it.
      </p>
      {listing.error !== null && (
        <p className="settings-note" role="note">
          <VisibleText className="visible-prose" text={`Places: ${listing.error}`} options={PROSE_OPTIONS} />
        </p>
      )}
      {places === undefined && listing.error === null && <p className="settings-note">Reading the places…</p>}
      {places !== undefined && places.length === 0 && <p className="settings-note">No places.</p>}
      {places !== undefined && places.length > 0 && (
        <>
          <p className="settings-note">
            {places.length === 1 ? '1 place' : `${places.length} places`}, {byteSize(total(places))} on disk.
          </p>
          <ul className="stack-list place-list">
            {places.map((place) => (
              <PlaceRow key={place.path} place={place} onRemoved={() => void refresh()} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function total(places: readonly PlaceListing[]): number {
  return places.reduce((sum, p) => sum + p.bytes, 0);
}

function PlaceRow({ place, onRemoved }: { place: PlaceListing; onRemoved: () => void }) {
  const nameId = useId();
  const [confirming, setConfirming] = useState(false);
  const removing = useCall((api) => api['places.remove']({ path: place.path }));
  const orphan = place.sessionId === null;
  const remove = async () => {
    const reply = await removing.run();
    if (reply.ok) onRemoved();
  };
  return (
    <li className={`place-item${orphan ? ' place-item-orphan' : ''}`} aria-labelledby={nameId}>
      <div className="place-item-head">
        <h4 id={nameId} className="place-item-name">
          {orphan ? 'Session gone' : (place.title ?? 'A session')}
        </h4>
        <span className="place-item-size">{byteSize(place.bytes)}</span>
      </div>
      <p className="place-item-line">
        {place.kind === 'worktree' ? (
          <>
            Branch <VisibleText className="place-branch" text={place.branch ?? '(none)'} options={PROSE_OPTIONS} />{' '}
            of{' '}
          </>
        ) : (
          'A copy of '
        )}
        <VisibleText className="place-origin" text={place.origin} options={PROSE_OPTIONS} />
      </p>
      <p className="place-item-line field-help">
        In <VisibleText className="place-origin" text={place.path} options={PROSE_OPTIONS} />
      </p>
      {!orphan && <p className="field-help">Discard it from its session’s Review.</p>}
      {orphan && !confirming && (
        <div>
          <button type="button" aria-describedby={nameId} onClick={() => setConfirming(true)}>
            Remove…
          </button>
        </div>
      )}
      {orphan && confirming && (
        <div className="place-item-confirm" role="group" aria-label="Remove this place?">
          <p>
            Deletes this place’s folder, with every change in it that was never applied. Your own folder is not touched.
          </p>
          <button type="button" className="danger" disabled={removing.pending} onClick={() => void remove()}>
            Remove the place
          </button>
          <button type="button" disabled={removing.pending} onClick={() => setConfirming(false)}>
            Cancel
          </button>
          {removing.pending && <span role="status">Removing…</span>}
        </div>
      )}
      {removing.error !== null && (
        <p className="dialog-error" role="alert">
          Could not remove the place: {removing.error}
        </p>
      )}
    </li>
  );
}
