/**
 * What an allowed command (or a workspace's MCP server) can reach, on its card (UI.md card
 * rule 7). Confined, it is one quiet line under the argv and cwd. Unconfined, and for each flag the call asked for
 * (network, unconfined), it is a plain warning in amber with words, not colour alone,
 * right before the answers: outside the card's scrolling content, so a long script can
 * never push it out of view.
 */
import { useHomeFolder } from '../../store/app-store';
import { WarningLine } from '../frame/WarningLine';
import { CardWarning } from './CardWarning';
import { sandboxWords, splitLead, type SandboxedBody } from './sandbox-words';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';

/** The sandbox's line on a confined command; nothing when unconfined (SandboxWarnings says it). */
export function SandboxLine({ body }: { body: SandboxedBody }) {
  const words = sandboxWords(body, useHomeFolder());
  if (!words.confined) return null;
  const { lead, rest } = splitLead(words.line);
  return (
    <>
      <p className="card-sandbox">
        <span className="card-sandbox-lead">{lead}</span>
        {/* Paths come from the machine and may hold invisible characters: show them. */}
        <VisibleText className="visible-prose" text={rest} options={PROSE_OPTIONS} />
      </p>
      {words.shown.length > 0 && (
        <details className="card-sandbox-shown">
          <summary>What it sees of your home folder, read-only ({words.shown.length})</summary>
          <ul>
            {words.shown.map((p) => (
              <li key={p}>
                <VisibleText className="visible-prose" text={p} options={PROSE_OPTIONS} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

export function SandboxWarnings({ body }: { body: SandboxedBody }) {
  const words = sandboxWords(body, useHomeFolder());
  const unconfined = words.confined ? null : splitLead(words.line);
  if (!unconfined && words.warnings.length === 0) return null;
  return (
    <div className="card-warnings">
      {unconfined && (
        <CardWarning>
          <strong>{unconfined.lead}</strong>
          <VisibleText className="visible-prose" text={unconfined.rest} options={PROSE_OPTIONS} />
        </CardWarning>
      )}
      {words.warnings.map((warning) => (
        <CardWarning key={warning}>
          <strong>Warning:</strong> this {body.kind === 'command' ? 'command' : 'server'} {warning}
        </CardWarning>
      ))}
    </div>
  );
}

/** The same, compact, for the card's record in the transcript: one line, warnings after a dot. */
export function SandboxRecordLine({ body }: { body: SandboxedBody }) {
  const words = sandboxWords(body, useHomeFolder());
  const text = [words.line, ...words.warnings].join(' · ');
  const loud = !words.confined || words.warnings.length > 0;
  return (
    <WarningLine className="card-record-sandbox" loud={loud}>
      <VisibleText className="visible-prose" text={text} options={PROSE_OPTIONS} />
    </WarningLine>
  );
}
