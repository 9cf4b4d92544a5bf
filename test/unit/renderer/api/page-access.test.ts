/**
 * The page's hold on the web host's token: taken from the fragment (and out of the address
 * bar), kept in sessionStorage for reloads, forgotten when refused, and checked with the
 * host without a socket.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  checkToken,
  forgetToken,
  reloadOnNewToken,
  takePageAccess,
  TOKEN_STORAGE_KEY,
} from '../../../../renderer/src/api/page-access';
import { WIRE_AUTH_PATH } from '../../../../shared/wire';

const TOKEN = 'A'.repeat(43);

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

function fakeHistory() {
  return { state: { kept: true }, replaceState: vi.fn() };
}

describe('takePageAccess', () => {
  it('takes the token from the fragment, keeps it, and takes it out of the address bar', () => {
    const storage = memoryStorage();
    const history = fakeHistory();
    const access = takePageAccess({ hash: `#token=${TOKEN}`, pathname: '/', search: '' }, storage, history);
    expect(access).toEqual({ token: TOKEN, session: null });
    expect(storage.items.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
    expect(history.replaceState).toHaveBeenCalledWith({ kept: true }, '', '/');
  });

  it('a reload (no fragment) finds the kept token and leaves the address alone', () => {
    const storage = memoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, TOKEN);
    const history = fakeHistory();
    expect(takePageAccess({ hash: '', pathname: '/', search: '' }, storage, history)).toEqual({
      token: TOKEN,
      session: null,
    });
    expect(history.replaceState).not.toHaveBeenCalled();
  });

  it('a tab never given one has none; a fresh fragment replaces an old token', () => {
    const storage = memoryStorage();
    expect(takePageAccess({ hash: '#other=1', pathname: '/', search: '' }, storage, fakeHistory())).toEqual({
      token: null,
      session: null,
    });
    storage.setItem(TOKEN_STORAGE_KEY, 'old');
    expect(takePageAccess({ hash: `#token=${TOKEN}`, pathname: '/', search: '' }, storage, fakeHistory())).toEqual({
      token: TOKEN,
      session: null,
    });
    expect(storage.items.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
  });

  it('works for this load when storage is denied', () => {
    const denied = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(takePageAccess({ hash: `#token=${TOKEN}`, pathname: '/', search: '' }, denied, fakeHistory())).toEqual({
      token: TOKEN,
      session: null,
    });
    expect(takePageAccess({ hash: '', pathname: '/', search: '' }, denied, fakeHistory())).toEqual({
      token: null,
      session: null,
    });
    expect(takePageAccess({ hash: `#token=${TOKEN}`, pathname: '/', search: '' }, null, fakeHistory())).toEqual({
      token: TOKEN,
      session: null,
    });
  });

  it('takes the session to show first from this load only, and out of the address bar too', () => {
    const storage = memoryStorage();
    const history = fakeHistory();
    const first = takePageAccess({ hash: `#token=${TOKEN}&session=s-1`, pathname: '/', search: '' }, storage, history);
    expect(first).toEqual({ token: TOKEN, session: 's-1' });
    expect(history.replaceState).toHaveBeenCalledWith({ kept: true }, '', '/');
    expect([...storage.items.keys()]).toEqual([TOKEN_STORAGE_KEY]);
    expect(takePageAccess({ hash: '', pathname: '/', search: '' }, storage, fakeHistory())).toEqual({
      token: TOKEN,
      session: null,
    });
  });

  it('forgetToken drops the kept token', () => {
    const storage = memoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, TOKEN);
    forgetToken(storage);
    expect(storage.items.size).toBe(0);
  });
});

describe('checkToken', () => {
  it(`asks ${WIRE_AUTH_PATH} with the token as a bearer: 204 accepted, 401 refused, anything else unknown`, async () => {
    const seen: [string, RequestInit | undefined][] = [];
    const answering = (status: number) =>
      (async (url: string, init?: RequestInit) => {
        seen.push([url, init]);
        return new Response(null, { status });
      }) as unknown as typeof fetch;
    expect(await checkToken(TOKEN, answering(204))).toBe('accepted');
    expect(await checkToken(TOKEN, answering(401))).toBe('refused');
    expect(await checkToken(TOKEN, answering(502))).toBe('unknown');
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await checkToken(TOKEN, down)).toBe('unknown');
    expect(seen[0]![0]).toBe(WIRE_AUTH_PATH);
    expect(seen[0]![1]?.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
  });
});

describe('reloadOnNewToken', () => {
  it('reloads when the fragment brings a token (the printed URL opened in this tab after a host restart), not otherwise', () => {
    let onHashChange = () => {};
    const page = {
      location: { hash: '', reload: vi.fn() },
      addEventListener: (type: string, listener: () => void) => {
        if (type === 'hashchange') onHashChange = listener;
      },
    };
    reloadOnNewToken(page as unknown as Window);
    page.location.hash = '#other';
    onHashChange();
    expect(page.location.reload).not.toHaveBeenCalled();
    page.location.hash = `#token=${TOKEN}`;
    onHashChange();
    expect(page.location.reload).toHaveBeenCalledTimes(1);
  });
});
