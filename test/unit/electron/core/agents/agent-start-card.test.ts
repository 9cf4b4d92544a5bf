/**
 * The plan of an agent's start and its `agent_start` card (SPEC §14): what the card shows
 * is the launch, its fingerprint changes with anything that makes the launch (never with
 * the key's value), the key's value is never on it, and bad input is refused in words.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_ENV, type AgentSpec } from '../../../../../electron/core/agents/agent-spec.js';
import {
  agentStartPlan,
  planAgentLaunch,
  type AgentLaunchInputs,
} from '../../../../../electron/core/agents/agent-start-card.js';
import { RELAY_PLACEHOLDER_KEY } from '../../../../../electron/core/agents/model-relay.js';
import { modelUrlInside } from '../../../../../electron/core/sandbox/agent-view.js';

const KEY = 'sk-ant-test-secret-value';
let root: string;
let inputs: AgentLaunchInputs;

const spec: AgentSpec = {
  id: 'claude-code',
  label: 'Claude Code',
  version: '0.101.0',
  packages: ['@agentclientprotocol/claude-agent-acp@0.101.0'],
  entry: 'node_modules/adapter/index.js',
  args: ['--flag'],
  domains: ['api.anthropic.com'],
  keyVariable: 'ANTHROPIC_API_KEY',
  env: { ...CLAUDE_CODE_ENV },
  gated: true,
};

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-start-card-')));
  const prefix = path.join(root, 'data/agents/claude-code/pkg');
  await fs.mkdir(path.join(prefix, 'node_modules/adapter'), { recursive: true });
  await fs.writeFile(path.join(prefix, 'node_modules/adapter/index.js'), '');
  await fs.mkdir(path.join(root, 'work'));
  await fs.mkdir(path.join(root, 'node/bin'), { recursive: true });
  await fs.writeFile(path.join(root, 'node/bin/node'), '');
  inputs = {
    spec,
    install: { prefix, version: '0.101.0', node: path.join(root, 'node/bin/node') },
    workspace: path.join(root, 'work'),
    dataDir: path.join(root, 'data'),
    domains: ['API.anthropic.com'],
    env: { ANTHROPIC_API_KEY: KEY, GITHUB_TOKEN: 'ghp_x', PATH: '/usr/bin' },
  };
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('the agent_start card', () => {
  it('shows the argv, version, what it reads and writes, its domains and the names of what is set', () => {
    const card = agentStartPlan(inputs);
    expect(card).toMatchObject({
      kind: 'agent_start',
      agent: 'claude-code',
      label: 'Claude Code',
      version: '0.101.0',
      argv: [
        path.join(root, 'node/bin/node'),
        path.join(root, 'data/agents/claude-code/pkg/node_modules/adapter/index.js'),
        '--flag',
      ],
      readOnly: [path.join(root, 'work'), path.join(root, 'data/agents/claude-code/pkg'), path.join(root, 'node')],
      writable: [path.join(root, 'data/agents/claude-code/home')],
      domains: ['api.anthropic.com'],
      envNames: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'ENABLE_TOOL_SEARCH'],
    });
    expect(card.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(card).not.toHaveProperty('modelEndpoint');
  });

  it('never carries the key’s value, nor names a variable the app has but the agent does not get', () => {
    const text = JSON.stringify(agentStartPlan(inputs));
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('GITHUB_TOKEN');
  });

  it('leaves the key out when the app has none (the agent’s own login in its HOME then)', () => {
    expect(agentStartPlan({ ...inputs, env: {} }).envNames).not.toContain('ANTHROPIC_API_KEY');
  });

  it('names a model endpoint on this machine, and points the base URL variable at its forward', () => {
    const card = agentStartPlan({
      ...inputs,
      model: { endpoint: { port: 11434 }, baseUrlVariable: 'ANTHROPIC_BASE_URL' },
    });
    expect(card.modelEndpoint).toBe('model endpoint on this machine: 127.0.0.1:11434');
    expect(card.envNames).toContain('ANTHROPIC_BASE_URL');
  });

  it('adds the path the agent’s client expects there to the base URL (opencode’s `/v1`)', () => {
    const plan = planAgentLaunch({
      ...inputs,
      model: { endpoint: { port: 11434 }, baseUrlVariable: 'ANTHROPIC_BASE_URL', basePath: '/v1' },
    });
    expect(plan.declaredEnv.ANTHROPIC_BASE_URL).toBe(`${modelUrlInside()}/v1`);
  });

  it('sets no variable for an agent whose config file names the endpoint (Codex), yet names the endpoint', () => {
    const plan = planAgentLaunch({ ...inputs, model: { endpoint: { port: 11434 } } });
    expect(plan.model).toEqual({ port: 11434 });
    expect(plan.card.modelEndpoint).toBe('model endpoint on this machine: 127.0.0.1:11434');
    expect(Object.values(plan.declaredEnv)).not.toContain(modelUrlInside());
  });
});

describe('the key saved in Gatehouse', () => {
  const SAVED = 'sk-ant-saved-in-gatehouse-0123456789';
  const withoutEnvKey = () => ({
    ...inputs,
    env: { PATH: '/usr/bin' },
    storedKey: { value: SAVED, provider: 'Anthropic' },
  });

  it('is added by the relay outside the jail: the agent gets a stand-in and a base URL pointing at the relay', () => {
    const plan = planAgentLaunch(withoutEnvKey());
    expect(plan.keyRelay).toEqual({ upstream: 'https://api.anthropic.com', key: SAVED });
    expect(plan.declaredEnv.ANTHROPIC_API_KEY).toBe(RELAY_PLACEHOLDER_KEY);
    expect(plan.declaredEnv.ANTHROPIC_BASE_URL).toBe(modelUrlInside());
    expect(plan.card.keySource).toBe(
      'Uses the Anthropic key saved in Gatehouse: Gatehouse adds it to each request to api.anthropic.com outside the jail, and the agent is given a stand-in.',
    );
    expect(JSON.stringify(plan.card)).not.toContain(SAVED);
    expect(JSON.stringify(plan.declaredEnv)).not.toContain(SAVED);
    // Kept out of what the agent's stderr shows, like a key of the environment.
    expect(plan.secret).toBe(SAVED);
  });

  it('goes to the local endpoint when one is named', () => {
    const plan = planAgentLaunch({
      ...withoutEnvKey(),
      model: { endpoint: { port: 4555 }, baseUrlVariable: 'ANTHROPIC_BASE_URL' },
    });
    expect(plan.keyRelay).toEqual({ upstream: 'http://127.0.0.1:4555', key: SAVED });
    expect(plan.declaredEnv.ANTHROPIC_API_KEY).toBe(RELAY_PLACEHOLDER_KEY);
  });

  it('is not sent to its model host once the person took that host off its list', () => {
    const plan = planAgentLaunch({ ...withoutEnvKey(), domains: ['example.org'] });
    expect(plan.keyRelay).toBeNull();
    expect(plan.declaredEnv).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('is not used when the environment has the agent’s key: that one is the agent’s, as before', () => {
    const plan = planAgentLaunch({ ...inputs, storedKey: { value: SAVED, provider: 'Anthropic' } });
    expect(plan.keyRelay).toBeNull();
    expect(plan.declaredEnv.ANTHROPIC_API_KEY).toBe(KEY);
    expect(plan.card).not.toHaveProperty('keySource');
  });
});

describe('the fingerprint', () => {
  const base = () => agentStartPlan(inputs).fingerprint;

  it('is the same for the same launch, whatever the key’s value', () => {
    expect(agentStartPlan({ ...inputs }).fingerprint).toBe(base());
    expect(agentStartPlan({ ...inputs, env: { ANTHROPIC_API_KEY: 'another' } }).fingerprint).toBe(base());
  });

  it('changes with the args, the version, the domains, an extra’s value, the model endpoint, or a key appearing', () => {
    const changed = [
      agentStartPlan({ ...inputs, spec: { ...spec, args: ['--other'] } }),
      agentStartPlan({ ...inputs, install: { ...inputs.install, version: '0.102.0' } }),
      agentStartPlan({ ...inputs, domains: ['api.anthropic.com', 'statsig.anthropic.com'] }),
      agentStartPlan({ ...inputs, spec: { ...spec, env: { ...spec.env, ENABLE_TOOL_SEARCH: 'true' } } }),
      agentStartPlan({ ...inputs, model: { endpoint: { port: 1234 }, baseUrlVariable: 'ANTHROPIC_BASE_URL' } }),
      agentStartPlan({ ...inputs, model: { endpoint: { port: 1235 }, baseUrlVariable: 'ANTHROPIC_BASE_URL' } }),
      agentStartPlan({ ...inputs, env: {} }),
    ].map((c) => c.fingerprint);
    expect(new Set([base(), ...changed]).size).toBe(changed.length + 1);
  });
});

describe('bad input', () => {
  const refused: [string, () => AgentLaunchInputs, RegExp][] = [
    ['an entry that leaves the prefix', () => ({ ...inputs, spec: { ...spec, entry: '../../x.js' } }), /entry/],
    ['an absolute entry', () => ({ ...inputs, spec: { ...spec, entry: '/etc/passwd' } }), /entry/],
    ['a missing entry', () => ({ ...inputs, spec: { ...spec, entry: 'nope.js' } }), /entry is not a file/],
    ['an unknown agent', () => ({ ...inputs, spec: { ...spec, id: '../x' as AgentSpec['id'] } }), /bad agent spec: id/],
    [
      'an agent the gate cannot hold',
      () => ({ ...inputs, spec: { ...spec, gated: { reason: 'it writes by itself' } } }),
      /cannot be held to the gate: it writes by itself/,
    ],
    ['a key variable that is no name', () => ({ ...inputs, spec: { ...spec, keyVariable: 'A=B' } }), /keyVariable/],
    ['a missing workspace', () => ({ ...inputs, workspace: path.join(root, 'gone') }), /the workspace is not a folder/],
    ['a relative workspace', () => ({ ...inputs, workspace: 'work' }), /the workspace is not a folder/],
    [
      'a missing node',
      () => ({ ...inputs, install: { ...inputs.install, node: '/nonexistent/node' } }),
      /node is not a file/,
    ],
    ['a bad domain', () => ({ ...inputs, domains: ['not a domain'] }), /bad domain list/],
    [
      'a model port out of range',
      () => ({ ...inputs, model: { endpoint: { port: 70000 }, baseUrlVariable: 'X' } }),
      /bad model endpoint port/,
    ],
    [
      'a relative model socket',
      () => ({ ...inputs, model: { endpoint: { socket: 'm.sock' }, baseUrlVariable: 'X' } }),
      /not an absolute path/,
    ],
    [
      'a base URL variable that is the key',
      () => ({ ...inputs, model: { endpoint: { port: 1 }, baseUrlVariable: 'ANTHROPIC_API_KEY' } }),
      /bad model base URL variable/,
    ],
    [
      'a base path that is not plain segments',
      () => ({
        ...inputs,
        model: { endpoint: { port: 1 }, baseUrlVariable: 'ANTHROPIC_BASE_URL', basePath: '/v1/../@evil.example' },
      }),
      /bad model base path/,
    ],
    [
      'a base path that leaves the forward',
      () => ({ ...inputs, model: { endpoint: { port: 1 }, baseUrlVariable: 'ANTHROPIC_BASE_URL', basePath: '@h:1' } }),
      /bad model base path/,
    ],
  ];
  for (const [what, make, error] of refused) {
    it(`refuses ${what}, in words`, () => {
      expect(() => agentStartPlan(make())).toThrow(error);
    });
  }
});
