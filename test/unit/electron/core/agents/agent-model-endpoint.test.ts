/**
 * The agents' model endpoint the person names (`--agent-model-endpoint`,
 * GATEHOUSE_AGENT_MODEL_ENDPOINT): a port on this machine's loopback, or a clear refusal.
 */
import { describe, expect, it } from 'vitest';
import {
  agentModelEndpointFromEnv,
  agentModelOf,
  parseAgentModelEndpoint,
} from '../../../../../electron/core/agents/agent-model-endpoint.js';

describe('the agents’ model endpoint', () => {
  it('takes http://127.0.0.1:PORT or http://localhost:PORT, with or without a trailing slash', () => {
    expect(parseAgentModelEndpoint('http://127.0.0.1:8080')).toEqual({ port: 8080 });
    expect(parseAgentModelEndpoint('http://localhost:11434/')).toEqual({ port: 11434 });
  });

  it.each([
    ['api.anthropic.com', 'is not a URL'],
    ['https://127.0.0.1:8443', 'must be plain http://'],
    ['http://192.168.1.5:8080', 'is not on this machine’s loopback'],
    ['http://example.com:8080', 'is not on this machine’s loopback'],
    ['http://[::1]:8080', 'is not on this machine’s loopback'],
    ['http://127.0.0.2:8080', 'is not on this machine’s loopback'],
    ['http://127.0.0.1', 'names no port'],
    ['http://127.0.0.1:80', 'names no port'],
    ['http://127.0.0.1:8080/v1', 'must name no path'],
    ['http://127.0.0.1:8080/?x=1', 'must name no path'],
    ['http://me:pw@127.0.0.1:8080', 'must not carry a user name or password'],
  ])('refuses %j in words', (value, why) => {
    expect(() => parseAgentModelEndpoint(value)).toThrow(why);
    expect(() => parseAgentModelEndpoint(value)).toThrow('give http://127.0.0.1:<port>');
  });

  it('points each agent at it its own way: Claude Code, Gemini CLI and opencode by variables, Codex by its config', () => {
    const of = agentModelOf({ port: 9000 })!;
    expect(of({ id: 'claude-code', label: 'Claude Code', version: '1' })).toEqual({
      endpoint: { port: 9000 },
      baseUrlVariable: 'ANTHROPIC_BASE_URL',
    });
    expect(of({ id: 'gemini-cli', label: 'Gemini CLI', version: '1' })).toEqual({
      endpoint: { port: 9000 },
      baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
    });
    // Codex's config.toml names the endpoint (agent-holds.ts); opencode's client wants /v1 on its base.
    expect(of({ id: 'codex', label: 'Codex', version: '1' })).toEqual({ endpoint: { port: 9000 } });
    expect(of({ id: 'opencode', label: 'opencode', version: '1' })).toEqual({
      endpoint: { port: 9000 },
      baseUrlVariable: 'ANTHROPIC_BASE_URL',
      basePath: '/v1',
    });
    expect(of({ id: 'an-agent-of-another-build' as 'codex', label: 'x', version: '1' })).toBeUndefined();
    expect(agentModelOf(undefined)).toBeUndefined();
  });

  it('is read from GATEHOUSE_AGENT_MODEL_ENDPOINT for the desktop app (and npm start’s fallback), naming it when bad', () => {
    expect(agentModelEndpointFromEnv({ GATEHOUSE_AGENT_MODEL_ENDPOINT: 'http://127.0.0.1:7000' })).toEqual({
      port: 7000,
    });
    expect(agentModelEndpointFromEnv({})).toBeUndefined();
    expect(agentModelEndpointFromEnv({ GATEHOUSE_AGENT_MODEL_ENDPOINT: '' })).toBeUndefined();
    expect(() => agentModelEndpointFromEnv({ GATEHOUSE_AGENT_MODEL_ENDPOINT: 'http://10.1.1.1:7000' })).toThrow(
      'GATEHOUSE_AGENT_MODEL_ENDPOINT: the agents’ model endpoint "http://10.1.1.1:7000" is not on this machine’s loopback',
    );
  });
});
