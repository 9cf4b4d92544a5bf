/** Settings' Commands section (SPEC §9): the sandbox's state and the refuse setting. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../../shared/contract';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const FIX = 'Install bubblewrap (Debian and Ubuntu: sudo apt install bubblewrap), then restart Gatehouse.';

function settingsWith(view: Partial<SettingsView>) {
  const store = createAppStore(memoryStorage());
  store.getState().setSettings({ ...SETTINGS_NONE, ...view });
  store.getState().openDialog('settings');
  return renderFrame(<SettingsDialog />, { store });
}

const commands = () => screen.getByRole('group', { name: 'Commands' });
const refuse = () => within(commands()).getByRole('checkbox', { name: 'Refuse commands that cannot be confined' });

describe('Settings: Commands', () => {
  it('says commands run in a sandbox where one can run', () => {
    settingsWith({ sandbox: { available: true }, refuseUnconfined: false });
    expect(commands()).toHaveTextContent('Commands run in a sandbox (bubblewrap)');
    expect(within(commands()).queryByRole('note')).toBeNull();
    expect(refuse()).not.toBeChecked();
    expect(refuse()).toHaveAccessibleDescription(/Where no sandbox can run, the agent is told no/);
  });

  it('says why commands run unconfined here, and what to install', () => {
    settingsWith({
      sandbox: { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: FIX },
      refuseUnconfined: false,
    });
    const note = within(commands()).getByRole('note');
    expect(note).toHaveTextContent('Commands run unconfined here: bubblewrap (bwrap) is not installed.');
    expect(note).toHaveTextContent(FIX);
    expect(commands()).not.toHaveTextContent('Commands run in a sandbox');
  });

  it('binds the checkbox to settings.set {refuseUnconfined} and shows what the core saved', async () => {
    const sandbox = { available: false as const, reason: 'bubblewrap (bwrap) is not installed', fix: FIX };
    const { fake } = settingsWith({ sandbox, refuseUnconfined: false });
    fake.reply('settings.set', { ...SETTINGS_NONE, sandbox, refuseUnconfined: true });
    await userEvent.click(refuse());
    expect(fake.requestsOf('settings.set')).toEqual([{ refuseUnconfined: true }]);
    expect(refuse()).toBeChecked();

    fake.reply('settings.set', { ...SETTINGS_NONE, sandbox, refuseUnconfined: false });
    await userEvent.click(refuse());
    expect(fake.requestsOf('settings.set')).toEqual([{ refuseUnconfined: true }, { refuseUnconfined: false }]);
    expect(refuse()).not.toBeChecked();
  });

  it('keeps the box as it was and says why when the setting cannot be saved', async () => {
    const { fake } = settingsWith({ sandbox: { available: true }, refuseUnconfined: false });
    fake.fail('settings.set', 'settings.json is read-only');
    await userEvent.click(refuse());
    expect(await screen.findByRole('alert')).toHaveTextContent('settings.json is read-only');
    expect(refuse()).not.toBeChecked();
  });

  it('is absent when the core says nothing of a sandbox', () => {
    settingsWith({});
    expect(screen.queryByRole('group', { name: 'Commands' })).toBeNull();
  });
});
