/**
 * Where an agent session's gate listens: one socket per session, short enough for a Unix
 * socket's path, even for sessions made in the same second (their ids share a long prefix).
 */
import { describe, expect, it } from 'vitest';
import { gateSocketPath } from '../../../../../electron/core/agents/agent-session.js';
import { SOCKET_PATH_MAX_BYTES } from '../../../../../electron/core/agents/gate-socket.js';

describe("an agent session's gate socket", () => {
  it('differs for two sessions made in the same second, and stays under the socket path limit', () => {
    const dataDir = '/home/someone/.local/share/gatehouse';
    const a = gateSocketPath(dataDir, '20261206T044342879Z-c24ed48dae');
    const b = gateSocketPath(dataDir, '20261206T044342912Z-7f3ac3cf6b');

    expect(a).not.toBe(b);
    expect(a.startsWith(`${dataDir}/agents/run/`)).toBe(true);
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(SOCKET_PATH_MAX_BYTES);
  });
});
