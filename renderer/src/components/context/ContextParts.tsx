/**
 * The parts of the next request in the order they are sent. Every row starts collapsed, so
 * a session with hundreds of parts renders one short line each; a part's text is put in
 * the page only when its row is opened.
 */
import type { ContextPart } from '../../../../shared/context-preview';
import { ContextPartRow } from './ContextPartRow';

export function ContextParts({ parts }: { parts: ContextPart[] }) {
  return (
    <div className="context-parts-box">
      <p className="field-help context-legend">
        {parts.length} {parts.length === 1 ? 'part' : 'parts'}, in the order they are sent. <em>masked</em>: an old
        result, sent as the short stub shown. <em>cache breakpoint</em>: the provider caches the request up to here.
      </p>
      <ol className="context-parts" aria-label="Parts of the next request">
        {parts.map((part, i) => (
          // Parts have no id of their own; their order is the request's and does not change within one preview.
          <ContextPartRow key={i} part={part} />
        ))}
      </ol>
    </div>
  );
}
