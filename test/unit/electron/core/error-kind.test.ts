/**
 * Every error class of the core says what kind of failure it is, where the class is made,
 * and the host decides from that kind alone: every error is answered in words, and only
 * an internal one (or one of no known kind) is also reported as unexpected.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentCallError } from '../../../../electron/core/agents/agent-calls-port.js';
import { AgentInstallError } from '../../../../electron/core/agents/agent-installs.js';
import { AgentModelEndpointError } from '../../../../electron/core/agents/agent-model-endpoint.js';
import { AgentStopped } from '../../../../electron/core/agents/acp-link.js';
import { AcpCheckFailed } from '../../../../electron/core/agents/acp-check.js';
import { CardWithdrawal } from '../../../../electron/core/gate/gate-error.js';
import { PlaceError } from '../../../../electron/core/places/place-error.js';
import { GateSocketError } from '../../../../electron/core/agents/gate-socket.js';
import { UnknownGateToolError } from '../../../../electron/core/agents/gate-mcp-tools.js';
import { ChatError } from '../../../../electron/core/chat/chat-error.js';
import { CheckpointError } from '../../../../electron/core/checkpoints/session-checkpoints.js';
import { GitError } from '../../../../electron/core/checkpoints/git-run.js';
import { ContextFullError } from '../../../../electron/core/context/context-full-error.js';
import { errorKindOf, type ErrorKind } from '../../../../electron/core/error-kind.js';
import { CancelledError, GateError } from '../../../../electron/core/gate/gate-error.js';
import { Host, type HostDeps } from '../../../../electron/core/host.js';
import { BlobNotFoundError } from '../../../../electron/core/log/blob-store.js';
import { LogCorruptError } from '../../../../electron/core/log/event-lines.js';
import { InvalidSessionIdError } from '../../../../electron/core/log/session-id.js';
import { MetaError } from '../../../../electron/core/log/session-meta.js';
import { SessionNotFoundError } from '../../../../electron/core/log/session-store.js';
import { FolderCompletionError } from '../../../../electron/core/paths/folder-completion.js';
import { NotAFileError } from '../../../../electron/core/paths/regular-file.js';
import { WorkspaceRefusedError } from '../../../../electron/core/paths/workspace-refusal.js';
import { PathEscapeError, PathInputError } from '../../../../electron/core/paths/workspace.js';
import { StartCancelled } from '../../../../electron/core/process/process-group.js';
import { CommandStartError } from '../../../../electron/core/process/start-error.js';
import { SandboxRefusal } from '../../../../electron/core/sandbox/sandbox.js';
import { SessionError } from '../../../../electron/core/sessions/session-error.js';
import { KeysUnavailableError } from '../../../../electron/core/settings/encrypted-keys.js';
import { TerminalError } from '../../../../electron/core/terminal/terminal-error.js';
import { FileTooLargeError } from '../../../../electron/core/tools/current-file.js';
import { StalePlanError, ToolError } from '../../../../electron/core/tools/tool-def.js';

/** Each error class of the core, one made as its room makes it, and its kind. */
const KINDS: Array<[string, () => Error, ErrorKind]> = [
  ['SessionError', () => new SessionError('a card is open'), 'refused'],
  ['GateError', () => new GateError('no open card with id c1'), 'refused'],
  ['ChatError', () => new ChatError('auth', 'the key was refused'), 'refused'],
  ['KeysUnavailableError', () => new KeysUnavailableError('keys cannot be stored here'), 'refused'],
  ['SessionNotFoundError', () => new SessionNotFoundError('s1'), 'not-found'],
  ['InvalidSessionIdError', () => new InvalidSessionIdError('../x'), 'refused'],
  ['PathInputError', () => new PathInputError('the path is empty'), 'refused'],
  ['TerminalError', () => new TerminalError('no open terminal with id t1'), 'refused'],
  ['FolderCompletionError', () => new FolderCompletionError('type an absolute path'), 'refused'],
  ['ContextFullError', () => new ContextFullError('the history does not fit'), 'refused'],
  ['BlobNotFoundError', () => new BlobNotFoundError('0'.repeat(64)), 'not-found'],
  ['LogCorruptError', () => new LogCorruptError('events.jsonl', 3, 'not JSON'), 'internal'],
  ['MetaError', () => new MetaError('meta.json', 'not JSON'), 'internal'],
  ['SandboxRefusal', () => new SandboxRefusal('bwrap is missing'), 'refused'],
  ['CancelledError', () => new CancelledError(), 'refused'],
  ['CommandStartError', () => new CommandStartError('nope: not found', 'ENOENT'), 'refused'],
  ['StartCancelled', () => new StartCancelled('cancelled before the start'), 'refused'],
  ['CheckpointError', () => new CheckpointError('there is no undo to redo'), 'refused'],
  ['GitError', () => new GitError('git write-tree failed'), 'internal'],
  ['WorkspaceRefusedError', () => new WorkspaceRefusedError('your home folder is not a workspace'), 'refused'],
  ['PathEscapeError', () => new PathEscapeError('../x', 'dotdot', '/x'), 'refused'],
  ['NotAFileError', () => new NotAFileError('/dev/null is a device'), 'refused'],
  ['FileTooLargeError', () => new FileTooLargeError('/w/a', 10, 5), 'refused'],
  ['ToolError', () => new ToolError('path: required'), 'refused'],
  ['StalePlanError', () => new StalePlanError('the file changed on disk'), 'conflict'],
  ['AgentInstallError', () => new AgentInstallError('npm is not on the PATH'), 'refused'],
  ['AgentCallError', () => new AgentCallError('Claude Code is not installed'), 'refused'],
  ['AgentStopped', () => new AgentStopped('the agent stopped (exit 1)'), 'refused'],
  ['GateSocketError', () => new GateSocketError('the socket path is too long'), 'refused'],
  ['UnknownGateToolError', () => new UnknownGateToolError('no tool grep'), 'refused'],
  [
    'AgentModelEndpointError',
    () => new AgentModelEndpointError('the agents’ model endpoint is not on loopback'),
    'refused',
  ],
  ['AcpCheckFailed', () => new AcpCheckFailed('Claude Code 1.0 did not answer ACP’s initialize'), 'refused'],
  ['CardWithdrawal', () => new CardWithdrawal('the agent cancelled this call'), 'refused'],
  ['PlaceError', () => new PlaceError('this session has no place of its own'), 'refused'],
];

