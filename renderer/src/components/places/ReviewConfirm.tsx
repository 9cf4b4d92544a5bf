/**
 * The cards the review screen puts up before a step that changes more than the person's
 * files (SPEC §15): a commit on their branch shows the exact git commands and takes the
 * message; Keep the branch and Discard say what is removed and what stays, with the
 * commands. Nothing happens until the card's own button is pressed.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { PlaceReview } from '../../../../shared/places';
import { ArgvTokens } from '../cards/ArgvTokens';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { filesWord } from '../changes/change-words';

export type ConfirmKind = 'commit' | 'keep' | 'discard';

interface ConfirmCardProps {
  label: string;
  children: ReactNode;
  confirm: ReactNode;
  onCancel: () => void;
  danger?: boolean;
}

/** A region like a permission card: what will happen, then its one button and Cancel. */
function ConfirmCard({ label, children, confirm, onCancel, danger = false }: ConfirmCardProps) {
  const box = useRef<HTMLElement>(null);
  // The card's words are read first, and the keyboard is where its buttons are.
  useEffect(() => box.current?.focus(), []);
  return (
    <section
      className={`review-confirm${danger ? ' review-confirm-danger' : ''}`}
      aria-label={label}
      tabIndex={-1}
      ref={box}
    >
      <h3 className="review-confirm-title">{label}</h3>
      {children}
      <div className="review-confirm-buttons">
        {confirm}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

/**
 * The exact commands, in order. When they all begin with the same settings (the app's git
 * runs each with the same `-c` switches), those are shown once, above, and each command from
 * where it differs: every argument is still on screen, and the differences stand out.
 */
function Commands({ argv }: { argv: readonly (readonly string[])[] }) {
  const prefix = commonPrefix(argv);
  const shared = prefix.length > 1 && argv.length > 1;
  return (
    <>
      {shared && (
        <div className="review-commands-shared">
          <p className="field-help">Each command below begins with:</p>
          <ArgvTokens argv={prefix} compact />
        </div>
      )}
      <ol className="review-commands" aria-label="Git commands, in order">
        {argv.map((command, i) => (
          <li key={i}>
            <div className="review-command">
              {shared && (
                <span className="review-command-lead" aria-hidden="true">
                  {prefix[0]} …
                </span>
              )}
              <ArgvTokens argv={shared ? command.slice(prefix.length) : command} compact />
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}

/** The arguments every command starts with, in order (never a whole command). */
export function commonPrefix(argv: readonly (readonly string[])[]): string[] {
  const first = argv[0] ?? [];
  const shortest = Math.min(...argv.map((a) => a.length)) - 1;
  let n = 0;
  while (n < shortest && argv.every((a) => a[n] === first[n])) n += 1;
  return first.slice(0, n);
}

interface CommitCardProps {
  commit: { branch: string; argv: string[][] };
  paths: readonly string[];
  defaultMessage: string;
  busy: boolean;
  onConfirm: (message: string) => void;
  onCancel: () => void;
}

export function CommitCard({ commit, paths, defaultMessage, busy, onConfirm, onCancel }: CommitCardProps) {
  const messageId = useId();
  const [message, setMessage] = useState(defaultMessage);
  const empty = message.trim() === '';
  return (
    <ConfirmCard
      label={`Apply as a commit on ${commit.branch}`}
      onCancel={onCancel}
      confirm={
        <button type="button" className="primary" disabled={busy || empty} onClick={() => onConfirm(message.trim())}>
          Make the commit
        </button>
      }
    >
      <p>
        Writes {filesWord(paths.length)} into your folder as Apply does, then commits{' '}
        {paths.length === 1 ? 'it' : 'them'} on your branch{' '}
        <VisibleText className="place-branch" text={commit.branch} options={PROSE_OPTIONS} />, without running your
        hooks or filters. These are the commands, in order:
      </p>
      <Commands argv={commit.argv} />
      <label htmlFor={messageId}>Commit message</label>
      <textarea
        id={messageId}
        className="review-message"
        rows={3}
        value={message}
        maxLength={2000}
        onChange={(e) => setMessage(e.target.value)}
      />
      {empty && <p className="field-help">A commit needs a message.</p>}
    </ConfirmCard>
  );
}

interface RemoveCardProps {
  review: PlaceReview;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Keep the branch: the place's folder goes, its branch (with the session's commits, if any) stays. */
export function KeepBranchCard({ review, busy, onConfirm, onCancel }: RemoveCardProps) {
  const { place } = review;
  const branch = place.branch ?? '';
  const argv = review.discard.argv.filter((command) => !deletesBranch(command));
  return (
    <ConfirmCard
      label={`Keep the branch ${branch} and remove the place`}
      onCancel={onCancel}
      confirm={
        <button type="button" className="primary" disabled={busy} onClick={onConfirm}>
          Remove the place, keep the branch
        </button>
      }
    >
      <p>
        Removes the place’s folder <VisibleText className="place-origin" text={place.path} options={PROSE_OPTIONS} />.
        The branch <VisibleText className="place-branch" text={branch} options={PROSE_OPTIONS} /> stays in your
        repository <VisibleText className="place-origin" text={place.origin} options={PROSE_OPTIONS} />, to merge or
        delete with git when you like. Changes the session did not commit in the place go with its folder.
      </p>
      {argv.length > 0 && (
        <>
          <p>With these commands, in order:</p>
          <Commands argv={argv} />
        </>
      )}
    </ConfirmCard>
  );
}

export function DiscardCard({ review, busy, onConfirm, onCancel }: RemoveCardProps) {
  const notApplied = review.files.filter((f) => f.status !== 'applied').length + review.more;
  return (
    <ConfirmCard
      label="Discard the place"
      danger
      onCancel={onCancel}
      confirm={
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          Discard
        </button>
      }
    >
      <p>
        {notApplied > 0
          ? `The ${filesWord(notApplied)} not in your folder yet will be lost. `
          : 'Everything the session changed is in your folder already. '}
        This removes:
      </p>
      <ul className="review-removes" aria-label="What Discard removes">
        {review.discard.removes.map((what) => (
          <li key={what}>
            <VisibleText text={what} options={PROSE_OPTIONS} />
          </li>
        ))}
      </ul>
      {review.discard.argv.length > 0 && (
        <>
          <p>With these commands, in order:</p>
          <Commands argv={review.discard.argv} />
        </>
      )}
      <p>Your folder stays as it is, with whatever you applied. The session stays, with nothing to work in.</p>
    </ConfirmCard>
  );
}

/** `git branch -D <name>` (or -d): the one command Keep the branch leaves out. */
function deletesBranch(argv: readonly string[]): boolean {
  const at = argv.indexOf('branch');
  return at >= 0 && argv.slice(at + 1).some((a) => a === '-D' || a === '-d' || a === '--delete');
}
