/**
 * A turn's end: how it ended, what its model calls used and cost, and, when it changed
 * files, the button that opens its Changes (Revert, Undo turn, Redo).
 */
import type { TranscriptItem, UsageTotals } from '../../../../shared/reducer';
import { ChangesButton } from '../changes/ChangesButton';
import { turnUsageWords } from '../context/usage-words';

type TurnEnd = Extract<TranscriptItem, { kind: 'turn_end' }>;

const TURN_END_WORDS = {
  finished: 'Turn finished',
  cancelled: 'Turn cancelled',
  error: 'Turn ended with an error',
  interrupted: 'Turn interrupted',
} as const;

interface TurnEndRowProps {
  item: TurnEnd;
  usage?: UsageTotals;
  /** How many files the turn changed, and whether they were undone. */
  changedFiles: number;
  undone: boolean;
}

export function TurnEndRow({ item, usage, changedFiles, undone }: TurnEndRowProps) {
  return (
    <div className={`event-row turn-end turn-end-${item.reason}`}>
      <p>
        — {TURN_END_WORDS[item.reason]}
        {item.message ? `: ${item.message}` : ''} —
      </p>
      {usage && usage.calls > 0 && <p className="turn-usage">{turnUsageWords(usage)}</p>}
      <ChangesButton turnId={item.turnId} files={changedFiles} undone={undone} />
    </div>
  );
}
