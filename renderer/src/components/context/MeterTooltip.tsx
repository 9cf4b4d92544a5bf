/**
 * The meter's tooltip: the session's tokens in, out and cached, its estimated cost, and
 * where the prices come from. Mounted only while shown, so the price table is first asked
 * for when someone looks.
 */
import type { SessionUsage } from '../../../../shared/reducer';
import { modKeyName } from '../frame/mod-key';
import { useModelCatalog } from '../settings/useModelCatalog';
import { cachedPercent, costWords, fullTokens } from './usage-words';

export function MeterTooltip({ id, usage }: { id: string; usage: SessionUsage }) {
  const { session, context } = usage;
  const cached = cachedPercent(session);
  return (
    <div id={id} role="tooltip" className="meter-tip">
      {session.calls === 0 ? (
        <p>No model calls yet.</p>
      ) : (
        <dl>
          <dt>Model calls</dt>
          <dd>{fullTokens(session.calls)}</dd>
          <dt>Tokens in</dt>
          <dd>
            {fullTokens(session.inputTokens)}
            {cached === null ? '' : ` (${cached}% cached)`}
          </dd>
          <dt>Read from cache</dt>
          <dd>{fullTokens(session.cacheReadTokens)}</dd>
          <dt>Written to cache</dt>
          <dd>{fullTokens(session.cacheWriteTokens)}</dd>
          <dt>Tokens out</dt>
          <dd>{fullTokens(session.outputTokens)}</dd>
          <dt>Cost</dt>
          <dd>{costWords(session)}</dd>
        </dl>
      )}
      {context && (
        <p>
          Context: {fullTokens(context.tokens)} of {fullTokens(context.window)} tokens
        </p>
      )}
      <PriceSource />
      <p className="meter-tip-hint">Click for what the model sees ({modKeyName()}+Shift+M)</p>
    </div>
  );
}

function PriceSource() {
  const catalog = useModelCatalog();
  if (catalog === 'loading') return <p className="meter-tip-source">Reading the price table…</p>;
  if (catalog === 'unavailable') return <p className="meter-tip-source">The price table could not be read.</p>;
  return (
    <p className="meter-tip-source">
      Prices from {catalog.source}, {catalog.date}
    </p>
  );
}
