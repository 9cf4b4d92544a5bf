/** How Settings names the providers: never the raw ids the setting stores. */
import type { Provider } from '../../../../shared/contract';

/** In the provider list, where the examples tell a newcomer which choice is theirs. */
export const PROVIDER_NAMES: Record<Provider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, vLLM, OpenRouter…)',
};

/** Inside a sentence or a label ("API key for …"), where the examples would only crowd it. */
export const PROVIDER_SHORT_NAMES: Record<Provider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible server',
};
