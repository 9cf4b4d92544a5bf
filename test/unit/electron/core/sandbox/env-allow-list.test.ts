/**
 * The environment's allow-list as data (SPEC §9): each entry says why, each secret-looking
 * pattern drops every name its comment gives (even one the allow-list would pass), and an
 * allowed variable keeps its value without the credentials of a URL in it.
 */
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_ENV_NAMES,
  allowedEnv,
  looksSecret,
  SECRET_NAME_PATTERNS,
  withoutUrlCredentials,
} from '../../../../../electron/core/sandbox/env-allow-list.js';

/** The variable names a comment gives as examples ("OPENAI_API_KEY, STRIPE_KEY, …"). */
const namesIn = (why: string) => why.match(/\b[A-Z][A-Z0-9_]*[A-Z0-9]\b/g) ?? [];

describe('the environment allow-list', () => {
  it('says why each name is allowed', () => {
    for (const { name, why } of ALLOWED_ENV_NAMES) expect(why.trim().length, name).toBeGreaterThan(2);
  });

  it('drops every name each secret pattern gives as an example', () => {
    for (const { pattern, why } of SECRET_NAME_PATTERNS) {
      for (const name of namesIn(why)) expect(looksSecret(name), `${name} (${String(pattern)})`).toBe(true);
    }
  });

  it('drops a name ending in _KEY even where the allow-list passes its prefix (LC_*) or the caller adds it', () => {
    const env = { LC_SIGNING_KEY: 'k', STRIPE_KEY: 'k', LC_ALL: 'C.UTF-8' };
    expect(allowedEnv(env, ['STRIPE_KEY'])).toEqual({ LC_ALL: 'C.UTF-8' });
  });
});

describe('an allowed variable’s value', () => {
  it('loses the user and password of each URL in it, and keeps the rest', () => {
    expect(allowedEnv({ GOPROXY: 'https://user:token@proxy.corp/go' })).toEqual({ GOPROXY: 'https://proxy.corp/go' });
    expect(withoutUrlCredentials('https://u:t1@a.corp,https://proxy.golang.org|https://t2@b.corp,direct')).toBe(
      'https://a.corp,https://proxy.golang.org|https://b.corp,direct',
    );
    // A password with an @ in it goes whole.
    expect(withoutUrlCredentials('https://u:p@ss@host/x')).toBe('https://host/x');
    expect(withoutUrlCredentials('git+ssh://git@github.com/o/r')).toBe('git+ssh://github.com/o/r');
  });

  it('is left as it is without a URL credential', () => {
    for (const value of ['https://proxy.golang.org', 'direct', '/usr/lib/ssl/cert.pem', 'https://host/a@b', '-O2']) {
      expect(withoutUrlCredentials(value)).toBe(value);
    }
  });
});
