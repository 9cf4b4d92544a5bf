/**
 * The real, pinned Claude Code and its model host, through the app's contract: with no
 * ANTHROPIC_API_KEY in the environment it uses the key saved in Gatehouse, which the host's
 * relay adds to its requests (the agent holds a stand-in; its start card says so); and a
 * model host it cannot reach is said in the transcript in words, once, while the CLI retries.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_PLACEHOLDER_KEY } from '../../../../../electron/core/agents/model-relay.js';
import { allowStart, bootRealAgent, turnEnd, type Booted, type RealAgent } from './real-agent-harness.js';

const CLAUDE: RealAgent = {
  id: 'claude-code',
  key: { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-env-0123456789abcdef' },
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  domains: ['api.anthropic.com'],
};
const SAVED = 'sk-ant-saved-in-settings-9876543210fedcba';

let booted: Booted | null = null;
afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close().catch(() => undefined);
  booted = null;
});

/** Every file under `dir` whose bytes hold `needle`, but `except`. */
async function filesHolding(dir: string, needle: string, except: string[] = []): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || except.includes(file)) continue;
    if ((await fs.readFile(file)).includes(needle)) found.push(file);
  }
  return found;
}

describe('the real Claude Code and its model host', () => {
  it('uses the key saved in Gatehouse: the model gets it, the card says so, and no log, card or file of its HOME holds it', async () => {
    booted = await bootRealAgent(CLAUDE, () => ({ text: 'Hello from the model.' }), { keyInEnvironment: false });
    const { h, id, fake } = booted;
    await h.call('settings.set', { key: { provider: 'anthropic', value: SAVED } });

    await h.call('session.send', { id, text: 'say hello' });
    const start = await h.event(id, 'card', (c) => c.body.kind === 'agent_start');
    if (start.body.kind !== 'agent_start') throw new Error('not a start card');
    expect(start.body.keySource).toBe(
      `Uses the Anthropic key saved in Gatehouse: Gatehouse adds it to each request to 127.0.0.1:${new URL(fake.url).port} outside the jail, and the agent is given a stand-in.`,
    );
    expect(start.body.envNames).toContain('ANTHROPIC_API_KEY');
    await allowStart(h, id, CLAUDE);
    const end = await turnEnd(h, id);
    expect(end.reason).toBe('finished');

    const asked = fake.requests.filter((r) => r.path.startsWith('/v1/messages'));
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked.map((r) => r.headers['x-api-key']))).toEqual(new Set([SAVED]));
    expect(JSON.stringify(await h.events(id))).not.toContain(SAVED);
    // The data folder (the log, the agent's HOME and settings) holds it nowhere but the sealed keys file.
    expect(await filesHolding(h.dataDir, SAVED, [path.join(h.dataDir, 'keys.json')])).toEqual([]);
    expect(await filesHolding(path.join(h.dataDir, 'agents'), RELAY_PLACEHOLDER_KEY)).toEqual([]);
  }, 300_000);

  it('says in the transcript, once, that it cannot reach its model host while the CLI retries; Cancel ends the turn', async () => {
    booted = await bootRealAgent(CLAUDE, () => ({ text: 'never asked' }));
    const { h, id, fake } = booted;
    const port = new URL(fake.url).port;
    await fake.close();

    await h.call('session.send', { id, text: 'say hello' });
    await allowStart(h, id, CLAUDE);
    const line = await h.event(id, 'error');
    expect(line.message).toBe(`Claude Code cannot reach 127.0.0.1:${port} (connection refused); it is retrying`);
    const { summary } = await h.call('session.state', { id });
    expect(summary.status).toBe('running');
    // The CLI retries within a second or two; each retry fails again, and the line is not repeated.
    await new Promise((resolve) => setTimeout(resolve, 6000));

    await h.call('session.cancel', { id });
    const end = await turnEnd(h, id);
    expect(end.reason).toBe('cancelled');
    const lines = (await h.events(id)).filter((e) => e.type === 'error');
    expect(lines).toHaveLength(1);
  }, 300_000);

  it('says in the transcript that the sandbox blocked its model host when the person took it off its hosts', async () => {
    booted = await bootRealAgent(CLAUDE, () => ({ text: 'never asked' }), { localModel: false });
    const { h, id, fake } = booted;
    await h.call('agents.setDomains', { id: 'claude-code', domains: ['example.org'] });

    await h.call('session.send', { id, text: 'say hello' });
    const start = await h.event(id, 'card', (c) => c.body.kind === 'agent_start');
    if (start.body.kind !== 'agent_start') throw new Error('not a start card');
    expect(start.body.domains).toEqual(['example.org']);
    await h.call('card.answer', { id, cardId: start.cardId, answer: 'allow_once' });
    const line = await h.event(id, 'error');
    expect(line.message).toBe(
      'Claude Code cannot reach api.anthropic.com: the sandbox blocked it (api.anthropic.com is not on Claude Code’s hosts in Settings → Agents)',
    );
    await h.call('session.cancel', { id });
    expect((await turnEnd(h, id)).reason).toBe('cancelled');
    expect(fake.requests).toEqual([]);
  }, 300_000);
});
