/**
 * What one call (or a Stop hook's step) changed, under its row (UI.md card rule 10): the
 * files, each opening as a diff. The diffs come from `session.changes` for the call, asked
 * once, when the first file is opened.
 */
import { useState } from 'react';
import type { ChangedFile, ChangesView } from '../../../../shared/checkpoints';
import { useCall, type Call } from '../../api/use-call';
import { ChangedFileLine } from './ChangedFileLine';
import { FileDiff } from './FileDiff';
import './changes.css';

/** More files than this show behind "Show N more", so one command cannot fill the transcript. */
const SHOWN_FIRST = 8;

interface ChangedFilesProps {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  changed: readonly ChangedFile[];
}

export function ChangedFiles({ sessionId, turnId, toolCallId, changed }: ChangedFilesProps) {
  const view = useCall((api) => api['session.changes']({ id: sessionId, turnId, toolCallId }));
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const [all, setAll] = useState(false);
  const shown = all ? changed : changed.slice(0, SHOWN_FIRST);

  const toggle = (path: string) => {
    const next = new Set(opened);
    if (!next.delete(path)) next.add(path);
    setOpened(next);
    // Asked again after a failure: the next opening is the retry.
    if (view.data === undefined && !view.pending) void view.run();
  };

  return (
    <div className="changed-files">
      <ul className="changed-file-list" aria-label="Files changed">
        {shown.map((file) => (
          <li key={file.path}>
            <ChangedFileLine file={file} open={opened.has(file.path)} onToggle={() => toggle(file.path)} />
            {opened.has(file.path) && (
              <DiffSlot
                view={view}
                path={file.path}
                diffKey={`call:${sessionId}:${turnId}:${toolCallId}:${file.path}`}
              />
            )}
          </li>
        ))}
      </ul>
      {changed.length > shown.length && (
        <button type="button" className="changes-more" onClick={() => setAll(true)}>
          Show {changed.length - shown.length} more
        </button>
      )}
    </div>
  );
}

function DiffSlot({ view, path, diffKey }: { view: Call<[], ChangesView>; path: string; diffKey: string }) {
  if (view.error !== null) return <p className="box-danger changes-error">Could not read the change: {view.error}</p>;
  if (view.data === undefined) return <p className="changes-note">Reading the change…</p>;
  const file = view.data.files.find((f) => f.path === path);
  if (!file) return <p className="changes-note">The checkpoint no longer lists this file.</p>;
  return <FileDiff file={file} diffKey={diffKey} />;
}
