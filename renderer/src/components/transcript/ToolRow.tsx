/**
 * A tool call as one compact row (`▸ read_file src/a.ts`) that expands to its arguments and
 * result. Outputs are text nodes in bounded, scrolling <pre>s. A running `run` shows its
 * live output. An MCP tool (mcp__<server>__<tool>) is labelled `<server> · <tool>`.
 */
import { useState } from 'react';
import type { TranscriptItem } from '../../../../shared/reducer';
import type { LiveOutput as LiveOutputData } from '../../store/live-output';
import { ArgvTokens } from '../cards/ArgvTokens';
import { CODE_OPTIONS } from '../cards/visible-text';
import { VisibleText } from '../cards/VisibleText';
import { LiveOutput } from './LiveOutput';
import { mcpToolParts } from '../../../../shared/mcp-tool-name';
import { toolSummary } from './tool-summary';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

function argsText(args: unknown): string {
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

export function ToolRow({ item, live }: { item: ToolItem; live: LiveOutputData | undefined }) {
  const [open, setOpen] = useState(false);
  const summary = toolSummary(item.tool, item.args);
  const state = !item.result ? 'running' : item.result.ok ? 'ok' : 'error';
  const mark = { running: 'running…', ok: '✓', error: '✗' }[state];
  const mcp = mcpToolParts(item.tool, item.result?.details?.server);
  return (
    <div className={`tool-row tool-row-${state}`}>
      <button type="button" className="tool-row-line" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        {mcp ? (
          <span className="tool-row-name" title={item.tool}>
            <VisibleText className="visible-prose" text={`${mcp.server} · ${mcp.tool}`} />
          </span>
        ) : (
          <span className="tool-row-name">{item.tool}</span>
        )}
        <span className="tool-row-summary">
          {summary.kind === 'argv' ? (
            <ArgvTokens argv={summary.argv} compact />
          ) : (
            <VisibleText text={summary.text} options={summary.kind === 'json' ? CODE_OPTIONS : undefined} />
          )}
        </span>
        <span className={`tool-row-mark tool-row-mark-${state}`} title={state}>
          {mark}
          {state !== 'running' && <span className="sr-only"> {state}</span>}
        </span>
      </button>
      {!item.result && live && <LiveOutput output={live} />}
      {open && (
        <div className="tool-row-details">
          <p className="tool-row-label">Arguments</p>
          <pre className="code-block">{argsText(item.args)}</pre>
          {item.result ? (
            <>
              <p className="tool-row-label">{item.result.ok ? 'Result' : 'Error'}</p>
              <pre className={`code-block${item.result.ok ? '' : ' tool-output-error'}`}>{item.result.output}</pre>
            </>
          ) : (
            <p className="tool-row-label">Running…</p>
          )}
        </div>
      )}
    </div>
  );
}
