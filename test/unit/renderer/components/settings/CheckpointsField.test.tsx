/** Settings' Checkpoints section (SPEC §12): each workspace's snapshots, the limit, and undo off without git. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../../shared/contract';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { parseLimit } from '../../../../../renderer/src/components/settings/limit-size';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const GiB = 1024 ** 3;

function settingsWith(view: Partial<SettingsView>) {
  const store = createAppStore(memoryStorage());
  store.getState().setSettings({ ...SETTINGS_NONE, ...view });
  return { ...renderFrame(<SettingsDialog />, { store }), store };
}

const section = () => screen.getByRole('group', { name: 'Checkpoints' });

const stores = [
  { workspace: '/home/me/src/api', bytes: 12 * 1024 * 1024 },
  { workspace: '/srv/web', bytes: 1536 },
];

describe('Settings: Checkpoints', () => {
  it('shows how much room each workspace’s snapshots take, and the limit', () => {
    settingsWith({ home: '/home/me', checkpoints: { available: true, limitBytes: 2 * GiB, stores } });
    const list = within(section()).getByRole('list', { name: 'Snapshots per workspace' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['~/src/api: 12 MiB', '/srv/web: 1.5 KiB']);
    const limit = within(section()).getByLabelText('Limit per workspace');
    expect(limit).toHaveValue('2.0 GiB');
    expect(limit).toHaveAccessibleDescription(/the oldest snapshots go first/);
  });

  it('saves a new limit and shows what the app kept', async () => {
    const { fake, store } = settingsWith({ checkpoints: { available: true, limitBytes: 2 * GiB, stores: [] } });
    fake.reply('settings.set', {
      ...SETTINGS_NONE,
      checkpoints: { available: true, limitBytes: 500 * 1024 ** 2, stores: [] },
    });
    const limit = within(section()).getByLabelText('Limit per workspace');
    await userEvent.clear(limit);
    await userEvent.type(limit, '500 MiB');
    await userEvent.click(within(section()).getByRole('button', { name: 'Save limit' }));
    expect(fake.requestsOf('settings.set')).toEqual([{ checkpointLimitBytes: 500 * 1024 ** 2 }]);
    expect(await within(section()).findByRole('status')).toHaveTextContent('Saved.');
    expect(store.getState().settings?.checkpoints?.limitBytes).toBe(500 * 1024 ** 2);
    expect(section()).toHaveTextContent('Now 500 MiB');
  });

  it('says what it cannot read, and what the app refused, without sending the unreadable', async () => {
    const { fake } = settingsWith({ checkpoints: { available: true, limitBytes: 2 * GiB, stores: [] } });
    const limit = within(section()).getByLabelText('Limit per workspace');
    await userEvent.clear(limit);
    await userEvent.type(limit, 'lots');
    await userEvent.click(within(section()).getByRole('button', { name: 'Save limit' }));
    expect(within(section()).getByRole('alert')).toHaveTextContent('Type a size such as 2 GiB or 500 MiB.');
    expect(fake.requestsOf('settings.set')).toEqual([]);
    fake.fail('settings.set', 'the checkpoint limit must be at least 64 MiB');
    await userEvent.clear(limit);
    await userEvent.type(limit, '1 MiB');
    await userEvent.click(within(section()).getByRole('button', { name: 'Save limit' }));
    expect(await within(section()).findByRole('alert')).toHaveTextContent(
      'the checkpoint limit must be at least 64 MiB',
    );
  });

  it('says undo is off without git, why, and what to install', () => {
    settingsWith({
      checkpoints: {
        available: false,
        reason: 'git was not found',
        fix: 'Install git (apt install git).',
        limitBytes: 2 * GiB,
      },
    });
    const note = within(section()).getByRole('note');
    expect(note).toHaveTextContent('Undo is off here: git was not found.');
    expect(note).toHaveTextContent('Install git (apt install git).');
  });

  it('reads sizes as a person types them', () => {
    expect(parseLimit('2')).toEqual({ bytes: 2 * GiB });
    expect(parseLimit(' 1.5 gib ')).toEqual({ bytes: 1.5 * GiB });
    expect(parseLimit('500MiB')).toEqual({ bytes: 500 * 1024 ** 2 });
    expect(parseLimit('3 GB')).toEqual({ bytes: 3e9 });
    expect(parseLimit('1 TiB')).toEqual({ bytes: 1024 ** 4 });
    expect(parseLimit('2 parsecs')).toHaveProperty('error');
    expect(parseLimit('-1')).toHaveProperty('error');
  });
});
