import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Reply } from '../../../../shared/contract';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { errorWords, useCall } from '../../../../renderer/src/api/use-call';
import { createFakeApi, type FakeApi } from '../fake-api';

type Folders = { folders: string[] };

/** A `folders.complete` that answers only when the test says, in any order. */
function heldReplies(fake: FakeApi) {
  const held = new Map<string, (reply: Reply<Folders>) => void>();
  const failed = new Map<string, (error: unknown) => void>();
  fake.respond(
    'folders.complete',
    ({ prefix }) =>
      new Promise<Reply<Folders>>((resolve, reject) => {
        held.set(prefix, resolve);
        failed.set(prefix, reject);
      }),
  );
  return {
    answer: (prefix: string, folders: string[]) => act(async () => held.get(prefix)!({ ok: true, data: { folders } })),
    refuse: (prefix: string, error: string) => act(async () => held.get(prefix)!({ ok: false, error })),
    reject: (prefix: string, error: unknown) => act(async () => failed.get(prefix)!(error)),
  };
}

function renderComplete(fake = createFakeApi()) {
  const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider api={fake.api}>{children}</ApiProvider>;
  const hook = renderHook(() => useCall((api, prefix: string) => api['folders.complete']({ prefix })), { wrapper });
  return { ...hook, fake, replies: heldReplies(fake) };
}

describe('useCall: one request hook', () => {
  it('starts idle: nothing pending, no error, no data', () => {
    const { result } = renderComplete();
    expect(result.current).toMatchObject({ pending: false, error: null, data: undefined, args: undefined });
  });

  it('is pending while the call waits, then holds what it answered', async () => {
    const { result, replies, fake } = renderComplete();
    act(() => void result.current.run('~/sr'));
    expect(fake.requestsOf('folders.complete')).toEqual([{ prefix: '~/sr' }]);
    expect(result.current).toMatchObject({ pending: true, error: null, args: ['~/sr'] });
    await replies.answer('~/sr', ['~/src/']);
    expect(result.current).toMatchObject({ pending: false, error: null, data: { folders: ['~/src/'] } });
  });

  it('shows an {ok: false} reply as its error words, and keeps the last data', async () => {
    const { result, replies } = renderComplete();
    act(() => void result.current.run('~/a'));
    await replies.answer('~/a', ['~/a1/']);
    act(() => void result.current.run('~/b'));
    await replies.refuse('~/b', 'no such folder: ~/b');
    expect(result.current).toMatchObject({
      pending: false,
      error: 'no such folder: ~/b',
      data: { folders: ['~/a1/'] },
    });
  });

  it('turns a rejected call into an error in words, and run still resolves', async () => {
    const { result, replies } = renderComplete();
    let reply: Promise<Reply<Folders>> | undefined;
    act(() => {
      reply = result.current.run('~/x');
    });
    await replies.reject('~/x', new Error('the socket closed'));
    expect(result.current).toMatchObject({ pending: false, error: 'the socket closed' });
    await expect(reply).resolves.toEqual({ ok: false, error: 'the socket closed' });
  });

  it('says something even when the rejection has no words', () => {
    expect(errorWords(new Error(''))).toBe('something went wrong (no message)');
    expect(errorWords('plain text')).toBe('plain text');
  });

  it('a call that throws before it has a promise is an error too', async () => {
    const fake = createFakeApi();
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider api={fake.api}>{children}</ApiProvider>;
    const { result } = renderHook(
      () =>
        useCall((): Promise<Reply<number>> => {
          throw new TypeError('not a function');
        }),
      { wrapper },
    );
    await act(async () => void (await result.current.run()));
    expect(result.current).toMatchObject({ pending: false, error: 'not a function' });
  });

  it('the latest call wins: an older reply that arrives after a newer one is dropped', async () => {
    const { result, replies } = renderComplete();
    let older: Promise<Reply<Folders>> | undefined;
    act(() => {
      older = result.current.run('~/s');
    });
    act(() => void result.current.run('~/sr'));
    await replies.answer('~/sr', ['~/src/']);
    await replies.answer('~/s', ['~/scratch/', '~/src/']);
    expect(result.current).toMatchObject({ pending: false, data: { folders: ['~/src/'] }, args: ['~/sr'] });
    // The caller still learns how its own call went.
    await expect(older).resolves.toEqual({ ok: true, data: { folders: ['~/scratch/', '~/src/'] } });
  });

  it('the latest call wins: an older reply that arrives first does not end the wait', async () => {
    const { result, replies } = renderComplete();
    act(() => void result.current.run('~/s'));
    act(() => void result.current.run('~/sr'));
    await replies.refuse('~/s', 'too slow');
    expect(result.current).toMatchObject({ pending: true, error: null, data: undefined });
    await replies.answer('~/sr', ['~/src/']);
    expect(result.current).toMatchObject({ pending: false, error: null, data: { folders: ['~/src/'] } });
  });

  it('reset forgets the outcome, and a call still on its way no longer counts', async () => {
    const { result, replies } = renderComplete();
    act(() => void result.current.run('~/a'));
    await replies.refuse('~/a', 'refused');
    act(() => result.current.reset());
    expect(result.current).toMatchObject({ pending: false, error: null, data: undefined, args: undefined });
    act(() => void result.current.run('~/b'));
    act(() => result.current.reset());
    await replies.answer('~/b', ['~/b1/']);
    expect(result.current).toMatchObject({ pending: false, data: undefined });
  });

  it('changes no state once the component is gone, and the caller still gets the reply', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result, replies, unmount } = renderComplete();
    let reply: Promise<Reply<Folders>> | undefined;
    act(() => {
      reply = result.current.run('~/a');
    });
    const before = result.current;
    unmount();
    await replies.answer('~/a', ['~/a1/']);
    expect(result.current).toBe(before);
    expect(before.pending).toBe(true);
    await expect(reply).resolves.toEqual({ ok: true, data: { folders: ['~/a1/'] } });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('keeps run and reset the same across renders, and uses the latest render’s call', async () => {
    const fake = createFakeApi();
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider api={fake.api}>{children}</ApiProvider>;
    const { result, rerender } = renderHook(
      ({ base }: { base: string }) => useCall((api, name: string) => api['folders.complete']({ prefix: base + name })),
      { wrapper, initialProps: { base: '/a/' } },
    );
    const { run, reset } = result.current;
    rerender({ base: '/b/' });
    expect(result.current.run).toBe(run);
    expect(result.current.reset).toBe(reset);
    await act(async () => void (await result.current.run('x')));
    expect(fake.requestsOf('folders.complete')).toEqual([{ prefix: '/b/x' }]);
  });
});
