/**
 * Token counts and costs in the few words the window shows them in: "340k", "$0.42",
 * "62% of 200k". Pure, so the meter, the turn line and the dividers say numbers the same way.
 */
import type { SessionUsage, UsageTotals } from '../../../../shared/reducer';

/** Past this share of the window the meter turns amber: the next steps will mask or summarise. */
export const CONTEXT_HIGH_SHARE = 0.8;

/** 950, 4.1k, 84k, 1.2M: short enough for a quiet line, exact enough to compare. */
export function compactTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${trimZero((n / 1000).toFixed(1))}k`;
  const k = Math.round(n / 1000);
  if (k < 1000) return `${k}k`;
  const m = n / 1_000_000;
  return `${m < 10 ? trimZero(m.toFixed(1)) : String(Math.round(m))}M`;
}

function trimZero(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}

/** 61,234: the dialog's exact counts. */
export function fullTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function dollars(usd: number): string {
  if (usd > 0 && usd < 0.01) return '<$0.01';
  if (usd >= 1000) return `$${Math.round(usd).toLocaleString('en-US')}`;
  return `$${usd.toFixed(2)}`;
}

/**
 * The estimated cost, honest about calls whose model has no price: those are not in the
 * sum, so a sum over some calls says how many it leaves out.
 */
export function costWords(t: UsageTotals): string {
  if (t.calls > 0 && t.unpriced === t.calls) return 'cost unknown';
  if (t.unpriced === 0) return dollars(t.cost);
  return `${dollars(t.cost)} + ${t.unpriced} ${t.unpriced === 1 ? 'call' : 'calls'} without a price`;
}

/** The share of input tokens read from the provider's cache, as a whole percent; null with no input. */
export function cachedPercent(t: UsageTotals): number | null {
  return t.inputTokens > 0 ? Math.round((t.cacheReadTokens / t.inputTokens) * 100) : null;
}

/** One turn's line: "12 model calls · 340k tokens in (92% cached) · 4.1k out · $0.42". */
export function turnUsageWords(t: UsageTotals): string {
  const cached = cachedPercent(t);
  const input = `${compactTokens(t.inputTokens)} tokens in${cached === null ? '' : ` (${cached}% cached)`}`;
  return [
    `${t.calls} model ${t.calls === 1 ? 'call' : 'calls'}`,
    input,
    `${compactTokens(t.outputTokens)} out`,
    costWords(t),
  ].join(' · ');
}

export interface ContextFill {
  percent: number;
  /** Over CONTEXT_HIGH_SHARE of the window. */
  high: boolean;
}

export function contextFill(context: SessionUsage['context']): ContextFill | null {
  if (!context || context.window <= 0) return null;
  const share = context.tokens / context.window;
  return { percent: Math.round(share * 100), high: share > CONTEXT_HIGH_SHARE };
}

/** The meter's words: "62% of 200k · $1.23", "— · $0.02" before the context is known, "—" before any call. */
export function meterWords(usage: SessionUsage): string {
  const fill = contextFill(usage.context);
  const full = fill && usage.context ? `${fill.percent}% of ${compactTokens(usage.context.window)}` : '—';
  return usage.session.calls > 0 ? `${full} · ${costWords(usage.session)}` : full;
}
