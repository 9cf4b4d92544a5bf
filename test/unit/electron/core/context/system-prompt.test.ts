import { describe, expect, it } from 'vitest';
import { systemPrompt } from '../../../../../electron/core/context/system-prompt.js';

describe('the system prompt', () => {
  const prompt = systemPrompt({ workspaceRoot: '/home/me/app', instructions: null, skills: [] });

  it('names the workspace and how the gate works', () => {
    expect(prompt).toContain('/home/me/app');
    expect(prompt).toContain('wait for the user to allow them');
  });

  it('tells the model that commands are confined, and when to ask for network or to run unconfined', () => {
    expect(prompt).toMatch(/runs in a sandbox/);
    expect(prompt).toMatch(/network: true only when the command needs the network/);
    expect(prompt).toMatch(/unconfined: true only after a confined run was "blocked by the sandbox"/);
  });

  it('is the same bytes for the same inputs, so its cache breakpoint keeps hitting', () => {
    expect(systemPrompt({ workspaceRoot: '/home/me/app', instructions: null, skills: [] })).toBe(prompt);
  });

  it('says so plainly where commands cannot be confined, and offers no flags', () => {
    const bare = systemPrompt({
      workspaceRoot: '/home/me/app',
      instructions: null,
      skills: [],
      commands: { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: 'Install bubblewrap.' },
    });
    expect(bare).toContain('Commands cannot be confined on this machine (bubblewrap (bwrap) is not installed)');
    expect(bare).not.toMatch(/runs in a sandbox/);
  });
});
