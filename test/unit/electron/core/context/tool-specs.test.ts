/**
 * The tool block is per-process data: sessions showing the same tool definitions share one
 * converted spec per tool (and one AI SDK tool per spec), rather than a copy each.
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../../../shared/events.js';
import type { ChatClient } from '../../../../../electron/core/chat/chat-client.js';
import { toToolSet } from '../../../../../electron/core/chat/sdk-tool-set.js';
import { SessionContext } from '../../../../../electron/core/context/session-context.js';
import { toolSpecs } from '../../../../../electron/core/context/tool-specs.js';
import { AGENT_TOOLS } from '../../../../../electron/core/runner/agent-tools.js';
import { WORKSPACE_TOOLS } from '../../../../../electron/core/tools/tools.js';
import type { ToolShown } from '../../../../../electron/core/tool-shape/tool-shown.js';

const model: ModelConfig = { provider: 'anthropic', modelId: 'test-model', maxOutputTokens: 4_000 };
const chat: ChatClient = { step: () => Promise.reject(new Error('no model calls here')) };

/** A session's context; each session lists its tools in an array of its own, as Tools does. */
function sessionContext(id: string): SessionContext {
  const tools: readonly ToolShown[] = [...WORKSPACE_TOOLS, ...AGENT_TOOLS];
  const event: SessionEvent = {
    seq: 1,
    ts: '2026-12-03T00:00:00.000Z',
    type: 'user_message',
    messageId: 'm1',
    text: 'hi',
  };
  return new SessionContext({
    sessionId: id,
    events: [event],
    workspace: null,
    home: '/nonexistent',
    tools: () => tools,
    getBlob: () => Promise.reject(new Error('no blobs here')),
    append: (payload: EventPayload) => Promise.reject(new Error(`nothing is appended here: ${payload.type}`)),
  });
}

describe('tool specs', () => {
  it('are one object per tool definition, whichever list it comes in', () => {
    const a = toolSpecs([...WORKSPACE_TOOLS]);
    const b = toolSpecs([...WORKSPACE_TOOLS, ...AGENT_TOOLS]);
    for (const def of WORKSPACE_TOOLS) expect(b[def.name]).toBe(a[def.name]);
    expect(Object.keys(b)).toEqual([...WORKSPACE_TOOLS, ...AGENT_TOOLS].map((d) => d.name));
  });

  it('are shared by two sessions, down to the AI SDK tool each step is sent with', async () => {
    const signal = new AbortController().signal;
    const [one, two] = await Promise.all(
      ['s1', 's2'].map((id) => sessionContext(id).next({ turnId: 't1', chat, model, signal })),
    );
    expect(two!.tools).toEqual(one!.tools);
    for (const name of Object.keys(one!.tools)) expect(two!.tools[name]).toBe(one!.tools[name]);
    const sdkOne = toToolSet(one!.tools);
    const sdkTwo = toToolSet(two!.tools);
    for (const name of Object.keys(sdkOne)) expect(sdkTwo[name]).toBe(sdkOne[name]);
  });

  it('follow a definition that changes: a new definition object gets its own spec', () => {
    const [first] = WORKSPACE_TOOLS;
    const changed: ToolShown = { ...first!, description: 'another description' };
    const spec = toolSpecs([changed])[changed.name]!;
    expect(spec.description).toBe('another description');
    expect(spec).not.toBe(toolSpecs([first!])[first!.name]);
  });
});
