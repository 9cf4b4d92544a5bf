/**
 * What a write would do (UI.md card rule 1): the file, whether it is new, inside or outside
 * the workspace, the sizes, and the real diff. A truncated diff says so and offers the
 * whole proposal (rule 6).
 */
import type { WriteCardBody } from '../../../../shared/cards';
import { DIFF_TRUNCATED_LINES } from '../../../../shared/limits';
import { useCall } from '../../api/use-call';
import { byteSize } from './byte-size';
import type { CardViewProps } from './card-view-props';
import { DiffView } from './DiffView';
import { VisibleText } from './VisibleText';
import { workspaceRelative } from './workspace-path';

export function WriteCard({ sessionId, workspace, cardId, body }: CardViewProps<WriteCardBody>) {
  return (
    <div className="card-body card-body-write">
      <div className="card-subject">
        <span className="card-verb">{body.creates ? 'Create' : 'Write'}</span>
        <VisibleText className="card-path" text={workspaceRelative(workspace, body.path)} title={body.path} />
        {body.creates && <span className="card-badge card-badge-new">new file</span>}
        <span className="card-tool">{body.tool}</span>
      </div>
      <PlaceMarker inside={body.inside} path={body.path} />
      <p className="card-sizes">
        {body.creates || body.beforeBytes === null
          ? `new file, ${byteSize(body.proposalBytes)}`
          : `${byteSize(body.beforeBytes)} → ${byteSize(body.proposalBytes)}`}
      </p>
      {body.diffNote && <p className="card-note">{body.diffNote}</p>}
      {body.diffTruncated && <TruncatedNotice sessionId={sessionId} cardId={cardId} diffBytes={body.diffBytes} />}
      {body.diff !== '' && <DiffView cardId={cardId} diff={body.diff} />}
    </div>
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
