/**
 * The quiet meter beside the composer: how full the model's context is and what the
 * session has cost so far ("62% of 200k · $1.23"), with a thin bar that turns amber when
 * the next steps will start hiding or summarising history. Hover or focus shows the
 * session's tokens; a click opens "What the model sees".
 */
import { useId, useState } from 'react';
import { useAppStore } from '../../store/app-store';
import { MeterTooltip } from './MeterTooltip';
import { contextFill, meterWords } from './usage-words';
import './context.css';

export function ContextMeter({ sessionId }: { sessionId: string }) {
  const usage = useAppStore((s) => s.sessions[sessionId]?.state?.usage ?? null);
  const openDialog = useAppStore((s) => s.openDialog);
  const [tip, setTip] = useState(false);
  const tipId = useId();
  if (!usage) return null;
  const fill = contextFill(usage.context);
  return (
    <div className="context-meter-box" onMouseEnter={() => setTip(true)} onMouseLeave={() => setTip(false)}>
      <button
        type="button"
        className={`context-meter${fill?.high ? ' context-meter-high' : ''}`}
        aria-describedby={tip ? tipId : undefined}
        onFocus={() => setTip(true)}
        onBlur={() => setTip(false)}
        onClick={() => openDialog('context')}
      >
        <span className="context-meter-bar" aria-hidden="true">
          <span className="context-meter-fill" style={{ width: `${Math.min(fill?.percent ?? 0, 100)}%` }} />
        </span>
        <span className="visually-hidden">Context:</span> {meterWords(usage)}
      </button>
      {tip && <MeterTooltip id={tipId} usage={usage} />}
    </div>
  );
}
