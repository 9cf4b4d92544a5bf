/**
 * Settings' list of what commands see of the home folder (SPEC §9): a place the core
 * refuses (~/.config, a folder holding a secret store) is not listed, the field keeps what
 * was typed, and the core's words say why and what to add instead.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../../shared/contract';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const HOME = '/home/ann';
const REFUSAL =
  'cannot show "~/.config" to commands: ~/.config holds the settings of many tools, their tokens and keys among them; add the tool\'s own folder instead, such as ~/.config/nvim or ~/.sdkman';

function settingsWith(view: Partial<SettingsView>) {
  const store = createAppStore(memoryStorage());
  store.getState().setSettings({ ...SETTINGS_NONE, ...view });
  store.getState().openDialog('settings');
  return renderFrame(<SettingsDialog />, { store });
}

const commands = () => screen.getByRole('group', { name: 'Commands' });

describe('Settings: what commands see of the home folder', () => {
  it('shows the core’s refusal of ~/.config in words, keeps the text typed, and lists nothing new', async () => {
    const shown = { toolchains: [`${HOME}/.cargo/bin`], added: [] };
    const { fake } = settingsWith({ sandbox: { available: true }, refuseUnconfined: false, home: HOME, shown });
    fake.fail('settings.set', REFUSAL);
    const field = within(commands()).getByRole('textbox', { name: 'Also show' });
    expect(field).toHaveAccessibleDescription(/Add a tool's own folder \(~\/\.config\/nvim\), not ~\/\.config/);
    await userEvent.type(field, '~/.config');
    await userEvent.click(within(commands()).getByRole('button', { name: 'Add' }));
    expect(fake.requestsOf('settings.set')).toEqual([{ shownPlaces: ['~/.config'] }]);
    expect(await within(commands()).findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(field).toHaveValue('~/.config');
    expect(within(commands()).queryByRole('list', { name: 'Places you added' })).toBeNull();
  });
});
