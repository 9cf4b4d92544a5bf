import { describe, expect, it } from 'vitest';
import { createFakeApi, summaryOf } from './fake-api';

describe('the fake api', () => {
  it('records calls and answers with the reply set for them', async () => {
    const fake = createFakeApi();
    fake.reply('sessions.list', [summaryOf({ id: 'a' })]);
    const reply = await fake.api['sessions.list']({});
    expect(reply).toEqual({ ok: true, data: [summaryOf({ id: 'a' })] });
    expect(fake.requestsOf('sessions.list')).toEqual([{}]);
  });

  it('fails a call with the error it was told', async () => {
    const fake = createFakeApi();
    fake.fail('session.send', 'no model');
    expect(await fake.api['session.send']({ id: 'a', text: 'hi' })).toEqual({ ok: false, error: 'no model' });
  });

  it('delivers pushes to subscribers until they unsubscribe', () => {
    const fake = createFakeApi();
    const seen: string[] = [];
    const off = fake.api.subscribe((p) => seen.push(p.name));
    fake.push({ name: 'session.delta', payload: { id: 'a', turnId: 't', text: 'x' } });
    off();
    fake.push({ name: 'session.delta', payload: { id: 'a', turnId: 't', text: 'y' } });
    expect(seen).toEqual(['session.delta']);
    expect(fake.subscriberCount()).toBe(0);
  });
});
