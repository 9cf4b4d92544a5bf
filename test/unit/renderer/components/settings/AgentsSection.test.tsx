/** Settings → Agents (SPEC §14), against a fake host. */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AgentListing } from '../../../../../shared/agents';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { AGENT_HOLDS } from '../../../../../renderer/src/components/cards/agent-words';
import { AgentsSection } from '../../../../../renderer/src/components/settings/AgentsSection';
import { agentListing, createFakeApi, type FakeApi } from '../../fake-api';

const CODEX_WHY = 'it writes and runs by itself whatever the client says: it needs a session place of its own';

function agents(claude: Partial<AgentListing> = {}): AgentListing[] {
  return [
    agentListing({ id: 'claude-code', ...claude }),
    agentListing({ id: 'codex', gated: false, unavailable: CODEX_WHY }),
  ];
}

/** The section over `fake`; `listing` null leaves agents.list as the test set it. */
function renderSection(fake: FakeApi = createFakeApi(), listing: AgentListing[] | null = agents()) {
  if (listing) fake.reply('agents.list', { agents: listing });
  render(
    <ApiProvider api={fake.api}>
      <AgentsSection />
    </ApiProvider>,
  );
  return fake;
}

const section = () => screen.getByRole('region', { name: 'Agents' });
const row = (name: string) => screen.getByRole('listitem', { name });

