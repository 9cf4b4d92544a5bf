/**
 * Settings → Places (SPEC §15): every place with its size in human units, its origin, its
 * branch and its session, or "Session gone"; only an orphan has Remove, and only after a
 * confirm; a failure is said in the host's words.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PlacesSection } from '../../../../../renderer/src/components/settings/PlacesSection';
import { createFakeApi, type FakeApi } from '../../fake-api';
import { BRANCH, LISTED, ORIGIN } from '../places/place-fixtures';

function renderSection(fake: FakeApi = createFakeApi()) {
  render(
    <ApiProvider api={fake.api}>
      <PlacesSection />
    </ApiProvider>,
  );
  return fake;
}

const ORPHAN = LISTED[1]!;

describe('Settings → Places', () => {
  it('lists each place with its size, its origin, its branch and its session', async () => {
    const fake = createFakeApi();
    fake.reply('places.list', { places: LISTED });
    renderSection(fake);
    const live = await screen.findByRole('listitem', { name: 'fix the calculator' });
    expect(live).toHaveTextContent(`3.1 MiB`);
    expect(live).toHaveTextContent(`Branch ${BRANCH} of ${ORIGIN}`);
    expect(live).toHaveTextContent('Discard it from its session’s Review.');
    expect(within(live).queryByRole('button')).toBeNull();
    const orphan = screen.getByRole('listitem', { name: 'Session gone' });
    expect(orphan).toHaveTextContent('700 MiB');
    expect(orphan).toHaveTextContent('A copy of /home/me/notes');
    expect(screen.getByRole('region', { name: 'Places' })).toHaveTextContent('2 places, 703 MiB on disk.');
  });

  it('removes an orphan only after the confirm, then lists again', async () => {
    const fake = createFakeApi();
    fake.reply('places.list', { places: LISTED });
    renderSection(fake);
    const orphan = await screen.findByRole('listitem', { name: 'Session gone' });
    await userEvent.click(within(orphan).getByRole('button', { name: 'Remove…' }));
    expect(fake.requestsOf('places.remove')).toEqual([]);
    const confirm = within(orphan).getByRole('group', { name: 'Remove this place?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(fake.requestsOf('places.remove')).toEqual([]);
    await userEvent.click(within(orphan).getByRole('button', { name: 'Remove…' }));
    fake.reply('places.list', { places: [LISTED[0]!] });
    await userEvent.click(within(orphan).getByRole('button', { name: 'Remove the place' }));
    expect(fake.requestsOf('places.remove')).toEqual([{ path: ORPHAN.path }]);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Session gone' })).toBeNull());
    expect(fake.requestsOf('places.list')).toHaveLength(2);
  });

  it('says why a removal failed, in the host’s words', async () => {
    const fake = createFakeApi();
    fake.reply('places.list', { places: LISTED });
    fake.fail('places.remove', 'that place belongs to a session');
    renderSection(fake);
    const orphan = await screen.findByRole('listitem', { name: 'Session gone' });
    await userEvent.click(within(orphan).getByRole('button', { name: 'Remove…' }));
    await userEvent.click(within(orphan).getByRole('button', { name: 'Remove the place' }));
    expect(await within(orphan).findByRole('alert')).toHaveTextContent(
      'Could not remove the place: that place belongs to a session',
    );
  });

  it('says there are none, and says it when the host has no places', async () => {
    renderSection();
    expect(await screen.findByText('No places.')).toBeInTheDocument();
  });

  it('shows the host’s refusal as a note', async () => {
    const fake = createFakeApi();
    fake.fail('places.list', 'not in this build yet');
    renderSection(fake);
    expect(await screen.findByRole('note')).toHaveTextContent('Places: not in this build yet');
  });
});
