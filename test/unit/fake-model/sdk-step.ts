/**
 * One model step through the real AI SDK providers against a fake model server, for the
 * fake model's own tests: what the SDK made of the usage, or the error it surfaced.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import {
  streamText,
  type Instructions,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import type { FakeModel } from '../../fake-model/server.js';

export function anthropicModel(fake: FakeModel): LanguageModel {
  return createAnthropic({ baseURL: fake.anthropicBaseURL, apiKey: 'sk-test' })('claude-test');
}

export function openaiModel(fake: FakeModel): LanguageModel {
  return createOpenAI({ baseURL: fake.openaiBaseURL, apiKey: 'sk-test' }).chat('gpt-test');
}

export interface StepOptions {
  instructions?: Instructions;
  messages: ModelMessage[];
  tools?: ToolSet;
  providerOptions?: Record<string, Record<string, string>>;
}

export type StepOutcome = { usage: LanguageModelUsage; error?: undefined } | { usage?: undefined; error: unknown };

export async function step(model: LanguageModel, options: StepOptions): Promise<StepOutcome> {
  const result = streamText({
    model,
    ...options,
    maxRetries: 0,
    // An explicit cap keeps the SDK from warning about an unknown model id.
    maxOutputTokens: 1024,
    onError: () => {},
  });
  let outcome: StepOutcome | undefined;
  for await (const part of result.stream) {
    if (part.type === 'error') outcome = { error: part.error };
    if (part.type === 'finish-step') outcome = { usage: part.usage };
  }
  if (!outcome) throw new Error('the step ended without finishing');
  return outcome;
}
