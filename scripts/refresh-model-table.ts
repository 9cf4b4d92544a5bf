/**
 * `npm run refresh:models`: rebuilds electron/core/context/model-table.json, the app's dated
 * table of model facts (SPEC.md §8), from the price data bundled in the devDependency
 * @pydantic/genai-prices. To take newer data:
 *
 *   npm install -D @pydantic/genai-prices@latest && npm run refresh:models
 *
 * Why that package: it is a maintained, dependency-free price table with context windows and
 * separate cache-read and cache-write prices, and it had the current Claude and OpenAI models;
 * the npm packages that carry a models.dev snapshot were either months behind (tokenlens) or
 * part of a whole agent runtime. Its one gap is the output cap, so maxOutput is null.
 *
 * Deterministic: one package version gives one file (rows sorted by provider and id, the date
 * being that version's publish date as the npm registry records it). No price is written by
 * hand here; the only hand-kept facts are the minimum cacheable prefixes below, which no price
 * table carries, and the list of retired models.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProvider, type ModelInfo, type ModelPrice } from '@pydantic/genai-prices';
import * as prettier from 'prettier';
import { modelIdKey, type ModelCatalog, type ModelFacts, type ModelPrices } from '../shared/model-facts.js';

const PACKAGE = '@pydantic/genai-prices';
const PROVIDERS = ['anthropic', 'openai'] as const;
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'electron', 'core', 'context', 'model-table.json');

/**
 * The shortest prefix a provider caches, in tokens. No price table carries it.
 *
 * Anthropic, "Prompt caching", cache limitations
 * (https://platform.claude.com/docs/en/build-with-claude/prompt-caching): 4096 tokens for Claude
 * Opus 4.6, Opus 4.5 and Haiku 4.5; 1024 for Sonnet 4.6, Sonnet 4.5, Opus 4.1, Opus 4, Sonnet 4
 * and Sonnet 3.7; 2048 for Haiku 3.5 and Haiku 3. A model that page did not list when this was
 * written stays unknown (null) rather than guessed. Keys are modelIdKey() forms.
 */
const ANTHROPIC_MIN_CACHE_TOKENS: Readonly<Record<string, number>> = {
  'claude-opus-4-6': 4096,
  'claude-opus-4-5': 4096,
  'claude-haiku-4-5': 4096,
  'claude-sonnet-4-6': 1024,
  'claude-sonnet-4-5': 1024,
  'claude-opus-4-1': 1024,
  'claude-opus-4': 1024,
  'claude-sonnet-4': 1024,
  'claude-3-7-sonnet': 1024,
  'claude-3-5-haiku': 2048,
  'claude-3-haiku': 2048,
};

/**
 * OpenAI, "Prompt caching" (https://platform.openai.com/docs/guides/prompt-caching): caching is
 * automatic for prompts of 1024 tokens or more, on gpt-4o and newer; taken here as every model
 * the data prices cached input for.
 */
const OPENAI_MIN_CACHE_TOKENS = 1024;

/** Not chat models (embeddings, audio, images, realtime, search, legacy completions, fine-tunes). */
const NOT_CHAT =
  /embedding|audio|realtime|transcribe|tts|whisper|image|moderation|search|deep-research|computer-use|instruct|^ft:|\.ft-|^(ada|babbage|curie|davinci)$|^text-/;

/** Open-weight models OpenAI publishes but its API does not serve; the data's prices are a host's. */
const NOT_SERVED = /^gpt-oss/;

/**
 * Shut down by their provider (Anthropic's and OpenAI's deprecation pages), kept in the price
 * data for old bills; offering them in the picker would only offer errors. modelIdKey() forms.
 */
const RETIRED = new Set([
  'claude-v1',
  'claude-2',
  'claude-3-sonnet',
  'claude-3-5-sonnet',
  'claude-3-opus',
  'claude-3-5-haiku',
  'claude-3-7-sonnet',
  'gpt-4-32k',
  'gpt-4-vision-preview',
  'gpt-3-5-turbo-0613',
  'o1-preview',
  'o1-mini',
]);

