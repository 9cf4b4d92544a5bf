/**
 * An external agent's plan for the turn (ACP `plan`) as a checklist: each step's words, its
 * state as a mark and in words (not colour alone), and a high priority said. The agent
 * sends the whole list on every change, so the row shows the latest.
 */
import type { TranscriptItem } from '../../../../shared/reducer';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { VisibleText } from '../cards/VisibleText';

type PlanItem = Extract<TranscriptItem, { kind: 'plan' }>;
type Status = PlanItem['entries'][number]['status'];

const MARKS: Record<Status, string> = { pending: '☐', in_progress: '◐', completed: '☑' };
const WORDS: Record<Status, string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' };

export function PlanRow({ item }: { item: PlanItem }) {
  const done = item.entries.filter((e) => e.status === 'completed').length;
  return (
    <div className="event-row plan-row">
      <p className="event-title">
        Plan · {done} of {item.entries.length} done
      </p>
      <ul className="plan-list" aria-label="Plan">
        {item.entries.map((entry, i) => (
          <li key={i} className={`plan-entry plan-entry-${entry.status}`}>
            <span aria-hidden="true" className="plan-mark">
              {MARKS[entry.status]}
            </span>{' '}
            <VisibleText className="visible-prose" text={entry.content} options={PROSE_OPTIONS} />{' '}
            <span className="plan-status">
              ({WORDS[entry.status]}
              {entry.priority === 'high' ? ', high priority' : ''})
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
