/**
 * The one way a component follows a call it makes: whether it is on its way, its error in
 * words, and its result. Every call of the api object answers `{ok: true, data}` or
 * `{ok: false, error}`; a call that rejects instead (a transport's bug, a thrown handler)
 * becomes `{ok: false, error}` too, its message as the words.
 *
 * The latest call wins: a reply that arrives after a newer call was made never changes the
 * state (nor does any reply once the component is gone, or after `reset`). `run` still
 * resolves with that reply, so the caller can do what the call was for (take the text out
 * of the draft, keep the new settings) whichever call the screen follows.
 *
 *   const remove = useCall((api, messageId: string) => api['session.unqueue']({ id, messageId }));
 *   <button disabled={remove.pending} onClick={() => void remove.run(m.messageId)}>
 *   {remove.error && <p role="alert">Could not remove it: {remove.error}</p>}
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Reply } from '../../../shared/contract';
import { useApi } from './api-context';
import type { RendererApi } from './types';

export interface CallState<A extends unknown[], T> {
  /** The latest call is on its way. */
  pending: boolean;
  /** Why the latest call failed, in words; null while it is on its way and after it went through. */
  error: string | null;
  /** What the latest call that went through answered; kept while a newer one is on its way or failed. */
  data: T | undefined;
  /** What the latest call was made with (undefined before the first, and after `reset`). */
  args: A | undefined;
}

export interface Call<A extends unknown[], T> extends CallState<A, T> {
  /** Makes the call; resolves with its reply (never rejects), whether or not it still counts. */
  run(...args: A): Promise<Reply<T>>;
  /** Back to the start: no error, no data, and the calls on their way no longer count. */
  reset(): void;
}

/** The words for what a call rejected with. */
export function errorWords(error: unknown): string {
  const words = error instanceof Error ? error.message : String(error);
  return words === '' ? 'something went wrong (no message)' : words;
}

/** A call's reply; a rejection becomes a failed reply saying why. */
export function settled<T>(reply: Promise<Reply<T>>): Promise<Reply<T>> {
  return reply.then(
    (r) => r,
    (error: unknown) => ({ ok: false, error: errorWords(error) }),
  );
}

const START: CallState<never, never> = { pending: false, error: null, data: undefined, args: undefined };

/**
 * `call` gets the api object and `run`'s arguments and makes the call (or a few, or none:
 * any function of the api that resolves to a reply). It may be a new function every render;
 * `run` uses the one of the latest render, and `run` and `reset` themselves never change.
 */
export function useCall<A extends unknown[], T>(call: (api: RendererApi, ...args: A) => Promise<Reply<T>>): Call<A, T> {
  const api = useApi();
  const [state, setState] = useState<CallState<A, T>>(START);
  const latest = useRef({ call, api });
  /** Numbers the calls; only the one numbered `asked.current` may change the state. */
  const asked = useRef(0);
  const mounted = useRef(false);

  useLayoutEffect(() => {
    latest.current = { call, api };
  });

  // A layout effect, so a call made from any passive effect (a child's too) already counts.
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (...args: A): Promise<Reply<T>> => {
    const ticket = ++asked.current;
    const counts = () => mounted.current && ticket === asked.current;
    if (mounted.current) setState((s) => ({ pending: true, error: null, data: s.data, args }));
    const { call: make, api: current } = latest.current;
    let reply: Reply<T>;
    try {
      reply = await settled(make(current, ...args));
    } catch (error) {
      // `call` threw before it had a promise to give.
      reply = { ok: false, error: errorWords(error) };
    }
    if (counts()) {
      setState((s) =>
        reply.ok
          ? { pending: false, error: null, data: reply.data, args }
          : { pending: false, error: reply.error, data: s.data, args },
      );
    }
    return reply;
  }, []);

  const reset = useCallback(() => {
    asked.current += 1;
    setState(START);
  }, []);

  return useMemo(() => ({ ...state, run, reset }), [state, run, reset]);
}
