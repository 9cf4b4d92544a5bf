/**
 * The fake model speaks OpenAI's Responses API (`POST …/responses`, Codex's wire): typed SSE
 * events, each output item announced and closed whole, a free-form tool's call as a
 * `custom_tool_call`, and `response.completed` last with the usage.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModel } from '../../fake-model/server.js';

let fake: FakeModel | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

type Event = { type: string; [key: string]: unknown };

async function events(model: FakeModel): Promise<Event[]> {
  const res = await fetch(`${model.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-x',
      stream: true,
      instructions: 'be brief',
      input: [{ role: 'user', content: 'hi' }],
    }),
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((frame) => {
      const [event, data] = frame.split('\n');
      const parsed = JSON.parse(data!.replace(/^data: /, '')) as Event;
      expect(event).toBe(`event: ${parsed.type}`);
      return parsed;
    });
}

describe('the fake Responses API', () => {
  it('streams text, a function call and a free-form call as output items, then the completed response with usage', async () => {
    fake = await startFakeModel();
    fake.enqueue({
      text: 'On it.',
      toolCalls: [
        { name: 'shell', input: { cmd: 'ls' } },
        { name: 'exec', input: 'text("hi")' },
      ],
    });

    const got = await events(fake);

    expect(got[0]?.type).toBe('response.created');
    expect(
      got
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('On it.');
    const done = got
      .filter((e) => e.type === 'response.output_item.done')
      .map((e) => e.item as Record<string, unknown>);
    expect(done.map((i) => i.type)).toEqual(['message', 'function_call', 'custom_tool_call']);
    expect(done[1]).toMatchObject({ name: 'shell', arguments: '{"cmd":"ls"}', call_id: 'call_0_0' });
    expect(done[2]).toMatchObject({ name: 'exec', input: 'text("hi")', call_id: 'call_0_1' });
    const completed = got.at(-1)!;
    expect(completed.type).toBe('response.completed');
    expect(completed.response).toMatchObject({ status: 'completed', usage: { input_tokens: expect.any(Number) } });
    expect(got.map((e) => e.sequence_number)).toEqual(got.map((_, i) => i));
    expect(fake.requests[0]).toMatchObject({ path: '/v1/responses', wire: 'openai' });
    expect(fake.requests[0]!.inputTokens).toBeGreaterThan(0);
  });
});
