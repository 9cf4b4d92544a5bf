/**
 * Where a key may travel (SPEC §11): https anywhere, plain http only to loopback.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, keepsKeyPrivate, plainHttpKeyProblem } from '../../../shared/key-transport.js';

describe('keepsKeyPrivate', () => {
  it.each([
    ['http://10.0.0.5', false],
    ['http://10.0.0.5:8080/v1', false],
    ['http://example.com', false],
    ['http://example.com/v1', false],
    // A name that only starts like loopback is someone else's host.
    ['http://127.0.0.1.example.com', false],
    ['http://localhost.example.com', false],
    // IPv4-mapped loopback is not on the list: refusing it is the safe side.
    ['http://[::ffff:127.0.0.1]:1234', false],
    ['http://[fd00::2]:1234', false],
    ['ftp://127.0.0.1', false],
    ['not a url', false],
    ['http://127.0.0.1:11434/v1', true],
    ['http://127.0.0.2:11434', true],
    ['http://127.255.255.254', true],
    // The URL parser normalises other spellings of 127.0.0.1 first.
    ['http://2130706433/', true],
    ['http://0x7f.1/', true],
    ['http://localhost', true],
    ['http://LOCALHOST:1234/v1', true],
    ['http://[::1]:1234', true],
    ['https://example.com/v1', true],
    ['https://10.0.0.5', true],
    ['https://api.anthropic.com/v1', true],
  ])('%s → %s', (url, expected) => {
    expect(keepsKeyPrivate(url)).toBe(expected);
  });

  it('names exactly the loopback hosts', () => {
    expect(['localhost', '[::1]', '127.0.0.1', '127.9.8.7'].every(isLoopbackHost)).toBe(true);
    expect(['128.0.0.1', '10.0.0.5', '::1', 'localhost.', '0.0.0.0'].some(isLoopbackHost)).toBe(false);
  });
});

describe('plainHttpKeyProblem', () => {
  const remote = 'http://user:secret@10.0.0.5:8080/v1?token=t';

  it('refuses Anthropic and OpenAI over plain http to another host, whatever the key', () => {
    for (const provider of ['anthropic', 'openai'] as const) {
      const problem = plainHttpKeyProblem({ provider, baseURL: remote }, false);
      expect(problem).toContain('plain http to http://10.0.0.5:8080');
      expect(problem).toContain('https://');
      // The message never repeats credentials the URL may carry.
      expect(problem).not.toMatch(/secret|token=|user/);
    }
  });

  it('refuses an OpenAI-compatible server over plain http only when a key is saved for it', () => {
    expect(plainHttpKeyProblem({ provider: 'openai-compatible', baseURL: remote }, false)).toBeNull();
    expect(plainHttpKeyProblem({ provider: 'openai-compatible', baseURL: remote }, true)).toContain('plain http');
  });

  it('lets loopback servers (Ollama, LM Studio), https and the default URLs through', () => {
    expect(
      plainHttpKeyProblem({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1' }, true),
    ).toBeNull();
    expect(
      plainHttpKeyProblem({ provider: 'openai-compatible', baseURL: 'http://localhost:1234/v1' }, true),
    ).toBeNull();
    expect(plainHttpKeyProblem({ provider: 'anthropic', baseURL: 'http://[::1]:8080' }, false)).toBeNull();
    expect(plainHttpKeyProblem({ provider: 'openai', baseURL: 'https://proxy.example.com/v1' }, false)).toBeNull();
    expect(plainHttpKeyProblem({ provider: 'anthropic' }, false)).toBeNull();
  });
});
