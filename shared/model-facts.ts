/**
 * What the app knows about a model: its context window, output cap, prices and the
 * smallest prefix its provider caches. The table comes from a vendored, dated snapshot
 * (electron/core/context/model-table.json, refreshed by scripts/refresh-model-table.ts);
 * a model config may override any of it. Shared because the Settings picker shows it.
 */

/** USD per million tokens, as the price table states them. */
export interface ModelPrices {
  input: number;
  output: number;
  /** Reading a cached prefix. */
  cacheRead: number | null;
  /** Writing a prefix into the cache (Anthropic's 5-minute write). */
  cacheWrite: number | null;
}

export interface ModelFacts {
  /** The app's provider this row belongs to ('anthropic' or 'openai'; others are offered as free text). */
  provider: 'anthropic' | 'openai';
  /** The id the provider's API takes. */
  id: string;
  /** A name for people. */
  name: string;
  contextWindow: number;
  maxOutput: number | null;
  prices: ModelPrices | null;
  /** The shortest prefix the provider will cache, in tokens (null when unknown). */
  minCacheTokens: number | null;
}

export interface ModelCatalog {
  /** When the snapshot was taken (ISO date). */
  date: string;
  /** Where it came from, in words (e.g. "models.dev via the npm package X@1.2.3"). */
  source: string;
  models: ModelFacts[];
}

/** A model with no contextWindow in the table or the config is assumed to have this many tokens. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * The form of a model id that survives the ways people and gateways spell one model:
 * case, an OpenRouter-style `vendor/` prefix, a `:variant` or Vertex `@date` tail, dots
 * for dashes (claude-sonnet-4.5), a dated snapshot (-20250929, -2024-08-06), and the
 * `-latest` / `-0` aliases (claude-opus-4-0 is claude-opus-4).
 */
export function modelIdKey(modelId: string): string {
  return modelId
    .trim()
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/[:@].*$/, '')
    .replace(/\./g, '-')
    .replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '')
    .replace(/-(latest|0)$/, '');
}

/** The providers a model id is looked up in: an OpenAI-compatible server may serve either's models. */
function tablesFor(provider: string, modelId: string): ModelFacts['provider'][] {
  if (provider === 'anthropic' || provider === 'openai') return [provider];
  const vendor = /^([^/]+)\//.exec(modelId.trim().toLowerCase())?.[1];
  if (vendor === 'anthropic' || vendor === 'openai') return [vendor];
  return ['anthropic', 'openai'];
}

/**
 * The table's row for a configured model, or null. An exact id wins (gpt-4o-2024-05-13 has
 * its own prices); otherwise the same key, preferring the shortest id (the undated alias).
 */
export function findModelFacts(models: readonly ModelFacts[], provider: string, modelId: string): ModelFacts | null {
  const providers = tablesFor(provider, modelId);
  const rows = models.filter((m) => providers.includes(m.provider));
  const exact = rows.find((m) => m.id.toLowerCase() === modelId.trim().toLowerCase());
  if (exact) return exact;
  const key = modelIdKey(modelId);
  if (key === '') return null;
  const same = rows.filter((m) => modelIdKey(m.id) === key);
  return same.sort((a, b) => a.id.length - b.id.length || a.id.localeCompare(b.id))[0] ?? null;
}
