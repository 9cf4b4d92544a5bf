/**
 * One part of the next request as a row (label, role, ≈tokens, masked and cache-breakpoint
 * marks, where in the log it comes from) that opens to the part's text as sent. The text is
 * untrusted (model output, file contents): it goes in as a text node, never as markup.
 */
import { useState } from 'react';
import type { ContextPart } from '../../../../shared/context-preview';
import { partRole, seqWords } from './preview-words';
import { fullTokens } from './usage-words';

export function ContextPartRow({ part }: { part: ContextPart }) {
  const [open, setOpen] = useState(false);
  const seqs = seqWords(part.seqs);
  return (
    <li className={`context-part context-part-${part.kind}${part.masked ? ' context-part-masked' : ''}`}>
      <button type="button" className="context-part-line" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        <span className="context-part-label">{part.label}</span>
        <span className="context-part-role">{partRole(part)}</span>
        {part.masked && <span className="context-badge">masked</span>}
        {part.breakpoint && <span className="context-badge context-badge-cache">cache breakpoint</span>}
        <span className="context-part-fill" />
        {seqs && <span className="context-part-seqs">{seqs}</span>}
        <span className="context-part-tokens">≈ {fullTokens(part.tokens)} tokens</span>
      </button>
      {open && <PartText part={part} />}
    </li>
  );
}

/** A long part arrives cut, with the core's own note saying so at its end. */
function PartText({ part }: { part: ContextPart }) {
  return (
    <div className="context-part-body">
      <pre className="code-block context-part-text">{part.text}</pre>
    </div>
  );
}
