/**
 * One file in a turn's Changes: its line (opening its diff), Revert, and, when the person
 * (or a later turn) changed it since, a warning and a tick to overwrite it anyway: an undo
 * never overwrites such a file silently (SPEC §12).
 */
import type { FileChangeView, KeptFile } from '../../../../shared/checkpoints';
import { ChangedFileLine } from './ChangedFileLine';
import { FileDiff } from './FileDiff';

const SINCE_WORDS: Record<KeptFile['why'], string> = {
  changed_since: 'Changed since the turn',
  changed_by_later_turn: 'A later turn changed it since',
  skipped_by_snapshot: 'The snapshot did not hold it',
};

interface ChangesFileItemProps {
  file: FileChangeView;
  diffKey: string;
  open: boolean;
  onToggle: () => void;
  ticked: boolean;
  onTick: (ticked: boolean) => void;
  /** Revert cannot be used now (the view says why, next to Undo turn). */
  revertOff: boolean;
  /**
   * Warn of a file changed since: off once the turn is undone, when the core counts the
   * undo itself as a change since and nothing is left to overwrite.
   */
  warnSince: boolean;
  onRevert: () => void;
}

export function ChangesFileItem(props: ChangesFileItemProps) {
  const { file, open } = props;
  return (
    <li className="changes-file">
      <div className="changes-file-head">
        <ChangedFileLine file={file} open={open} onToggle={props.onToggle} />
        <button
          type="button"
          className="changes-revert"
          aria-label={`Revert ${file.path}`}
          disabled={props.revertOff}
          onClick={props.onRevert}
        >
          Revert
        </button>
      </div>
      {props.warnSince && file.changedSince && (
        <SinceWarning why={file.changedSince} ticked={props.ticked} onTick={props.onTick} />
      )}
      {open && <FileDiff file={file} diffKey={props.diffKey} />}
    </li>
  );
}

function SinceWarning({
  why,
  ticked,
  onTick,
}: {
  why: KeptFile['why'];
  ticked: boolean;
  onTick: (t: boolean) => void;
}) {
  return (
    <div className="changes-since" role="note">
      <p>
        <span aria-hidden="true">⚠ </span>
        {SINCE_WORDS[why]} — left alone unless ticked.
      </p>
      <label>
        <input type="checkbox" checked={ticked} onChange={(e) => onTick(e.target.checked)} />
        Overwrite it anyway
      </label>
    </div>
  );
}
