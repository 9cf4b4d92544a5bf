/**
 * Settings' "Test connection": one tiny request through the real chat client with the model
 * setting being edited (saved or not), answered in words a person can act on. The key comes
 * from where a turn would take it (Settings, then the environment), and no answer ever
 * quotes a key or a URL's credentials: URLs go through displayURL, and the chat client's
 * messages are already redacted.
 */
import type { ConnectionTest } from '../../../shared/contract.js';
import { ChatError } from './chat-error.js';
import type { KeyStore } from './key-store.js';
import { displayURL, modelConfigSchema, type ModelConfig } from './model-config.js';
import { baseURLOf } from './language-model.js';
import { ProviderChatClient } from './provider-chat-client.js';

/** Long enough for a far provider on a slow line, short enough that the button does not seem to hang. */
export const CONNECTION_TEST_TIMEOUT_MS = 20_000;

/** A handful of tokens: the reply only has to start; a reasoning model may spend them all thinking. */
const TEST_OUTPUT_TOKENS = 8;

export interface ConnectionTestOptions {
  keys?: KeyStore;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
}

export async function testConnection(input: ModelConfig, options: ConnectionTestOptions): Promise<ConnectionTest> {
  // Checked again here, with the schema settings.set uses, since callers other than the host may come.
  const parsed = modelConfigSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'model'}: ${i.message}`).join('; ');
    return { outcome: 'failed', message: `The model setting is not valid: ${problems}.` };
  }
  const config = parsed.data;
  const timeoutMs = options.timeoutMs ?? CONNECTION_TEST_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // No retries: a person is waiting on the button, and a failure is the answer they asked for.
    const client = new ProviderChatClient({ config, keys: options.keys, env: options.env, retry: { maxRetries: 0 } });
    await client.step({
      system: 'This is a connection test. Reply with one word.',
      messages: [{ role: 'user', content: 'Say OK.' }],
      tools: {},
      maxOutputTokens: TEST_OUTPUT_TOKENS,
      signal,
    });
    return { outcome: 'works', message: `Works: ${config.modelId} answered.` };
  } catch (error) {
    if (signal.aborted) {
      return {
        outcome: 'no_answer',
        message: `No answer from ${urlTried(config)} within ${Math.round(timeoutMs / 1000)} s. A local server may still be loading the model: try again in a moment.`,
      };
    }
    return describeFailure(error, config);
  }
}

function urlTried(config: ModelConfig): string {
  const base = baseURLOf(config);
  return base ? displayURL(base) : '(no base URL)';
}

/** Maps the chat client's error kinds onto the four answers a person can act on, else its own words. */
function describeFailure(error: unknown, config: ModelConfig): ConnectionTest {
  if (!(error instanceof ChatError)) {
    return { outcome: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  if (error.kind === 'auth') return { outcome: 'key_refused', message: keyRefused(error) };
  if (isModelNotFound(error)) return { outcome: 'model_not_found', message: modelNotFound(error, config) };
  if (error.kind === 'network') {
    const cause = /^Could not reach .*?: (.*?)\.?$/s.exec(error.message)?.[1];
    return {
      outcome: 'unreachable',
      message: `Server unreachable: ${urlTried(config)}${cause ? ` (${cause})` : ''}.`,
    };
  }
  return { outcome: 'failed', message: error.message };
}

/**
 * "The key was refused (HTTP 401: what the provider said). Check your key in Settings or …":
 * the provider's own words and the hint where the key comes from, taken from the client's
 * message (provider-failure.ts words it as "X rejected the API key (HTTP n: …). Check …").
 */
function keyRefused(error: ChatError): string {
  const match = /\((HTTP \d{3}: .*)\)\.( .*)?$/s.exec(error.message);
  if (!match) return `The key was refused (${error.status !== undefined ? `HTTP ${error.status}` : error.message}).`;
  return `The key was refused (${match[1]}).${match[2] ?? ''}`;
}

// The words servers use for an unknown model: OpenAI's model_not_found, Anthropic's
// not_found_error, Ollama's "model 'x' not found", vLLM's "does not exist", OpenRouter's
// "not a valid model ID" (which comes with a 400, not a 404).
const NOT_FOUND_WORDS = /not[_ ]found|does not exist|not a valid model/i;

function isModelNotFound(error: ChatError): boolean {
  if (error.status === 404) return true;
  return error.kind === 'bad_request' && NOT_FOUND_WORDS.test(error.message);
}

function modelNotFound(error: ChatError, config: ModelConfig): string {
  const said = `Model not found: ${config.modelId}.`;
  // What the server said, without the client's own words around it (which name "the model server").
  const detail = /\(HTTP \d{3}: (.*)\)/s.exec(error.message)?.[1] ?? error.message;
  // A 404 that does not speak of a model is often a base URL missing its /v1: say so too.
  if (error.status === 404 && !detail.includes(config.modelId) && !/model/i.test(detail)) {
    return `${said} ${urlTried(config)} answered HTTP 404: if the model exists there, check the base URL.`;
  }
  return said;
}
