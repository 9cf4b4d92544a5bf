import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../../../../renderer/src/App';
import { BROWSER_DROP_MESSAGE } from '../../../../../renderer/src/components/workspace/dropped-folder';
import { summaryOf } from '../../fake-api';
import { renderFrame } from '../../render-frame';

/** A drop's DataTransfer as Chromium gives it: one file item whose entry says file or folder. */
function dropOf(name: string, isDirectory: boolean | null) {
  const file = new File([], name);
  const item = {
    kind: 'file',
    type: '',
    getAsFile: () => file,
    webkitGetAsEntry: () => (isDirectory === null ? null : { isDirectory, isFile: !isDirectory, name }),
  };
  return { dataTransfer: { types: ['Files'], items: [item], files: [file], dropEffect: 'none' } };
}

const dropTarget = () => document.querySelector('.drop-zone')!;

describe('dropping onto the window', () => {
  it('refuses a file with a message that says to drop a folder, and opens nothing', async () => {
    const { fake } = renderFrame(<App />, { getPathForFile: () => '/home/me/notes.txt' });
    fireEvent.drop(dropTarget(), dropOf('notes.txt', false));
    expect(await screen.findByRole('alert')).toHaveTextContent('"notes.txt" is a file. Gatehouse opens folders');
    expect(fake.requestsOf('sessions.open')).toEqual([]);
  });

  it('opens a dropped folder through getPathForFile, in a new tab', async () => {
    const { fake, store } = renderFrame(<App />, { getPathForFile: () => '/home/me/src/api' });
    fake.reply('sessions.open', summaryOf({ id: 'api1', title: 'api', workspace: '/home/me/src/api' }));
    fireEvent.drop(dropTarget(), dropOf('api', true));
    await waitFor(() => expect(store.getState().activeId).toBe('api1'));
    expect(fake.requestsOf('sessions.open')).toEqual([{ workspace: '/home/me/src/api' }]);
    expect(screen.getByRole('tab', { name: /api/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('in a browser, which cannot give the path, says to use Open folder', async () => {
    const { fake } = renderFrame(<App />);
    fireEvent.drop(dropTarget(), dropOf('api', true));
    expect(await screen.findByRole('alert')).toHaveTextContent(BROWSER_DROP_MESSAGE);
    expect(fake.requestsOf('sessions.open')).toEqual([]);
  });

  it('shows the error when the app cannot open the dropped folder', async () => {
    const { fake } = renderFrame(<App />, { getPathForFile: () => '/root/secret' });
    fake.fail('sessions.open', 'permission denied: /root/secret');
    fireEvent.drop(dropTarget(), dropOf('secret', true));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not open /root/secret: permission denied');
  });
});
