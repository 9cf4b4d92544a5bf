/**
 * The facts the context budget and the cost estimate use for the configured model: the
 * bundled, dated table (model-table.json, made by scripts/refresh-model-table.ts), then the
 * config's own contextWindow and prices on top. A model the table lacks is never an error:
 * it gets DEFAULT_CONTEXT_WINDOW and no prices.
 */
import { z } from 'zod';
import type { ModelConfig } from '../../../shared/contract.js';
import {
  DEFAULT_CONTEXT_WINDOW,
  findModelFacts,
  type ModelCatalog,
  type ModelFacts,
  type ModelPrices,
} from '../../../shared/model-facts.js';
// Imported, not read from disk, so the bundle of the main process carries it.
import table from './model-table.json' with { type: 'json' };

export interface ResolvedModel {
  /** Tokens the model takes in one request (input and output together). */
  window: number;
  maxOutput: number | null;
  prices: ModelPrices | null;
  minCacheTokens: number | null;
  /** Whether the table has the model (overrides in the config do not change this). */
  known: boolean;
  /** The table's date; prices that come from the config are the user's own, of no date. */
  priceDate: string;
}

const price = z.number().min(0);
const factsSchema = z.strictObject({
  provider: z.enum(['anthropic', 'openai']),
  id: z.string().min(1),
  name: z.string().min(1),
  contextWindow: z.int().positive(),
  maxOutput: z.int().positive().nullable(),
  prices: z
    .strictObject({ input: price, output: price, cacheRead: price.nullable(), cacheWrite: price.nullable() })
    .nullable(),
  minCacheTokens: z.int().positive().nullable(),
});
const catalogSchema = z.strictObject({
  date: z.iso.date(),
  source: z.string().min(1),
  models: z.array(factsSchema),
});

let loaded: ModelCatalog | null = null;

/** The table, checked once: a hand-edited or torn file fails loudly at the first use, not as a wrong bill. */
export function modelCatalog(): ModelCatalog {
  loaded ??= catalogSchema.parse(table);
  return loaded;
}

/** Table rows by provider and model id: every step of every session asks, and the table never changes. */
const rows = new Map<string, ModelFacts | null>();

function factsFor(provider: string, modelId: string): ModelFacts | null {
  const key = `${provider}\n${modelId}`;
  let facts = rows.get(key);
  if (facts === undefined) {
    // A handful of models in use; the bound only keeps ids typed in Settings from piling up.
    if (rows.size >= 64) rows.clear();
    facts = findModelFacts(modelCatalog().models, provider, modelId);
    rows.set(key, facts);
  }
  return facts;
}

export function resolveModel(config: ModelConfig): ResolvedModel {
  const facts = factsFor(config.provider, config.modelId);
  return withOverrides(fromTable(facts, modelCatalog().date), config);
}

function fromTable(facts: ModelFacts | null, date: string): ResolvedModel {
  return {
    window: facts?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    maxOutput: facts?.maxOutput ?? null,
    prices: facts?.prices ?? null,
    minCacheTokens: facts?.minCacheTokens ?? null,
    known: facts !== null,
    priceDate: date,
  };
}

/** The config wins; its prices replace the table's whole, so a cache price it leaves out is unknown, not the table's. */
function withOverrides(model: ResolvedModel, config: ModelConfig): ResolvedModel {
  const own = config.prices;
  return {
    ...model,
    window: config.contextWindow ?? model.window,
    prices: own
      ? { input: own.input, output: own.output, cacheRead: own.cacheRead ?? null, cacheWrite: own.cacheWrite ?? null }
      : model.prices,
  };
}
