import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OpenFolderDialog } from '../../../../../renderer/src/components/workspace/OpenFolderDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { summaryOf } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

function dialog() {
  const store = createAppStore(memoryStorage());
  store
    .getState()
    .setSummaries([
      summaryOf({ id: 'o', workspace: '/home/me/src/old', updatedAt: '2026-12-01T00:00:00.000Z' }),
      summaryOf({ id: 'n', workspace: '/home/me/src/new', updatedAt: '2026-12-03T00:00:00.000Z' }),
    ]);
  store.getState().openDialog('open-folder');
  const frame = renderFrame(<OpenFolderDialog />, { store });
  frame.fake.respond('sessions.open', ({ workspace }) => ({
    ok: true,
    data: summaryOf({ id: `id:${workspace}`, workspace }),
  }));
  return frame;
}

const field = () => screen.getByRole('combobox', { name: 'Folder' });

describe('the open-folder dialog', () => {
  it('opens a session on the typed folder with Enter, in a new tab, and closes', async () => {
    const { fake, store } = dialog();
    expect(field()).toHaveFocus();
    await userEvent.type(field(), '/home/me/src/api{Enter}');
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/src/api' }]);
    await waitFor(() => expect(store.getState().dialog).toBeNull());
    expect(store.getState().activeId).toBe('id:/home/me/src/api');
  });

  it('shows the error in the dialog and stays open', async () => {
    const { fake, store } = dialog();
    fake.fail('sessions.open', 'not a folder: /etc/hosts');
    await userEvent.type(field(), '/etc/hosts{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('not a folder: /etc/hosts');
    expect(store.getState().dialog).toBe('open-folder');
  });

  it('completes folders from folders.complete: arrows pick, Tab takes, Enter then opens', async () => {
    const { fake } = dialog();
    fake.respond('folders.complete', ({ prefix }) => ({
      ok: true,
      data: { folders: prefix === '~/sr' ? ['/home/me/src', '/home/me/srv'] : [] },
    }));
    await userEvent.type(field(), '~/sr');
    await screen.findByRole('option', { name: '/home/me/src' });
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('option', { name: '/home/me/srv' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Tab}');
    expect(field()).toHaveValue('/home/me/srv/');
    await userEvent.keyboard('{Enter}');
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/srv/' }]);
  });

  it('lists recent workspaces newest first, and one click opens one', async () => {
    const { fake } = dialog();
    const recent = screen.getAllByRole('button', { name: /^\/home\/me\/src\// });
    expect(recent.map((b) => b.textContent)).toEqual(['/home/me/src/new', '/home/me/src/old']);
    await userEvent.click(recent[1]!);
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/src/old' }]);
  });
});
