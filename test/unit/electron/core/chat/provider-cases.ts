/**
 * The three providers as the chat tests see them: how to configure each against the fake
 * model, where its key travels, and how to read its request body back into one shape.
 */
import type { ModelConfig } from '../../../../../electron/core/chat/model-config.js';
import type { FakeModel, RecordedRequest } from '../../../../fake-model/server.js';

export const API_KEY = 'sk-test-5f1d9c0a7b3e4d21';

/** A request body read back in provider-neutral terms. */
export interface SentRequest {
  system: string | undefined;
  roles: string[];
  toolNames: string[];
  toolDescriptions: string[];
  /** Tool parameter schemas, as JSON Schema. */
  toolSchemas: unknown[];
  /** Earlier tool calls carried in the history. */
  priorCalls: { id: string; name: string; input: unknown }[];
  /** Earlier tool results carried in the history. */
  priorResults: { id: string; text: string }[];
}

export interface ProviderCase {
  name: ModelConfig['provider'];
  config(fake: FakeModel): ModelConfig;
  /** The env the client gets: the key lives here, or in the key store for openai-compatible. */
  env: Record<string, string>;
  storedKey: string | undefined;
  /** The header that must carry the key, and its expected value. */
  keyHeader: { name: string; value: string };
  read(request: RecordedRequest): SentRequest;
}

type Json = Record<string, unknown>;
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function readAnthropic(request: RecordedRequest): SentRequest {
  const body = request.body as Json;
  const messages = asArray(body.messages);
  const blocks = messages.flatMap((message) => asArray(message.content));
  return {
    system: asArray(body.system)
      .map((block) => block.text)
      .join(''),
    roles: messages.map((message) => String(message.role)),
    toolNames: asArray(body.tools).map((tool) => String(tool.name)),
    toolDescriptions: asArray(body.tools).map((tool) => String(tool.description)),
    toolSchemas: asArray(body.tools).map((tool) => tool.input_schema),
    priorCalls: blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input })),
    priorResults: blocks
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        id: String(block.tool_use_id),
        text:
          typeof block.content === 'string'
            ? block.content
            : asArray(block.content)
                .map((part) => part.text)
                .join(''),
      })),
  };
}

function readOpenAI(request: RecordedRequest): SentRequest {
  const body = request.body as Json;
  const messages = asArray(body.messages);
  const functions = asArray(body.tools).map((tool) => tool.function as Json);
  return {
    system: messages.find((message) => message.role === 'system')?.content as string | undefined,
    roles: messages.filter((message) => message.role !== 'system').map((message) => String(message.role)),
    toolNames: functions.map((fn) => String(fn.name)),
    toolDescriptions: functions.map((fn) => String(fn.description)),
    toolSchemas: functions.map((fn) => fn.parameters),
    priorCalls: messages
      .flatMap((message) => asArray(message.tool_calls))
      .map((call) => {
        const fn = call.function as Json;
        return { id: String(call.id), name: String(fn.name), input: JSON.parse(String(fn.arguments)) as unknown };
      }),
    priorResults: messages
      .filter((message) => message.role === 'tool')
      .map((message) => ({ id: String(message.tool_call_id), text: String(message.content) })),
  };
}

export const providerCases: ProviderCase[] = [
  {
    name: 'anthropic',
    // An explicit cap keeps the SDK from warning about an unknown model id.
    config: (fake) => ({
      provider: 'anthropic',
      modelId: 'claude-test',
      baseURL: fake.anthropicBaseURL,
      maxOutputTokens: 1024,
    }),
    env: { ANTHROPIC_API_KEY: API_KEY },
    storedKey: undefined,
    keyHeader: { name: 'x-api-key', value: API_KEY },
    read: readAnthropic,
  },
  {
    name: 'openai',
    config: (fake) => ({ provider: 'openai', modelId: 'gpt-test', baseURL: fake.openaiBaseURL }),
    env: { OPENAI_API_KEY: API_KEY },
    storedKey: undefined,
    keyHeader: { name: 'authorization', value: `Bearer ${API_KEY}` },
    read: readOpenAI,
  },
  {
    name: 'openai-compatible',
    config: (fake) => ({ provider: 'openai-compatible', modelId: 'llama-test', baseURL: fake.openaiBaseURL }),
    env: {},
    storedKey: API_KEY,
    keyHeader: { name: 'authorization', value: `Bearer ${API_KEY}` },
    read: readOpenAI,
  },
];
