/**
 * What a write would do (UI.md card rule 1): the file, whether it is new, inside or outside
 * the workspace, the sizes, and the real diff. A truncated diff says so and offers the
 * whole proposal (rule 6).
 */
import { useState } from 'react';
import type { WriteCardBody } from '../../../../shared/cards';
import type { CallResponses } from '../../../../shared/contract';
import { DIFF_TRUNCATED_LINES } from '../../../../shared/limits';
import { useApi } from '../../api/api-context';
import { byteSize } from './byte-size';
import type { CardViewProps } from './card-views';
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
    <p className="card-outside" role="note">
      <strong>OUTSIDE the workspace:</strong> <VisibleText text={path} />
    </p>
  );
}

type Proposal = CallResponses['card.proposal'];

type ProposalView =
  { state: 'idle' } | { state: 'loading' } | { state: 'error'; error: string } | ({ state: 'loaded' } & Proposal);

function TruncatedNotice({ sessionId, cardId, diffBytes }: { sessionId: string; cardId: string; diffBytes: number }) {
  const api = useApi();
  const [view, setView] = useState<ProposalView>({ state: 'idle' });
  const load = async () => {
    setView({ state: 'loading' });
    const reply = await api['card.proposal']({ id: sessionId, cardId }).catch((error: unknown) => ({
      ok: false as const,
      error: error instanceof Error ? error.message : String(error),
    }));
    setView(reply.ok ? { state: 'loaded', ...reply.data } : { state: 'error', error: reply.error });
  };
  return (
    <div className="card-truncated">
      <p>
        <strong>Truncated:</strong> showing the first {DIFF_TRUNCATED_LINES} lines; the whole change is{' '}
        {diffBytes.toLocaleString('en')} bytes ({byteSize(diffBytes)}).
      </p>
      {view.state !== 'loaded' && (
        <button type="button" className="card-secondary" disabled={view.state === 'loading'} onClick={load}>
          {view.state === 'loading' ? 'Loading the whole proposal…' : 'Show the whole proposal'}
        </button>
      )}
      {view.state === 'error' && <p className="card-error">Could not load the whole proposal: {view.error}</p>}
      {view.state === 'loaded' && (
        <figure className="card-proposal">
          <figcaption>The whole proposed file, {byteSize(view.bytes)}:</figcaption>
          <pre className="card-proposal-text" tabIndex={0} aria-label="Whole proposed file">
            {view.text}
          </pre>
        </figure>
      )}
    </div>
  );
}
