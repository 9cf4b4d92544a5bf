/**
 * The Open dialog's "Work in a place of its own" (SPEC §15): a git worktree on a new branch
 * `gatehouse/<name>`, or a copy when the folder is not a repository, from an optional base
 * (a branch or commit; HEAD when empty). An agent that writes and runs by itself (Codex,
 * opencode) always works in one: the box is ticked and cannot be unticked, and says why.
 */
import { useId } from 'react';
import { placeForcedWhy } from '../places/place-words';
import '../places/places.css';

export interface PlaceOption {
  on: boolean;
  /** The base as typed; empty is HEAD. */
  base: string;
}

interface PlaceChoiceProps {
  value: PlaceOption;
  onChange: (value: PlaceOption) => void;
  /** The label of the agent picked when it can only work in a place; null otherwise. */
  forcedBy: string | null;
}

export function PlaceChoice({ value, onChange, forcedBy }: PlaceChoiceProps) {
  const boxId = useId();
  const helpId = useId();
  const baseId = useId();
  const on = forcedBy !== null || value.on;
  return (
    <div className="place-choice">
      <label htmlFor={boxId} className="place-choice-box">
        <input
          id={boxId}
          type="checkbox"
          checked={on}
          disabled={forcedBy !== null}
          aria-describedby={helpId}
          onChange={(e) => onChange({ ...value, on: e.target.checked })}
        />
        Work in a place of its own
      </label>
      <p id={helpId} className="field-help">
        {forcedBy !== null
          ? placeForcedWhy(forcedBy)
          : 'A git worktree on a new branch gatehouse/<name> (a copy when the folder is not a repository), kept in Gatehouse’s data folder. Your folder is not touched until you apply the changes.'}
      </p>
      {on && (
        <>
          <label htmlFor={baseId}>Start from (optional)</label>
          <input
            id={baseId}
            className="mono"
            value={value.base}
            maxLength={256}
            placeholder="HEAD, or a branch or commit"
            onChange={(e) => onChange({ ...value, base: e.target.value })}
          />
        </>
      )}
    </div>
  );
}

/** What `sessions.open` gets for the choice: nothing when off, else the base when one was typed. */
export function placeRequest(value: PlaceOption, forced: boolean): { base?: string } | undefined {
  if (!forced && !value.on) return undefined;
  const base = value.base.trim();
  return base === '' ? {} : { base };
}
