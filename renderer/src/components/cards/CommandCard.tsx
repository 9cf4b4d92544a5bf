/**
 * What a command would run (UI.md card rule 1): the argv as tokens, the folder, the
 * timeout, and (rule 7) what the sandbox lets it reach. The record in the transcript says
 * the sandbox in its own compact line, so it asks for the body without it.
 */
import type { CommandCardBody } from '../../../../shared/cards';
import { ArgvTokens } from './ArgvTokens';
import type { CardViewProps } from './card-view-props';
import { SandboxLine } from './SandboxNotes';
import { VisibleText } from './VisibleText';
import { workspaceRelative } from './workspace-path';

export function CommandCard({ workspace, body, inRecord }: CardViewProps<CommandCardBody>) {
  return (
    <div className="card-body card-body-command">
      <div className="card-subject">
        <span className="card-verb">Run</span>
        <ArgvTokens argv={body.argv} />
      </div>
      <FolderLine workspace={workspace} cwd={body.cwd} />
      {body.timeoutS !== undefined && <p className="card-detail">timeout: {body.timeoutS} s</p>}
      {!inRecord && <SandboxLine body={body} />}
    </div>
  );
}

/** The folder a process starts in: relative to the workspace, else absolute and said to be outside. */
export function FolderLine({ workspace, cwd }: { workspace: string; cwd: string }) {
  const shown = workspaceRelative(workspace, cwd);
  return (
    <p className="card-detail">
      in <VisibleText className="card-path" text={shown} title={cwd} />
      {shown === '.' && <span className="card-muted"> (the workspace folder)</span>}
      {shown === cwd && <strong className="card-outside-inline"> outside the workspace</strong>}
    </p>
  );
}
