/** What the model picker offers and how it words a model's facts ("200k", "$3 / $15 per M"). */
import type { Provider } from '../../../../shared/contract';
import type { ModelCatalog, ModelFacts, ModelPrices } from '../../../../shared/model-facts';

/**
 * The table's models for a provider. An OpenAI-compatible server names its own models
 * (often in its own spelling), so it gets free text only.
 */
export function modelsFor(catalog: ModelCatalog, provider: Provider): ModelFacts[] {
  return catalog.models.filter((m) => m.provider === provider);
}

/** The models whose id or name holds every word typed, in any case ("sonnet 4.5", "gpt-5 mini"). */
export function filterModels(models: readonly ModelFacts[], query: string): ModelFacts[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter((m) => {
    const text = `${m.id} ${m.name}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** A context window the way people say it: 200k, 1M, 1.05M. */
export function windowWords(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(2))}M`;
  return `${Math.round(tokens / 1000)}k`;
}

/** Input and output price per million tokens: "$3 / $15 per M". */
export function priceWords(prices: ModelPrices): string {
  return `${dollars(prices.input)} / ${dollars(prices.output)} per M`;
}

function dollars(amount: number): string {
  return `$${Number(amount.toFixed(4))}`;
}

/** One line of facts for a model: "200k · $3 / $15 per M". */
export function factsWords(model: ModelFacts): string {
  const window = windowWords(model.contextWindow);
  return model.prices ? `${window} · ${priceWords(model.prices)}` : window;
}
