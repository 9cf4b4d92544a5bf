/** The transcript's line when an agent cannot reach a host: the host, why, in words. */
import { describe, expect, it } from 'vitest';
import { refusedWords, unreachableWords } from '../../../../../electron/core/agents/unreachable-words.js';
import { localAddress, notListed } from '../../../../../electron/core/sandbox/network/refusal.js';

describe('the line when an agent cannot reach a host', () => {
  it('names the host and the reason its relay met, and says the agent retries', () => {
    expect(unreachableWords('Claude Code', { host: 'api.anthropic.com:443', why: 'no such host' })).toBe(
      'Claude Code cannot reach api.anthropic.com:443 (no such host); it is retrying',
    );
  });

  it('for a host not on its list, points at the agent’s hosts in Settings, not at a command’s card', () => {
    expect(refusedWords('Claude Code', notListed('api.anthropic.com', 443, ['example.org']))).toBe(
      'Claude Code cannot reach api.anthropic.com: the sandbox blocked it (api.anthropic.com is not on Claude Code’s hosts in Settings → Agents)',
    );
    expect(refusedWords('Gemini CLI', notListed('example.com', 8443, ['x.org']))).toContain(
      'Gemini CLI cannot reach example.com:8443',
    );
  });

  it('for a refusal no list entry would lift, gives the sandbox’s own reason', () => {
    expect(refusedWords('Claude Code', localAddress('intranet.example', 443, '10.0.0.5', 'a private address'))).toBe(
      'Claude Code cannot reach intranet.example: the sandbox blocked it (intranet.example resolves to 10.0.0.5, a private address; commands never reach this machine or its local network)',
    );
  });
});