function packageVersion(): string {
  const entry = createRequire(import.meta.url).resolve(PACKAGE);
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** When this version was published: the day its data was taken. */
function publishDate(version: string): string {
  const out = execFileSync('npm', ['view', `${PACKAGE}@${version}`, 'time', '--json'], { encoding: 'utf8' });
  const published = (JSON.parse(out) as Record<string, string>)[version];
  if (!published) throw new Error(`npm has no publish time for ${PACKAGE}@${version}`);
  return published.slice(0, 10);
}

/** The prices in force on `date`: the latest dated change not after it (time-of-day discounts ignored). */
function pricesOn(info: ModelInfo, date: string): ModelPrice | null {
  if (!Array.isArray(info.prices)) return info.prices;
  let best: { from: string; prices: ModelPrice } | null = null;
  for (const entry of info.prices) {
    const constraint = entry.constraint;
    if (constraint?.type === 'time_of_date') continue;
    const from = constraint?.type === 'start_date' ? constraint.start_date : '';
    if (from <= date && (best === null || from >= best.from)) best = { from, prices: entry.prices };
  }
  return best?.prices ?? null;
}

/** A price per million tokens; a tiered one (more above 200k tokens) at its base rate. */
function perMillion(value: ModelPrice[string]): number | null {
  if (typeof value === 'number') return value;
  return value === undefined ? null : value.base;
}

function pricesOf(price: ModelPrice): ModelPrices | null {
  const input = perMillion(price.input_mtok);
  const output = perMillion(price.output_mtok);
  if (input === null || output === null) return null;
  return {
    input,
    output,
    cacheRead: perMillion(price.cache_read_mtok),
    cacheWrite: perMillion(price.cache_write_mtok),
  };
}

function offered(info: ModelInfo): boolean {
  const id = info.id.toLowerCase();
  return !info.deprecated && !NOT_CHAT.test(id) && !NOT_SERVED.test(id) && !RETIRED.has(modelIdKey(id));
}

function minCacheTokens(provider: ModelFacts['provider'], id: string, prices: ModelPrices): number | null {
  if (provider === 'openai') return prices.cacheRead === null ? null : OPENAI_MIN_CACHE_TOKENS;
  return ANTHROPIC_MIN_CACHE_TOKENS[modelIdKey(id)] ?? null;
}

function factsOf(provider: ModelFacts['provider'], info: ModelInfo, date: string): ModelFacts | null {
  const window = info.context_window;
  const price = pricesOn(info, date);
  const prices = price && pricesOf(price);
  // A row without a window or a price cannot budget or cost anything: it is left out, not guessed.
  if (!offered(info) || window === undefined || !(window > 0) || !prices) return null;
  return {
    provider,
    id: info.id,
    name: info.name ?? info.id,
    contextWindow: window,
    maxOutput: null,
    prices,
    minCacheTokens: minCacheTokens(provider, info.id, prices),
  };
}

function modelsOf(provider: ModelFacts['provider'], date: string): ModelFacts[] {
  const data = findProvider({ providerId: provider });
  if (!data) throw new Error(`${PACKAGE} has no provider ${provider}`);
  return data.models.flatMap((info) => factsOf(provider, info, date) ?? []);
}

function buildCatalog(): ModelCatalog {
  const version = packageVersion();
  const date = publishDate(version);
  const models = PROVIDERS.flatMap((p) => modelsOf(p, date)).sort(
    (a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id),
  );
  return { date, source: `${PACKAGE}@${version}`, models };
}

async function main(): Promise<void> {
  const catalog = buildCatalog();
  const options = { ...(await prettier.resolveConfig(OUT)), parser: 'json' };
  writeFileSync(OUT, await prettier.format(JSON.stringify(catalog), options));
  console.log(`${path.relative(root, OUT)}: ${catalog.models.length} models from ${catalog.source}, ${catalog.date}`);
}

await main();
