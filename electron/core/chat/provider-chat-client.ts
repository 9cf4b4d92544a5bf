/**
 * ChatClient over the AI SDK: one `streamText` step per call, tools without `execute`,
 * the SDK's own retry off and a step-level retry in its place.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { streamText, type AssistantModelMessage, type LanguageModel, type TextStreamPart, type ToolSet } from 'ai';
import type { ChatClient, StepRequest, StepResult, StepToolCall } from './chat-client.js';
import { messagesWithBreakpoints, systemWithBreakpoint } from './cache-breakpoint.js';
import { ChatError } from './chat-error.js';
import { describeInvalidToolCall } from './invalid-tool-call.js';
import { resolveApiKey, type KeyStore } from './key-store.js';
import { createLanguageModel } from './language-model.js';
import { parseModelConfig, providerLabel, type ModelConfig } from './model-config.js';
import { toChatError } from './provider-failure.js';
import { defaultRetryPolicy, retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { toToolSet } from './sdk-tool-set.js';

export interface ProviderChatClientOptions {
  /** Validated here; an invalid one throws ChatError kind 'config'. */
  config: ModelConfig;
  keys?: KeyStore;
  /** Where ANTHROPIC_API_KEY / OPENAI_API_KEY are read from (process.env in the app). */
  env: Readonly<Record<string, string | undefined>>;
  retry?: Partial<RetryPolicy>;
}

/** What one attempt has already handed to the caller, to be voided if it fails. */
interface Attempt {
  deliveredText: string;
}

type Part = TextStreamPart<ToolSet>;

function toStepToolCall(part: Extract<Part, { type: 'tool-call' }>): StepToolCall {
  const call: StepToolCall = { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
  if (part.invalid) call.error = describeInvalidToolCall(part.error);
  return call;
}

function abortedError(): ChatError {
  return new ChatError('aborted', 'The model call was cancelled.');
}

export class ProviderChatClient implements ChatClient {
  private readonly config: ModelConfig;
  private readonly keys: KeyStore | undefined;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly retry: RetryPolicy;

  constructor(options: ProviderChatClientOptions) {
    this.config = parseModelConfig(options.config);
    this.keys = options.keys;
    this.env = options.env;
    this.retry = { ...defaultRetryPolicy, ...options.retry };
  }

  async step(request: StepRequest): Promise<StepResult> {
    if (request.signal.aborted) throw abortedError();
    const apiKey = await resolveApiKey(this.config.provider, { keys: this.keys, env: this.env });
    const model = createLanguageModel(this.config, apiKey);
    const tools = toToolSet(request.tools);
    for (let retry = 0; ; retry += 1) {
      const attempt: Attempt = { deliveredText: '' };
      try {
        return await this.attempt(model, tools, request, attempt);
      } catch (error) {
        const failure = toChatError(error, { config: this.config, secret: apiKey, aborted: request.signal.aborted });
        if (!failure.retryable) throw failure;
        if (retry >= this.retry.maxRetries) throw this.exhausted(failure, retry);
        await this.wait(request, retry + 1, failure, error, attempt);
      }
    }
  }

  private exhausted(failure: ChatError, retries: number): ChatError {
    if (retries === 0) return failure;
    return failure.withNote(`Gave up after ${retries + 1} attempts.`);
  }

  private async wait(
    request: StepRequest,
    retry: number,
    failure: ChatError,
    cause: unknown,
    attempt: Attempt,
  ): Promise<void> {
    const delayMs = retryDelayMs(this.retry, retry, cause);
    request.onRetry?.({ retry, delayMs, error: failure, discardedText: attempt.deliveredText });
    try {
      await sleep(delayMs, undefined, { signal: request.signal });
    } catch {
      throw abortedError();
    }
  }

  private async attempt(
    model: LanguageModel,
    tools: ToolSet,
    request: StepRequest,
    attempt: Attempt,
  ): Promise<StepResult> {
    const result = streamText({
      model,
      instructions: systemWithBreakpoint(this.config.provider, request.system, request.cacheBreakpoints),
      messages: messagesWithBreakpoints(this.config.provider, request.messages, request.cacheBreakpoints),
      tools,
      maxRetries: 0,
      abortSignal: request.signal,
      maxOutputTokens: request.maxOutputTokens ?? this.config.maxOutputTokens,
      providerOptions: this.providerOptions(request),
      // Errors are read from the stream below; the default handler would log them.
      onError: () => {},
    });
    const step: Omit<StepResult, 'assistantMessage'> = { text: '', toolCalls: [], finishReason: 'other' };
    for await (const part of result.stream) {
      this.absorb(part, step, request, attempt);
    }
    if (request.signal.aborted) throw abortedError();
    if (step.finishReason === 'interrupted') throw this.brokeOff();
    const responseMessages = await result.responseMessages;
    const assistant = responseMessages.find(
      (message): message is AssistantModelMessage => message.role === 'assistant',
    );
    return { ...step, assistantMessage: assistant ?? { role: 'assistant', content: [] } };
  }

  private absorb(part: Part, step: Omit<StepResult, 'assistantMessage'>, request: StepRequest, attempt: Attempt): void {
    switch (part.type) {
      case 'text-delta':
        step.text += part.text;
        attempt.deliveredText += part.text;
        request.onTextDelta?.(part.text);
        return;
      case 'tool-call':
        step.toolCalls.push(toStepToolCall(part));
        return;
      case 'finish-step':
        step.finishReason = part.finishReason;
        step.usage = {
          inputTokens: part.usage.inputTokens,
          outputTokens: part.usage.outputTokens,
          cacheReadTokens: part.usage.inputTokenDetails.cacheReadTokens,
          cacheWriteTokens: part.usage.inputTokenDetails.cacheWriteTokens,
        };
        return;
      case 'error':
        throw part.error;
      case 'abort':
        throw abortedError();
    }
  }

  /** OpenAI routes requests that share a cache key to the same cache; other providers have no such option. */
  private providerOptions(request: StepRequest): Record<string, Record<string, string>> | undefined {
    if (this.config.provider !== 'openai' || !request.cacheKey) return undefined;
    return { openai: { promptCacheKey: request.cacheKey } };
  }

  /** A stream that ended cleanly but without the provider's end marker. */
  private brokeOff(): ChatError {
    return new ChatError('network', `The reply from ${providerLabel(this.config)} broke off before it finished.`, {
      retryable: true,
    });
  }
}
