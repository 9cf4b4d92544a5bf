/**
 * The model proposes applying its place's change into the person's folder (SPEC §15; UI.md
 * card rules 1 and 2): every file with its change and its state against the folder (a
 * conflict named, and never written), how it lands (as files, or as a commit with the exact
 * git commands and the message), and the folder it writes into. It is asked every time:
 * the answers are Allow once and Deny (the AnswerBar reads which from the kind).
 */
import type { PlaceApplyCardBody, PlaceApplyCardFile } from '../../../../shared/cards';
import { useOpenReview } from '../../store/app-store';
import { STATUS_WORDS } from '../places/place-words';
import { ArgvTokens } from './ArgvTokens';
import type { CardViewProps } from './card-view-props';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleLines } from './VisibleLines';
import { VisibleText } from './VisibleText';
import '../places/places.css';
import './place-apply-card.css';

const CHANGE_WORDS: Record<PlaceApplyCardFile['change'], string> = {
  added: 'added',
  modified: 'modified',
  deleted: 'deleted',
};

/** A list past this many files shows its start and says how many more (the log holds them all). */
const FILES_SHOWN = 200;

export function PlaceApplyCard({ body, inRecord }: CardViewProps<PlaceApplyCardBody>) {
  const openReview = useOpenReview();
  const conflicts = body.files.filter((f) => f.status === 'conflict').length;
  return (
    <div className="card-body card-body-place-apply">
      <div className="card-subject">
        <span className="card-verb">{body.as === 'commit' ? 'Apply as a commit' : 'Apply as files'}</span>{' '}
        <span className="card-muted">writes into</span> <VisibleText text={body.origin} />
      </div>
      <p className="card-note">
        The session worked in its own place; this writes its change into your folder. Each file is checked again just
        before it is written: one you changed since is left alone.
      </p>
      <FileList files={body.files} />
      {conflicts > 0 && (
        <p className="card-detail place-apply-conflicts">
          <span className="warning-mark" aria-hidden="true">
            ⚠{' '}
          </span>
          {conflicts === 1 ? '1 file conflicts' : `${conflicts} files conflict`} with a change you made: never written.
        </p>
      )}
      {body.as === 'commit' && body.commit && <CommitPart commit={body.commit} message={body.message ?? ''} />}
      <p className="card-detail card-muted">
        From <VisibleText text={body.place} />.
      </p>
      {/* The card lists the files; their diffs are the review's (the card would repeat them in the log). */}
      {!inRecord && openReview && (
        <p className="card-detail">
          <button type="button" className="place-apply-review" onClick={openReview}>
            Read each file’s diff in the review…
          </button>
        </p>
      )}
    </div>
  );
}

function FileList({ files }: { files: readonly PlaceApplyCardFile[] }) {
  const shown = files.slice(0, FILES_SHOWN);
  return (
    <>
      <ul className="place-apply-files" aria-label="Files it applies">
        {shown.map((f) => (
          <li key={f.path} className={`place-apply-file place-apply-file-${f.status}`}>
            <span className={`place-apply-change place-apply-change-${f.change}`}>{CHANGE_WORDS[f.change]}</span>
            <VisibleText className="place-apply-path" text={f.path} />
            <span className={`review-status review-status-${f.status}`}>
              {f.status === 'conflict' && (
                <span className="warning-mark" aria-hidden="true">
                  ⚠{' '}
                </span>
              )}
              {STATUS_WORDS[f.status]}
            </span>
          </li>
        ))}
      </ul>
      {files.length > shown.length && (
        <p className="card-detail">
          Showing the first {shown.length} of {files.length} files.
        </p>
      )}
    </>
  );
}

function CommitPart({ commit, message }: { commit: NonNullable<PlaceApplyCardBody['commit']>; message: string }) {
  return (
    <div className="card-detail place-apply-commit">
      <span>
        Then one commit on your branch <VisibleText text={commit.branch} />, with the message:
      </span>
      <pre className="code-block place-apply-message">
        <VisibleLines text={message} options={PROSE_OPTIONS} />
      </pre>
      <span>made with exactly these commands (no hooks, no filters):</span>
      <ol className="place-apply-argv" aria-label="The git commands">
        {commit.argv.map((argv, i) => (
          <li key={i}>
            <ArgvTokens argv={argv} compact />
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The record's line: "apply 3 files into ~/src/app". */
export function PlaceApplyRecordSubject({ body, verb }: { body: PlaceApplyCardBody; verb: string }) {
  const what = body.as === 'commit' ? 'as a commit' : `${body.files.length} file${body.files.length === 1 ? '' : 's'}`;
  return (
    <>
      {verb} {what} into <VisibleText text={body.origin} />
    </>
  );
}
