/**
 * What a command would run (UI.md card rule 1): the argv as tokens, the folder, the
 * timeout, and (rule 7) what the sandbox lets it reach. The record in the transcript says
 * the sandbox in its own compact line, so it asks for the body without it.
 */
import type { CommandCardBody } from '../../../../shared/cards';
import { ArgvTokens } from './ArgvTokens';
import { SandboxLine } from './SandboxNotes';
import { VisibleText } from './VisibleText';
import { workspaceRelative } from './workspace-path';

export function CommandCard({
  workspace,
  body,
  sandboxLine = true,
}: {
  workspace: string;
  body: CommandCardBody;
  sandboxLine?: boolean;
}) {
  const cwd = workspaceRelative(workspace, body.cwd);
  return (
    <div className="card-body card-body-command">
      <div className="card-subject">
        <span className="card-verb">Run</span>
        <ArgvTokens argv={body.argv} />
      </div>
      <p className="card-detail">
        in <VisibleText className="card-path" text={cwd} title={body.cwd} />
        {cwd === '.' && <span className="card-muted"> (the workspace folder)</span>}
        {cwd === body.cwd && <strong className="card-outside-inline"> outside the workspace</strong>}
      </p>
      {body.timeoutS !== undefined && <p className="card-detail">timeout: {body.timeoutS} s</p>}
      {sandboxLine && <SandboxLine body={body} />}
    </div>
  );
}