/** The classes the host answered as expected by name before errors had kinds. */
const ONCE_BY_NAME = [
  'SessionError',
  'GateError',
  'ChatError',
  'KeysUnavailableError',
  'SessionNotFoundError',
  'InvalidSessionIdError',
  'PathInputError',
  'TerminalError',
  'FolderCompletionError',
  'ContextFullError',
];

/** Every `class X extends Error` in the core's source, by name. */
async function errorClassesInCore(): Promise<string[]> {
  const root = path.resolve(__dirname, '../../../../electron/core');
  const names: string[] = [];
  for (const file of await fs.readdir(root, { recursive: true })) {
    if (!file.endsWith('.ts')) continue;
    const text = await fs.readFile(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/class (\w+) extends Error\b/g)) names.push(m[1]!);
  }
  return names.sort();
}

/** A host whose every session list fails with `err`, and what it reported as unexpected. */
function hostFailingWith(err: unknown): { host: Host; unexpected: unknown[] } {
  const unexpected: unknown[] = [];
  const sessions = {
    list: () => Promise.reject(err),
  };
  const host = new Host({ sessions, onUnexpected: (e: unknown) => unexpected.push(e) } as unknown as HostDeps);
  return { host, unexpected };
}

describe('errors by kind', () => {
  it('gives every error class of the core a kind, in this table', async () => {
    expect(KINDS.map(([name]) => name).sort()).toEqual(await errorClassesInCore());
  });

  it.each(KINDS)('%s is made with its kind', (name, make, kind) => {
    const err = make();
    expect(err.name === 'Error' ? name : err.name).toBe(name);
    expect(errorKindOf(err)).toBe(kind);
  });

  it('keeps every class the host once named as expected out of internal', () => {
    for (const [name, make] of KINDS.filter(([n]) => ONCE_BY_NAME.includes(n))) {
      expect([name, errorKindOf(make())]).not.toEqual([name, 'internal']);
    }
  });

  it('takes an error without a kind, or with a kind it does not know, as internal', () => {
    expect(errorKindOf(new Error('boom'))).toBe('internal');
    expect(errorKindOf(new TypeError('x is undefined'))).toBe('internal');
    expect(errorKindOf(Object.assign(new Error('odd'), { errorKind: 'fine' }))).toBe('internal');
    expect(errorKindOf({ errorKind: 'refused', message: 'not an Error' })).toBe('internal');
    expect(errorKindOf('a string')).toBe('internal');
  });
});

describe('the host answers each kind', () => {
  it.each(KINDS)('answers %s in its own words', async (_name, make, kind) => {
    const err = make();
    const { host, unexpected } = hostFailingWith(err);

    expect(await host.call('sessions.list', {})).toEqual({ ok: false, error: err.message });
    expect(unexpected).toEqual(kind === 'internal' ? [err] : []);
  });

  it('answers an error of no kind in its words too, and reports it as unexpected', async () => {
    const err = new TypeError("Cannot read properties of undefined (reading 'id')");
    const { host, unexpected } = hostFailingWith(err);

    expect(await host.call('sessions.list', {})).toEqual({ ok: false, error: err.message });
    expect(unexpected).toEqual([err]);
  });
});