describe('Settings → Agents', () => {
  it('lists each agent with its pinned version and "Not installed", and its key variable unset', async () => {
    renderSection();
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    expect(claude).toHaveTextContent('pinned 0.10.0 · Not installed');
    expect(claude).toHaveTextContent(
      'ANTHROPIC_API_KEY is not set: the agent’s own login in its private home works too',
    );
    expect(within(claude).getByRole('button', { name: 'Install' })).toBeEnabled();
    expect(within(claude).queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it('shows the installed version, "is set", Update to the pinned one, and Remove', async () => {
    renderSection(undefined, agents({ installed: { version: '0.9.0' }, keySet: true }));
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    expect(claude).toHaveTextContent('pinned 0.10.0 · installed 0.9.0');
    expect(claude).toHaveTextContent('ANTHROPIC_API_KEY is set');
    expect(within(claude).getByRole('button', { name: 'Update to 0.10.0' })).toBeEnabled();
    expect(within(claude).getByRole('button', { name: 'Remove' })).toBeEnabled();
  });

  it('says when it uses the key saved in Gatehouse instead of its variable', async () => {
    renderSection(undefined, agents({ keySaved: 'Anthropic' }));
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    expect(claude).toHaveTextContent(
      'ANTHROPIC_API_KEY is not set: it uses the Anthropic key saved in Gatehouse, which Gatehouse adds to its requests outside its jail',
    );
  });

  it('offers no Update when the pinned version is installed', async () => {
    renderSection(undefined, agents({ installed: { version: '0.10.0' } }));
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    expect(within(claude).queryByRole('button', { name: /Install|Update/ })).toBeNull();
  });

  it('greys an agent that cannot be held to the gate, with why, and offers it nothing', async () => {
    renderSection();
    const codex = await screen.findByRole('listitem', { name: 'Codex' });
    expect(codex).toHaveClass('agent-row-unavailable');
    expect(codex).toHaveTextContent(`Not available: ${CODEX_WHY}`);
    expect(within(codex).queryAllByRole('button')).toEqual([]);
  });

  it('shows a staged agent usable, with the words "works in a place of its own", and offers its install', async () => {
    renderSection(undefined, [agentListing({ id: 'opencode', gated: false, staged: 'works in a place of its own' })]);
    const opencode = await screen.findByRole('listitem', { name: 'opencode' });
    expect(opencode).not.toHaveClass('agent-row-unavailable');
    expect(opencode).toHaveTextContent('works in a place of its own');
    expect(opencode).not.toHaveTextContent('Not available');
    expect(within(opencode).getByRole('button', { name: /Install/ })).toBeInTheDocument();
  });

  it('installs with a progress bar fed by agents.progress, then lists again with the version installed', async () => {
    const fake = createFakeApi();
    let finish!: () => void;
    fake.respond(
      'agents.install',
      () => new Promise((resolve) => (finish = () => resolve({ ok: true, data: { version: '0.10.0' } }))),
    );
    renderSection(fake);
    await userEvent.click(
      within(await screen.findByRole('listitem', { name: 'Claude Code' })).getByRole('button', { name: 'Install' }),
    );
    expect(fake.requestsOf('agents.install')).toEqual([{ id: 'claude-code' }]);
    act(() =>
      fake.push({
        name: 'agents.progress',
        payload: { id: 'claude-code', phase: 'downloading', fraction: 0.4, line: 'fetching 4 of 10 packages' },
      }),
    );
    const bar = within(row('Claude Code')).getByRole('progressbar', { name: 'Claude Code: downloading' });
    expect(bar).toHaveAttribute('value', '0.4');
    expect(row('Claude Code')).toHaveTextContent('fetching 4 of 10 packages');
    // Another agent's progress is not this one's.
    act(() => fake.push({ name: 'agents.progress', payload: { id: 'gemini-cli', phase: 'checking', line: 'other' } }));
    expect(row('Claude Code')).not.toHaveTextContent('other');
    fake.reply('agents.list', { agents: agents({ installed: { version: '0.10.0' } }) });
    act(() =>
      fake.push({ name: 'agents.progress', payload: { id: 'claude-code', phase: 'done', line: 'installed 0.10.0' } }),
    );
    await act(async () => finish());
    await waitFor(() => expect(row('Claude Code')).toHaveTextContent('installed 0.10.0'));
    expect(within(row('Claude Code')).queryByRole('progressbar')).toBeNull();
    expect(fake.requestsOf('agents.list')).toHaveLength(2);
  });

  it('leaves no bar half way once the install answered, even without a last push', async () => {
    const fake = createFakeApi();
    fake.respond('agents.install', async ({ id }) => {
      fake.push({ name: 'agents.progress', payload: { id, phase: 'checking', line: 'asking it to initialize' } });
      return { ok: true, data: { version: '0.10.0' } };
    });
    renderSection(fake);
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    await userEvent.click(within(claude).getByRole('button', { name: 'Install' }));
    await waitFor(() => expect(fake.requestsOf('agents.list')).toHaveLength(2));
    expect(within(row('Claude Code')).queryByRole('progressbar')).toBeNull();
    expect(row('Claude Code')).not.toHaveTextContent('asking it to initialize');
  });

  it('says why an install failed, in the pushed line and the reply', async () => {
    const fake = createFakeApi();
    fake.respond('agents.install', async () => {
      fake.push({
        name: 'agents.progress',
        payload: { id: 'claude-code', phase: 'failed', line: 'npm exited with 1: ETARGET no matching version' },
      });
      return { ok: false, error: 'the install failed: npm exited with 1' };
    });
    renderSection(fake);
    await userEvent.click(
      within(await screen.findByRole('listitem', { name: 'Claude Code' })).getByRole('button', { name: 'Install' }),
    );
    const alerts = await within(row('Claude Code')).findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([
      'npm exited with 1: ETARGET no matching version',
      'Could not install Claude Code: the install failed: npm exited with 1',
    ]);
  });

  it('removes, with its private home only when ticked, and lists again', async () => {
    const fake = createFakeApi();
    renderSection(fake, agents({ installed: { version: '0.10.0' } }));
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    await userEvent.click(within(claude).getByRole('button', { name: 'Remove' }));
    await userEvent.click(within(claude).getByRole('checkbox', { name: /and its private home/ }));
    fake.reply('agents.list', { agents: agents() });
    await userEvent.click(within(claude).getByRole('button', { name: 'Remove' }));
    expect(fake.requestsOf('agents.remove')).toEqual([
      { id: 'claude-code', home: false },
      { id: 'claude-code', home: true },
    ]);
    await waitFor(() => expect(row('Claude Code')).toHaveTextContent('Not installed'));
  });

  it('edits the domains: adds and removes a host, and shows the list the host stored', async () => {
    const fake = createFakeApi();
    renderSection(fake);
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    const list = within(claude).getByRole('list', { name: 'Hosts Claude Code may reach' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual(['api.anthropic.com']);
    await userEvent.type(within(claude).getByLabelText('Add a host for Claude Code'), 'statsig.anthropic.com{Enter}');
    expect(fake.requestsOf('agents.setDomains')).toEqual([
      { id: 'claude-code', domains: ['api.anthropic.com', 'statsig.anthropic.com'] },
    ]);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(claude).getByLabelText('Add a host for Claude Code')).toHaveValue('');
    await userEvent.click(within(claude).getByRole('button', { name: 'Remove api.anthropic.com' }));
    expect(fake.requestsOf('agents.setDomains')[1]).toEqual({ id: 'claude-code', domains: ['statsig.anthropic.com'] });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  });

  it("shows the host's refusal of a domain as it came, keeps the typed name and the list as it was", async () => {
    const fake = createFakeApi();
    fake.fail('agents.setDomains', 'bad request for agents.setDomains: "http://x" is not a host name');
    renderSection(fake);
    const claude = await screen.findByRole('listitem', { name: 'Claude Code' });
    await userEvent.type(within(claude).getByLabelText('Add a host for Claude Code'), 'http://x{Enter}');
    expect(await within(claude).findByRole('alert')).toHaveTextContent('"http://x" is not a host name');
    expect(within(claude).getByLabelText('Add a host for Claude Code')).toHaveValue('http://x');
    expect(within(within(claude).getByRole('list', { name: /Hosts/ })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('says a build without agents has none, in the host words', async () => {
    const fake = createFakeApi();
    fake.fail('agents.list', 'external agents are not available in this build');
    renderSection(fake, null);
    expect(await within(section()).findByRole('note')).toHaveTextContent(
      'Agents: external agents are not available in this build',
    );
  });

  it('says what holds for an external agent', async () => {
    renderSection();
    await screen.findByRole('listitem', { name: 'Claude Code' });
    for (const line of AGENT_HOLDS) expect(section()).toHaveTextContent(line);
  });
});
