/**
 * The fake model speaks the Gemini API as @google/genai (and so Gemini CLI) calls it: a
 * streamed `:streamGenerateContent?alt=sse` of GenerateContentResponse chunks, ending with
 * finishReason and usage; a whole `:generateContent`; the API's error shape; and the
 * request's function declarations readable by a responder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { geminiFunctionDeclarations } from '../../fake-model/gemini-prompt.js';
import { startFakeModel, type FakeModel } from '../../fake-model/server.js';

let fake: FakeModel;
afterEach(async () => {
  await fake.close();
});

const request = {
  contents: [{ role: 'user', parts: [{ text: 'write hello.txt' }] }],
  systemInstruction: { role: 'user', parts: [{ text: 'You are a coding agent.' }] },
  tools: [{ functionDeclarations: [{ name: 'write_file', description: 'Writes a file.' }] }],
};

const post = (path: string, body: unknown = request): Promise<Response> =>
  fetch(`${fake.geminiBaseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The JSON of each SSE `data:` line. */
async function chunks(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);
}

type Candidate = { content: { role: string; parts: Record<string, unknown>[] }; finishReason?: string };
const candidate = (chunk: Record<string, unknown>): Candidate => (chunk.candidates as Candidate[])[0]!;

describe('the fake model’s Gemini wire', () => {
  it('streams text in chunks, each function call whole, and ends with STOP and the counted usage', async () => {
    fake = await startFakeModel();
    fake.enqueue({
      text: 'I will write it.',
      toolCalls: [{ name: 'write_file', input: { file_path: 'a', content: 'x' } }],
    });

    const response = await post('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');

    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const all = await chunks(response);
    const parts = all.flatMap((c) => candidate(c).content.parts);
    expect(parts.flatMap((p) => (typeof p.text === 'string' ? [p.text] : [])).join('')).toBe('I will write it.');
    expect(parts.filter((p) => p.functionCall)).toEqual([
      { functionCall: { name: 'write_file', args: { file_path: 'a', content: 'x' } } },
    ]);
    const last = all.at(-1)!;
    expect(candidate(last).finishReason).toBe('STOP');
    expect(all.slice(0, -1).every((c) => candidate(c).finishReason === undefined)).toBe(true);
    const counted = fake.requests[0]!.inputTokens;
    expect(counted).toBeGreaterThan(0);
    expect(last.usageMetadata).toMatchObject({ promptTokenCount: counted });
    expect(fake.requests[0]).toMatchObject({
      wire: 'gemini',
      path: '/v1beta/models/gemini-test:streamGenerateContent',
    });
  });

  it('answers :generateContent whole, as one JSON response', async () => {
    fake = await startFakeModel();
    fake.enqueue({ text: '{"complexity_score": 10}' });

    const response = await post('/v1beta/models/gemini-test:generateContent');

    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(candidate(body)).toMatchObject({
      content: { role: 'model', parts: [{ text: '{"complexity_score": 10}' }] },
      finishReason: 'STOP',
    });
  });

  it('lets a responder read the request’s function declarations', async () => {
    fake = await startFakeModel();
    fake.setResponder((r) => ({
      text: geminiFunctionDeclarations(r.body)
        .map((d) => String(d.name))
        .join(','),
    }));

    const body = (await (await post('/v1beta/models/gemini-test:generateContent')).json()) as Record<string, unknown>;

    expect(candidate(body).content.parts).toEqual([{ text: 'write_file' }]);
  });

  it('answers errors in the API’s own shape, and a request over the window with its input-count message', async () => {
    fake = await startFakeModel({ contextWindow: 5 });

    const tooLong = await post('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      error: {
        code: 400,
        message: `The input token count (${fake.requests[0]!.inputTokens}) exceeds the maximum number of tokens allowed (5).`,
        status: 'INVALID_ARGUMENT',
      },
    });

    fake.setContextWindow(undefined);
    fake.enqueue({ status: 429 });
    const limited = await post('/v1beta/models/gemini-test:generateContent');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });
});
