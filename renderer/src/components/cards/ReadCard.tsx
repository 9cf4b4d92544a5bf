/** An outside read (UI.md card rule 1): the absolute path, and the tool it is for. */
import type { ReadCardBody, ReadTool } from '../../../../shared/cards';
import type { CardViewProps } from './card-view-props';
import { VisibleText } from './VisibleText';

const TOOL_WORDS: Record<ReadTool, string> = {
  read_file: 'read this file',
  grep: 'search everything under this path',
  list_dir: 'list this folder',
};

export function ReadCard({ body }: CardViewProps<ReadCardBody>) {
  return (
    <div className="card-body card-body-read">
      <p className="box-danger" role="note">
        <strong>OUTSIDE the workspace:</strong> {body.tool} wants to {TOOL_WORDS[body.tool]}
      </p>
      <div className="card-subject">
        <span className="card-verb">Read</span>
        <VisibleText className="card-path" text={body.path} />
        <span className="card-tool">{body.tool}</span>
      </div>
    </div>
  );
}
