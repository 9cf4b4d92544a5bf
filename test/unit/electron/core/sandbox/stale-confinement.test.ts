import { describe, expect, it } from 'vitest';
import type { CommandCardBody, CommandSandbox } from '../../../../../shared/cards.js';
import { staleReason } from '../../../../../electron/core/gate/card-body.js';
import type { CommandPlan } from '../../../../../electron/core/tools/tool-def.js';

const confined: CommandSandbox = {
  confined: true,
  network: false,
  git: false,
  home: '/h',
  writable: ['/w'],
  readOnly: [],
  shown: ['/h/.cargo/bin'],
  hidden: ['/d'],
};
const body: CommandCardBody = { kind: 'command', tool: 'run', argv: ['make'], cwd: '/w', sandbox: confined };
const plan = (sandbox: CommandSandbox): CommandPlan => ({
  kind: 'command',
  tool: 'run',
  argv: ['make'],
  cwd: '/w',
  timeoutS: 120,
  customTimeout: false,
  network: false,
  unconfined: false,
  git: false,
  sandbox,
  args: { argv: ['make'] },
});

describe('an answer to a command card, when the sandbox changed meanwhile', () => {
  it('is dropped when the command could no longer be confined, or would get the network or write elsewhere', () => {
    expect(staleReason(body, plan({ confined: false, reason: 'bubblewrap (bwrap) is not installed' }))).toBe(
      'the command can no longer be confined (bubblewrap (bwrap) is not installed)',
    );
    expect(staleReason(body, plan({ ...confined, network: true }))).toBe("the command's network access changed");
    expect(staleReason(body, plan({ ...confined, writable: ['/'] }))).toBe('where the command may write changed');
    expect(staleReason(body, plan({ ...confined, readOnly: ['/w/.claude'] }))).toBe(
      'where the command may write changed',
    );
    expect(staleReason(body, plan({ ...confined, shown: ['/h/.cargo/bin', '/h/.config'] }))).toBe(
      'what the command can see of your home folder changed',
    );
  });

  it('stands when a shown place went away: the command sees less than its card said', () => {
    expect(staleReason(body, plan({ ...confined, shown: [] }))).toBeNull();
  });

  it('stands when only the hidden places changed, or nothing did', () => {
    expect(staleReason(body, plan(confined))).toBeNull();
    expect(staleReason(body, plan({ ...confined, hidden: ['/d', '/home/u/.aws'] }))).toBeNull();
  });
});
