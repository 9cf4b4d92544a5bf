/**
 * The frame around the sessions: the open-folder dialog completes folders only, Ctrl+W
 * closes a tab without deleting its session, Ctrl+1 / Ctrl+2 switch tabs, and Settings
 * writes the model to settings.json, and a drop in the browser is refused with a way out.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { visible } from './harness/gatehouse-page.js';
import { waitUntil } from './harness/wait-until.js';

const world = useWorld('frame');

describe('the frame', () => {
  test('Ctrl+O completes folder names (never files) and opens the chosen one', async () => {
    const { ui } = world;
    const root = await world.folders.workspace('pick', {
      'project-a/x.txt': 'a',
      'project-b/y.txt': 'b',
      'profile.txt': 'file',
    });
    await ui.page.keyboard.press('Control+o');
    const dialog = await visible(ui.page.getByRole('dialog'), 'the open-folder dialog');
    await dialog.getByRole('combobox', { name: 'Folder' }).fill(path.join(root, 'pro'));
    const options = dialog.getByRole('listbox', { name: 'Folders' }).getByRole('option');
    const names = await waitUntil(
      () => options.allTextContents(),
      (t) => t.length >= 2,
      'two folder suggestions',
    );
    expect(names.map((n) => path.basename(n.replace(/\/$/, '')).trim()).sort()).toEqual(['project-a', 'project-b']);
    await world.shot('open-folder-completion');
    await dialog.getByRole('combobox', { name: 'Folder' }).press('ArrowDown');
    await world.shot('open-folder-completion-picked');
    await options.filter({ hasText: 'project-b' }).click();
    await waitUntil(
      () => dialog.getByRole('combobox', { name: 'Folder' }).inputValue(),
      (v) => v.includes('project-b'),
      'the field filled',
    );
    await dialog.getByRole('combobox', { name: 'Folder' }).press('Enter');
    await ui.selectTab('project-b');
  });

  test('Ctrl+W closes a tab but keeps the session; Ctrl+1 and Ctrl+2 switch tabs', async () => {
    const { ui } = world;
    await ui.openWorkspace(await world.folders.workspace('second-ws'));
    await ui.composer().focus();
    await ui.page.keyboard.press('Control+1');
    await waitUntil(
      () => ui.tabs().nth(0).getAttribute('aria-selected'),
      (v) => v === 'true',
      'the first tab selected',
    );
    await ui.page.keyboard.press('Control+2');
    await waitUntil(
      () => ui.tabs().nth(1).getAttribute('aria-selected'),
      (v) => v === 'true',
      'the second tab selected',
    );

    const before = await ui.tabs().count();
    await ui.page.keyboard.press('Control+w');
    await waitUntil(
      () => ui.tabs().count(),
      (n) => n === before - 1,
      'one tab fewer after Ctrl+W',
    );
    expect(await ui.tabs().filter({ hasText: 'second-ws' }).count()).toBe(0);
    const entry = await visible(
      ui.sidebar().getByText('second-ws', { exact: true }),
      'the closed session still in the sidebar',
    );
    await entry.click();
    await ui.selectTab('second-ws');
  });

  test('Settings saves the model to settings.json', async () => {
    const { ui } = world;
    await ui.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = await visible(ui.page.getByRole('dialog'), 'the Settings dialog');
    const modelId = dialog.getByLabel('Model id');
    await modelId.fill('fake-renamed');
    await dialog.getByRole('button', { name: 'Save model' }).click();
    const file = path.join(world.folders.dataDir, 'settings.json');
    await waitUntil(
      async () => JSON.parse(await fs.readFile(file, 'utf8')) as { model: { modelId: string } },
      (s) => s.model.modelId === 'fake-renamed',
      'settings.json with the new model id',
    );
    await modelId.fill('fake');
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await waitUntil(
      async () => JSON.parse(await fs.readFile(file, 'utf8')) as { model: { modelId: string } },
      (s) => s.model.modelId === 'fake',
      'settings.json back to the first model id',
    );
    await dialog.getByLabel('Provider').selectOption('anthropic');
    await modelId.fill('');
    await modelId.pressSequentially('claude');
    await modelId.press('ArrowDown');
    await modelId.press('ArrowDown');
    await world.shot('settings-model-combobox');
    await modelId.press('Escape');
    expect(await dialog.getByRole('listbox').count()).toBe(0);
    expect(await ui.page.getByRole('dialog').count()).toBe(1);
    await ui.page.keyboard.press('Escape');
    await waitUntil(
      () => ui.page.getByRole('dialog').count(),
      (n) => n === 0,
      'the dialog closed by Esc',
    );
  });

  test('a drop in the browser opens nothing and says to use Ctrl+O instead', async () => {
    const { ui } = world;
    const before = await ui.tabs().count();
    const data = await ui.page.evaluateHandle(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'notes.txt', { type: 'text/plain' }));
      return data;
    })()`);
    const target = ui.page.locator('.drop-zone').first();
    await target.dispatchEvent('dragover', { dataTransfer: data });
    await target.dispatchEvent('drop', { dataTransfer: data });
    await visible(ui.page.getByText(/Ctrl\+O|is a file/), 'a notice saying the drop cannot be used and what to do');
    await world.shot('browser-drop-refused');
    expect(await ui.tabs().count()).toBe(before);
  });
});
