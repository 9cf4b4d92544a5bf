/**
 * The agent's two pseudo-tools as the gate sees them: their plans, the grants their cards
 * offer (bound to the launch's fingerprint, or to the agent's exact words), when an answer
 * goes stale, and that their grants survive meta.json. Bad requests are refused in words.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStartCardBody, Grant } from '../../../../../shared/cards.js';
import { agentPlanner, agentAskCall, agentStartCall } from '../../../../../electron/core/agents/agent-ask-tool.js';
import { classify } from '../../../../../electron/core/gate/classify.js';
import { cardBody, staleReason } from '../../../../../electron/core/gate/card-body.js';
import { readMeta, writeMeta, type SessionMeta } from '../../../../../electron/core/log/session-meta.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();

const start: AgentStartCardBody = {
  kind: 'agent_start',
  agent: 'gemini-cli',
  label: 'Gemini CLI',
  version: '1.0.0',
  argv: ['node', 'gemini.js', '--experimental-acp'],
  readOnly: ['/ws'],
  writable: ['/data/agents/gemini-cli/home'],
  domains: ['generativelanguage.googleapis.com'],
  envNames: ['GEMINI_API_KEY'],
  fingerprint: 'f1',
};
const ask = {
  agent: 'gemini-cli',
  label: 'Gemini CLI',
  title: 'Fetch https://example.org',
  toolKind: 'fetch',
  options: [{ optionId: 'y', name: 'Allow', kind: 'allow_once' }],
};

const noDiff = () => Promise.reject(new Error('no diff for agent cards'));
const noBlob = () => Promise.reject(new Error('no blob for agent cards'));

describe('agent_start', () => {
  it('plans the launch as it is now, and its card is that body', async () => {
    let body = start;
    const planner = agentPlanner(() => Promise.resolve(body));
    const call = agentStartCall('t', 'c', 'gemini-cli');
    const plan = await planner.plan(call.tool, call.args);
    expect(await cardBody(plan, noDiff, noBlob)).toEqual(start);
    body = { ...start, fingerprint: 'f2' };
    const again = await planner.plan(call.tool, call.args);
    expect(staleReason(start, again)).toBe("the agent's launch changed after the card went up");
    expect(staleReason(start, plan)).toBeNull();
  });

  it('is a card unless the session allowed this agent with this very launch', async () => {
    const plan = await agentPlanner(() => Promise.resolve(start)).plan('agent_start', { agent: 'gemini-cli' });
    const granted: Grant = { kind: 'agent_start', agent: 'gemini-cli', fingerprint: 'f1' };
    expect(classify(plan, [])).toMatchObject({ kind: 'card', grant: granted });
    expect(classify(plan, [granted])).toMatchObject({ kind: 'granted' });
    expect(classify(plan, [{ ...granted, fingerprint: 'f0' }])).toMatchObject({ kind: 'card' });
  });

  it('refuses a start for another agent than the launch is for', async () => {
    const planner = agentPlanner(() => Promise.resolve(start));
    await expect(planner.plan('agent_start', { agent: 'claude-code' })).rejects.toThrow(
      'agent_start: the launch is for gemini-cli, not claude-code',
    );
  });
});

describe('agent_ask', () => {
  it('is a card unless the same title and kind were allowed for the session', async () => {
    const call = agentAskCall('t', 'c', ask);
    const plan = await agentPlanner(() => Promise.resolve(start)).plan(call.tool, call.args);
    expect(await cardBody(plan, noDiff, noBlob)).toEqual({ kind: 'agent_ask', ...ask });
    const granted: Grant = { kind: 'agent_ask', agent: 'gemini-cli', toolKind: 'fetch', title: ask.title };
    expect(classify(plan, [granted])).toMatchObject({ kind: 'granted' });
    expect(classify(plan, [{ ...granted, title: 'Fetch https://example.org/other' }])).toMatchObject({ kind: 'card' });
    expect(classify(plan, [{ ...granted, toolKind: 'read' }])).toMatchObject({ kind: 'card' });
  });

  it('refuses a malformed request in words, naming the field', async () => {
    const planner = agentPlanner(() => Promise.resolve(start));
    await expect(planner.plan('agent_ask', { ...ask, options: 'yes' })).rejects.toThrow(
      /agent_ask: .*malformed.*options/s,
    );
  });
});

describe('their grants in meta.json', () => {
  it('are read back as written', async () => {
    const meta: SessionMeta = {
      id: '20261206T040000000Z-0123456789',
      title: 'agent',
      workspace: '/ws',
      model: null,
      createdAt: '2026-12-06T04:00:00.000Z',
      updatedAt: '2026-12-06T04:00:00.000Z',
      grants: [
        { kind: 'agent_start', agent: 'gemini-cli', fingerprint: 'f1' },
        { kind: 'agent_ask', agent: 'gemini-cli', toolKind: 'fetch', title: ask.title },
      ],
    };
    await writeMeta(tmp.path, meta);
    expect(await readMeta(tmp.path)).toEqual(meta);
  });
});
