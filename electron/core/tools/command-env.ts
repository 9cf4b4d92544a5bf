/**
 * The environment a command runs with (SPEC §2 and §5): the app's own, minus the model
 * providers' API keys and any other secret the app holds. A key must never reach a
 * command, so a variable goes when its name is a known key name, or when its value is
 * (or carries) a secret value the app holds, whatever the variable is called.
 */

/** Well-known names under which model providers' keys live in an environment. */
export const PROVIDER_KEY_NAMES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GEMINI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
  'TOGETHER_API_KEY',
  'FIREWORKS_API_KEY',
  'COHERE_API_KEY',
  'PERPLEXITY_API_KEY',
  'CEREBRAS_API_KEY',
];

export interface SecretsToRemove {
  /** Further variable names to drop, on top of PROVIDER_KEY_NAMES. */
  secretNames?: readonly string[];
  /** Secret values the app holds (keys from settings, say); any variable carrying one is dropped. */
  secretValues?: readonly string[];
}

/**
 * Values shorter than this are matched only whole: a short value found inside another
 * variable is far more likely chance than a leaked key, and real keys are much longer.
 */
const MIN_EMBEDDED_SECRET_LENGTH = 8;

export function commandEnv(env: NodeJS.ProcessEnv, secrets: SecretsToRemove = {}): NodeJS.ProcessEnv {
  const names = new Set([...PROVIDER_KEY_NAMES, ...(secrets.secretNames ?? [])]);
  const values = (secrets.secretValues ?? []).map((v) => v.trim()).filter((v) => v.length > 0);
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || names.has(name) || carriesSecret(value, values)) continue;
    result[name] = value;
  }
  return result;
}

function carriesSecret(value: string, secrets: readonly string[]): boolean {
  const trimmed = value.trim();
  return secrets.some((s) => trimmed === s || (s.length >= MIN_EMBEDDED_SECRET_LENGTH && value.includes(s)));
}
