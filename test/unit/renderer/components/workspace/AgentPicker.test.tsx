/** The Open dialog's agent picker (SPEC §14): who drives the new session. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OpenFolderDialog } from '../../../../../renderer/src/components/workspace/OpenFolderDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { agentListing, createFakeApi, summaryOf } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const AGENTS = [
  agentListing({ id: 'claude-code', installed: { version: '0.10.0' } }),
  agentListing({ id: 'gemini-cli' }),
  agentListing({ id: 'codex', gated: false, unavailable: 'it writes by itself' }),
];

function dialog(listed: 'agents' | 'none' | 'refused' = 'agents') {
  const store = createAppStore(memoryStorage());
  store.getState().openDialog('open-folder');
  const fake = createFakeApi();
  if (listed === 'agents') fake.reply('agents.list', { agents: AGENTS });
  if (listed === 'refused') fake.fail('agents.list', 'external agents are not available in this build');
  fake.respond('sessions.open', ({ workspace, agent }) => ({
    ok: true,
    data: summaryOf({
      id: `id:${workspace}`,
      workspace,
      ...(agent ? { agent: { id: agent, label: 'Claude Code', version: '0.10.0' } } : {}),
    }),
  }));
  return renderFrame(<OpenFolderDialog />, { store, fake });
}

const picker = () => screen.getByRole('combobox', { name: 'Agent' });

describe("the Open dialog's agent picker", () => {
  it("picks Gatehouse's own agent by default, and opens without an agent", async () => {
    const { fake } = dialog();
    await waitFor(() => expect(picker()).toHaveValue(''));
    expect(within(picker()).getByRole('option', { selected: true })).toHaveTextContent('Gatehouse’s own agent');
    await userEvent.type(screen.getByRole('combobox', { name: 'Folder' }), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/src/api' }]);
  });

  it('lists installed agents with their version; others disabled, saying where to install or that they cannot', async () => {
    dialog();
    await waitFor(() => expect(within(picker()).getAllByRole('option')).toHaveLength(4));
    const options = within(picker()).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => [o.textContent, o.disabled])).toEqual([
      ['Gatehouse’s own agent', false],
      ['Claude Code 0.10.0', false],
      ['Gemini CLI (install in Settings → Agents)', true],
      ['Codex (not available yet)', true],
    ]);
  });

  it('opens the session with the agent picked, and says it runs jailed', async () => {
    const { fake, store } = dialog();
    await waitFor(() => expect(within(picker()).getAllByRole('option')).toHaveLength(4));
    await userEvent.selectOptions(picker(), 'Claude Code 0.10.0');
    expect(screen.getByText(/Claude Code runs jailed: it sees the workspace read-only/)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('combobox', { name: 'Folder' }), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/src/api', agent: 'claude-code' }]);
    await waitFor(() => expect(store.getState().dialog).toBeNull());
    expect(store.getState().sessions['id:/home/me/src/api']?.summary.agent?.label).toBe('Claude Code');
  });

  it('offers a staged agent once installed, and says it works in a place of its own', async () => {
    const store = createAppStore(memoryStorage());
    store.getState().openDialog('open-folder');
    const fake = createFakeApi();
    const staged = { gated: false, staged: 'works in a place of its own', installed: { version: '2.6.0' } };
    fake.reply('agents.list', { agents: [agentListing({ id: 'codex', ...staged })] });
    renderFrame(<OpenFolderDialog />, { store, fake });
    await waitFor(() => expect(within(picker()).getAllByRole('option')).toHaveLength(2));
    const options = within(picker()).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => [o.textContent, o.disabled])).toEqual([
      ['Gatehouse’s own agent', false],
      ['Codex 2.6.0', false],
    ]);
    await userEvent.selectOptions(picker(), 'Codex 2.6.0');
    expect(
      screen.getByText(
        /Codex runs jailed in a place of its own: its writes and commands run there without a card; only what you apply reaches your folder/,
      ),
    ).toBeInTheDocument();
  });

  it('shows no picker in a build without agents', async () => {
    const { fake } = dialog('refused');
    await waitFor(() => expect(fake.requestsOf('agents.list')).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: 'Agent' })).toBeNull();
  });
});
