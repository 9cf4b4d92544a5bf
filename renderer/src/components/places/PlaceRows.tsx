/**
 * A session's place in its transcript (SPEC §15), from the log: where the place was made or
 * discarded, a quiet divider; an apply, one row that says what it set out to write and,
 * once it ended, what it did. The review screen is where a person acts; these only record.
 */
import type { TranscriptItem } from '../../../../shared/reducer';
import { filesWord } from '../changes/change-words';
import { outcomeLines, placeLine, placeName } from './place-words';
import './places.css';

type PlaceItem = Extract<TranscriptItem, { kind: 'place' }>;
type ApplyItem = Extract<TranscriptItem, { kind: 'place_apply' }>;

export function PlaceDivider({ item }: { item: PlaceItem }) {
  const { place } = item;
  const words =
    place.state === 'active'
      ? `Made this session’s place of its own: ${placeLine(place)}.`
      : `The place (${placeName(place)}) was discarded.`;
  return (
    <div className="context-divider place-divider">
      <p className="context-divider-text">{words}</p>
    </div>
  );
}

export function PlaceApplyRow({ item }: { item: ApplyItem }) {
  const asWords = item.as === 'commit' ? ' as a commit' : '';
  const head = item.outcome
    ? `Applied from the place${asWords}:`
    : `Applying ${filesWord(item.files.length)} from the place to your folder${asWords}…`;
  return (
    <div className="event-row place-row">
      <p className="event-title">{head}</p>
      {item.outcome && (
        <ul>
          {outcomeLines(item.outcome).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
