/**
 * The Open dialog's "Work in a place of its own" (SPEC §15): off by default (the folder
 * itself), on with an optional base, and always on, with why, for an agent that writes
 * and runs by itself.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OpenFolderDialog } from '../../../../../renderer/src/components/workspace/OpenFolderDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { agentListing, createFakeApi } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const AGENTS = [
  agentListing({ id: 'claude-code', installed: { version: '0.10.0' } }),
  // Codex as a staged agent: not held to the gate, but usable in a place of its own.
  agentListing({ id: 'codex', gated: false, staged: 'works in a place of its own', installed: { version: '0.5.0' } }),
  agentListing({ id: 'opencode', gated: false, unavailable: 'it writes by itself' }),
];

function dialog() {
  const store = createAppStore(memoryStorage());
  store.getState().openDialog('open-folder');
  const fake = createFakeApi();
  fake.reply('agents.list', { agents: AGENTS });
  return renderFrame(<OpenFolderDialog />, { store, fake });
}

const box = () => screen.getByRole('checkbox', { name: 'Work in a place of its own' });
const folder = () => screen.getByRole('combobox', { name: 'Folder' });

describe('a place of its own, in the Open dialog', () => {
  it('is off by default: the session works in the folder itself', async () => {
    const { fake } = dialog();
    expect(box()).not.toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'Start from (optional)' })).toBeNull();
    await userEvent.type(folder(), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/src/api' }]);
  });

  it('ticked, opens the session in a place from HEAD, or from the base typed', async () => {
    const { fake } = dialog();
    await userEvent.click(box());
    expect(screen.getByText(/A git worktree on a new branch gatehouse\/<name>/)).toBeInTheDocument();
    await userEvent.type(folder(), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open').at(-1)).toEqual({ workspace: '/home/me/src/api', place: {} });
  });

  it('sends the base trimmed', async () => {
    const { fake } = dialog();
    await userEvent.click(box());
    await userEvent.type(screen.getByRole('textbox', { name: 'Start from (optional)' }), ' release/1.2 ');
    await userEvent.type(folder(), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open').at(-1)).toEqual({
      workspace: '/home/me/src/api',
      place: { base: 'release/1.2' },
    });
  });

  it('is always on for an agent that writes by itself, and says why', async () => {
    const { fake } = dialog();
    const picker = await screen.findByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(4));
    expect(within(picker).getByRole('option', { name: 'Codex 0.5.0' })).toBeEnabled();
    expect(within(picker).getByRole('option', { name: 'opencode (not available yet)' })).toBeDisabled();
    await userEvent.selectOptions(picker, 'Codex 0.5.0');
    expect(box()).toBeChecked();
    expect(box()).toBeDisabled();
    expect(box()).toHaveAccessibleDescription(
      /Codex writes and runs commands by itself, so it always works in a place/,
    );
    await userEvent.type(folder(), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open').at(-1)).toEqual({
      workspace: '/home/me/src/api',
      agent: 'codex',
      place: {},
    });
  });

  it('goes back to the person’s choice when a gated agent is picked again', async () => {
    const { fake } = dialog();
    const picker = await screen.findByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(4));
    await userEvent.selectOptions(picker, 'Codex 0.5.0');
    await userEvent.selectOptions(picker, 'Claude Code 0.10.0');
    expect(box()).toBeEnabled();
    expect(box()).not.toBeChecked();
    await userEvent.type(folder(), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open').at(-1)).toEqual({ workspace: '/home/me/src/api', agent: 'claude-code' });
  });
});
