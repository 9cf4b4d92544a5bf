/**
 * ask, finish (with Stop hooks), use_skill, and the model's malformed calls, end to end.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FAILED_FINISHES } from '../../../../../shared/limits.js';
import { providerCases, startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const anthropic = providerCases[0]!;
const lastResults = (h: Harness) => anthropic.read(h.fake.requests.at(-1)!).priorResults;

async function writeHooks(h: Harness, stop: string[][]) {
  await fs.mkdir(path.join(h.workspace, '.gatehouse'), { recursive: true });
  await fs.writeFile(path.join(h.workspace, '.gatehouse/settings.json'), JSON.stringify({ hooks: { stop } }));
}

describe('ask', () => {
  it('logs a question, blocks the turn, and returns the answer as the tool result', async () => {
    h = await startHarness();
    h.fake.enqueue(
      { toolCalls: [{ name: 'ask', input: { question: 'Which file?', options: ['a.txt', 'b.txt'] } }] },
      { text: 'ok' },
    );
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const q = await h.event(id, 'question');
    expect(q).toMatchObject({ question: 'Which file?', options: ['a.txt', 'b.txt'] });
    expect((await h.call('sessions.list', {}))[0]).toMatchObject({ status: 'waiting', waiting: 1 });
    const refused = await h.raw('session.send', { id, text: 'another' });
    expect(refused).toEqual({ ok: false, error: 'answer the open question first' });
    await h.call('question.answer', { id, questionId: q.questionId, text: 'b.txt' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    expect(lastResults(h).at(-1)!.text).toBe('b.txt');
  });

  it('refuses an answer to a question that is not open, changing nothing', async () => {
    h = await startHarness();
    const id = await h.open();
    const before = await h.events(id);
    expect(await h.raw('question.answer', { id, questionId: 'nope', text: 'x' })).toEqual({
      ok: false,
      error: 'no open question with id nope',
    });
    expect(await h.events(id)).toEqual(before);
  });
});

describe('finish and the Stop hooks', () => {
  it('sends a failing hook output back to the model, then ends the turn once the hooks pass', async () => {
    h = await startHarness();
    await writeHooks(h, [['sh', '-c', 'test -f fixed || { echo "tests failed: 1"; exit 1; }']]);
    h.fake.enqueue(
      { toolCalls: [{ name: 'finish', input: { summary: 'first try' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: 'fixed', content: '' } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 'fixed it' } }] },
    );
    const id = await h.open();
    await h.call('session.send', { id, text: 'fix' });
    const answerCard = async () => {
      const seen = new Set<string>();
      for (;;) {
        const card = await h!.event(id, 'card', (c) => !seen.has(c.cardId));
        seen.add(card.cardId);
        const answer = card.body.kind === 'command' ? 'allow_session' : 'allow_once';
        await h!.call('card.answer', { id, cardId: card.cardId, answer });
        if (seen.size === 2) return;
      }
    };
    await answerCard();
    const ended = await h.event(id, 'turn_ended');
    expect(ended.reason).toBe('finished');
    const events = await h.events(id);
    const hooks = events.filter((e) => e.type === 'hook_run');
    expect(hooks.map((e) => e.type === 'hook_run' && e.ok)).toEqual([false, true]);
    const results = events.filter((e) => e.type === 'result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ summary: 'fixed it' });
    const firstFinish = anthropic.read(h.fake.requests[1]!).priorResults.at(-1)!;
    expect(firstFinish.text).toContain('tests failed: 1');
    // The hook's command was granted for the session, so the second finish asked no card.
    expect(events.filter((e) => e.type === 'card')).toHaveLength(2);
  });

  it(`ends the turn after ${MAX_FAILED_FINISHES} failed finishes and says why`, async () => {
    h = await startHarness();
    await writeHooks(h, [['false']]);
    for (let i = 0; i < MAX_FAILED_FINISHES; i++) {
      h.fake.enqueue({ toolCalls: [{ name: 'finish', input: { summary: `try ${i}` } }] });
    }
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_session' });
    const ended = await h.event(id, 'turn_ended');
    expect(ended.reason).toBe('error');
    expect(ended.message).toContain(`finish failed ${MAX_FAILED_FINISHES} times`);
    const events = await h.events(id);
    expect(events.filter((e) => e.type === 'hook_run')).toHaveLength(MAX_FAILED_FINISHES);
    expect(events.find((e) => e.type === 'result')).toMatchObject({ summary: expect.stringContaining('Stop hooks') });
    expect(h.fake.requests).toHaveLength(MAX_FAILED_FINISHES);
    expect((await h.call('sessions.list', {}))[0]!.status).toBe('error');
  });

  it('counts a step with plain text and no tool call as finish with that text', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'All done, nothing to change.' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'check' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    expect((await h.events(id)).find((e) => e.type === 'result')).toMatchObject({
      summary: 'All done, nothing to change.',
    });
  });

  it('a Stop hook the user denies is skipped, not run, and does not block the finish', async () => {
    h = await startHarness();
    await writeHooks(h, [['touch', 'hook-ran']]);
    h.fake.enqueue({ toolCalls: [{ name: 'finish', input: { summary: 's' } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    expect(card.body).toMatchObject({ kind: 'command', argv: ['touch', 'hook-ran'] });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    await expect(fs.access(path.join(h.workspace, 'hook-ran'))).rejects.toThrow();
  });
});

describe('use_skill', () => {
  it("returns the skill's instructions and lists the other files in its folder", async () => {
    h = await startHarness();
    const dir = path.join(h.home, '.gatehouse/skills/deploy');
    await fs.mkdir(path.join(dir, 'scripts'), { recursive: true });
    await fs.writeFile(
      path.join(dir, 'SKILL.md'),
      '---\nname: deploy\ndescription: Ship it\n---\nRun the deploy script.',
    );
    await fs.writeFile(path.join(dir, 'scripts/deploy.sh'), 'echo hi');
    h.fake.enqueue(
      { toolCalls: [{ name: 'use_skill', input: { name: 'deploy' } }] },
      { toolCalls: [{ name: 'use_skill', input: { name: 'nope' } }] },
      { text: 'ok' },
    );
    const id = await h.open();
    await h.call('session.send', { id, text: 'deploy' });
    await h.event(id, 'turn_ended');
    expect(anthropic.read(h.fake.requests[0]!).system).toContain('deploy: Ship it');
    const results = lastResults(h);
    expect(results[0]!.text).toContain('Run the deploy script.');
    expect(results[0]!.text).toContain('scripts/deploy.sh');
    expect(results[0]!.text).not.toContain('name: deploy');
    expect(results[1]!.text).toContain('no skill named "nope" (skills: deploy)');
  });
});

describe("the model's malformed calls become tool errors and the turn goes on", () => {
  it('malformed JSON, an unknown tool, wrong types, an unknown field and a 10 MB argument', async () => {
    h = await startHarness();
    const huge = 'x'.repeat(10 * 1024 * 1024);
    h.fake.enqueue(
      {
        toolCalls: [
          { name: 'read_file', rawInput: '{"path": "a.txt"' },
          { name: 'delete_everything', input: {} },
          { name: 'read_file', input: { path: 42 } },
          { name: 'list_dir', input: { path: '.', colour: 'red' } },
          { name: 'write_file', input: { path: 'big.txt', content: huge } },
        ],
      },
      { text: 'giving up' },
    );
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    const results = (await h.events(id)).filter((e) => e.type === 'tool_result');
    expect(results).toHaveLength(5);
    expect(results.every((r) => r.type === 'tool_result' && !r.ok)).toBe(true);
    const texts = results.map((r) => (r.type === 'tool_result' ? r.output : ''));
    expect(texts[0]).toMatch(/JSON/);
    expect(texts[1]).toContain('delete_everything');
    expect(texts[2]).toContain('path');
    expect(texts[3]).toContain('colour');
    expect(texts[4]).toMatch(/262144|256 KiB/);
    await expect(fs.access(path.join(h.workspace, 'big.txt'))).rejects.toThrow();
    // The 10 MB argument is kept, as a blob the event names, not inline in events.jsonl.
    const call = (await h.events(id)).find((e) => e.type === 'tool_call' && e.tool === 'write_file');
    expect(call?.type === 'tool_call' && call.argsBlob).toMatch(/^[0-9a-f]{64}$/);
    const log = await fs.stat(path.join(h.dataDir, 'sessions', id, 'events.jsonl'));
    expect(log.size).toBeLessThan(1024 * 1024);
  });
});

describe('provider failures', () => {
  it('retries a 429 and a stream that closes mid-message, then succeeds', async () => {
    h = await startHarness();
    h.fake.enqueue({ status: 429 }, { text: 'partial answer that', closeMidStream: true }, { text: 'complete answer' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    expect(h.fake.requests).toHaveLength(3);
    expect((await h.events(id)).filter((e) => e.type === 'assistant_text')).toMatchObject([
      { text: 'complete answer' },
    ]);
    expect(h.pushes.some((p) => p.name === 'session.delta' && p.payload.reset)).toBe(true);
  });

  it('ends the turn on a 401 with a "check your key" error after exactly one request, and stays usable', async () => {
    h = await startHarness();
    h.fake.enqueue({ status: 401 }, { text: 'second turn works' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const ended = await h.event(id, 'turn_ended');
    expect(ended.reason).toBe('error');
    expect(ended.message).toMatch(/key/i);
    expect(h.fake.requests).toHaveLength(1);
    expect((await h.call('sessions.list', {}))[0]!.status).toBe('error');
    await h.call('session.send', { id, text: 'again' });
    await h.event(id, 'result');
    // The status follows turn_ended, which comes right after the result.
    await h.event(id, 'turn_ended', (e) => e.reason === 'finished');
    expect((await h.call('sessions.list', {}))[0]!.status).toBe('idle');
  });
});
