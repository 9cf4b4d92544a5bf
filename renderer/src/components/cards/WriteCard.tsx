/**
 * What a write would do (UI.md card rule 1): the file, whether it is new, inside or outside
 * the workspace, the sizes, and the real diff. A truncated diff says so and offers the
 * whole proposal (rule 6).
 *
 * On the open card the proposal is editable (rule 11): Edit opens the person's version in
 * an editor, and the diff then shows the file on disk against their text, rebuilt by the
 * core as they type (useCardEditing).
 */
import { useContext } from 'react';
import type { WriteCardBody } from '../../../../shared/cards';
import { DIFF_TRUNCATED_LINES } from '../../../../shared/limits';
import { useCall } from '../../api/use-call';
import { byteSize } from './byte-size';
import { CardEditingContext } from './card-editing-context';
import type { CardViewProps } from './card-view-props';
import { DiffView } from './DiffView';
import { ProposalEditor } from './ProposalEditor';
import type { CardEditing } from './useCardEditing';
import { VisibleText } from './VisibleText';
import { workspaceRelative } from './workspace-path';

export function WriteCard({ sessionId, workspace, cardId, body, inRecord }: CardViewProps<WriteCardBody>) {
  const context = useContext(CardEditingContext);
  const editing = !inRecord && context?.editable ? context : null;
  const relative = workspaceRelative(workspace, body.path);
  const showEdits = editing !== null && editing.open && editing.edited;
  return (
    <div className="card-body card-body-write">
      <div className="card-subject">
        <span className="card-verb">{body.creates ? 'Create' : 'Write'}</span>
        <VisibleText className="card-path" text={relative} title={body.path} />
        {body.creates && <span className="card-badge card-badge-new">new file</span>}
        <span className="card-tool">{body.tool}</span>
        {editing && !editing.open && (
          <button type="button" className="card-secondary card-edit-open" onClick={editing.openEditor}>
            Edit the proposal
          </button>
        )}
      </div>
      <PlaceMarker inside={body.inside} path={body.path} />
      {!inRecord && body.uneditable && (
        <p className="card-note">This proposal cannot be edited here: {body.uneditable}.</p>
      )}
      <p className="card-sizes">
        {body.creates || body.beforeBytes === null
          ? `new file, ${byteSize(body.proposalBytes)}`
          : `${byteSize(body.beforeBytes)} → ${byteSize(body.proposalBytes)}`}
        {showEdits && editing.latest && `; your version ${byteSize(editing.latest.preview.editedBytes)}`}
      </p>
      {editing?.open && <ProposalEditor editing={editing} path={relative} focusOnLoad={!editing.autoOpened} />}
      {showEdits ? (
        <EditedNotes editing={editing} />
      ) : (
        <>
          {editing?.open && <p className="card-diff-caption">The file on disk → the model&apos;s proposal:</p>}
          {body.diffNote && <p className="card-note">{body.diffNote}</p>}
          {body.diffTruncated && <TruncatedNotice sessionId={sessionId} cardId={cardId} diffBytes={body.diffBytes} />}
        </>
      )}
      {/* One place for the diff whichever text it shows, so its layout (side by side or not) and scroll stay. */}
      <ShownDiff editing={showEdits ? editing : null} cardId={cardId} proposalDiff={body.diff} />
    </div>
  );
}

/**
 * The diff of the file on disk against the proposal, or against the person's text as the
 * core rebuilt it last. Until the first rebuild arrives it shows the proposal's; a diff left
 * behind the text for a moment is marked as being updated.
 */
function ShownDiff({
  editing,
  cardId,
  proposalDiff,
}: {
  editing: CardEditing | null;
  cardId: string;
  proposalDiff: string;
}) {
  const preview = editing?.latest?.preview ?? null;
  const [key, diff] = preview ? [`${cardId}:edited`, preview.diff] : [cardId, proposalDiff];
  return (
    <div className={editing?.lagging ? 'card-diff-stale' : undefined}>
      {diff !== '' ? (
        <DiffView cardId={key} diff={diff} followLine={preview ? editing?.followLine : undefined} />
      ) : (
        preview && <p className="card-note">Your version is the same as the file on disk.</p>
      )}
    </div>
  );
}

/** What the diff of the person's text comes with: its caption, and any problem, note or cut. */
function EditedNotes({ editing }: { editing: CardEditing }) {
  const preview = editing.latest?.preview ?? null;
  return (
    <>
      <p className="card-diff-caption">
        The file on disk → your version:
        {editing.lagging && !editing.previewError && <span className="card-diff-updating"> updating…</span>}
      </p>
      {editing.previewError && (
        <p className="box-danger card-error">Could not rebuild the diff from your version: {editing.previewError}</p>
      )}
      {preview?.problem && (
        <p className="box-danger card-edit-problem">
          <strong>Your version cannot be written:</strong> {preview.problem}
        </p>
      )}
      {preview?.diffNote && <p className="card-note">{preview.diffNote}</p>}
      {preview?.diffTruncated && (
        <p className="card-truncated">
          <strong>Truncated:</strong> showing the first {DIFF_TRUNCATED_LINES} lines; the whole change is{' '}
          {preview.diffBytes.toLocaleString('en')} bytes ({byteSize(preview.diffBytes)}). Your whole version is in the
          editor above.
        </p>
      )}
    </>
  );
}

function PlaceMarker({ inside, path }: { inside: boolean; path: string }) {
  if (inside) return <p className="card-place">inside the workspace</p>;
  return (
    <p className="box-danger" role="note">
      <strong>OUTSIDE the workspace:</strong> <VisibleText text={path} />
    </p>
  );
}

function TruncatedNotice({ sessionId, cardId, diffBytes }: { sessionId: string; cardId: string; diffBytes: number }) {
  const proposal = useCall((api) => api['card.proposal']({ id: sessionId, cardId }));
  const loaded = proposal.data;
  return (
    <div className="card-truncated">
      <p>
        <strong>Truncated:</strong> showing the first {DIFF_TRUNCATED_LINES} lines; the whole change is{' '}
        {diffBytes.toLocaleString('en')} bytes ({byteSize(diffBytes)}).
      </p>
      {!loaded && (
        <button
          type="button"
          className="card-secondary"
          disabled={proposal.pending}
          onClick={() => void proposal.run()}
        >
          {proposal.pending ? 'Loading the whole proposal…' : 'Show the whole proposal'}
        </button>
      )}
      {proposal.error && <p className="box-danger card-error">Could not load the whole proposal: {proposal.error}</p>}
      {loaded && (
        <figure className="card-proposal">
          <figcaption>The whole proposed file, {byteSize(loaded.bytes)}:</figcaption>
          <pre className="code-block card-proposal-text" tabIndex={0} aria-label="Whole proposed file">
            {loaded.text}
          </pre>
        </figure>
      )}
    </div>
  );
}
