import { describe, expect, it } from 'vitest';
import { contextOverflow } from '../../../../../electron/core/chat/context-overflow.js';

describe("recognising a provider's too-long refusal", () => {
  it("reads Anthropic's prompt is too long, with both numbers", () => {
    expect(contextOverflow('prompt is too long: 201234 tokens > 200000 maximum')).toEqual({
      tokens: 201_234,
      maximum: 200_000,
    });
  });

  it("reads Anthropic's input plus max_tokens refusal as their sum against the limit", () => {
    expect(
      contextOverflow(
        'input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length',
      ),
    ).toEqual({ tokens: 209_573, maximum: 200_000 });
  });

  it("reads OpenAI's context_length_exceeded wording", () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.";
    expect(contextOverflow(message)).toEqual({ tokens: 130_512, maximum: 128_000 });
    expect(contextOverflow("This model's maximum context length is 8192 tokens.")).toEqual({
      tokens: null,
      maximum: 8192,
    });
  });

  it('knows the code alone, without numbers', () => {
    expect(contextOverflow('{"error":{"code":"context_length_exceeded"}}')).toEqual({ tokens: null, maximum: null });
  });

  it('is null for any other refusal', () => {
    expect(
      contextOverflow('max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens'),
    ).toBeNull();
    expect(contextOverflow('invalid x-api-key')).toBeNull();
  });
});
