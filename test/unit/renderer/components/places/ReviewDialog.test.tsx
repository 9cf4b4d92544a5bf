/**
 * The review screen of a session's place (SPEC §15): every file with its state against the
 * person's folder and its diff; only ready files take a tick and a conflict is never
 * written; Apply, Apply as a commit (after its card), Keep the branch and Discard (after
 * theirs); what each did said after it, and a fresh review after an apply.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PlaceApplyReply, PlaceReview } from '../../../../../shared/places';
import { App } from '../../../../../renderer/src/App';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';
import { stubLayout } from '../layout-stub';
import { ADDED, APPLIED, BRANCH, COMMIT_ARGV, CONFLICT, COPY, READY, reviewOf, WORKTREE } from './place-fixtures';

stubLayout();

function show(review: PlaceReview = reviewOf()) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's', title: 'fix the calculator', workspace: review.place.path, place: review.place }, [
    { type: 'place', place: review.place },
  ]);
  store.getState().openTab('s');
  const frame = renderFrame(<App />, { store });
  frame.fake.reply('session.review', review);
  return { ...frame, store };
}

async function openReview() {
  await userEvent.click(screen.getByRole('button', { name: 'Review…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Review the place’s changes' });
  await within(dialog).findByRole('list', { name: 'Files the session changed' });
  return dialog;
}

const outcome = (over: Partial<PlaceApplyReply> = {}): PlaceApplyReply => ({
  applyId: 'p1',
  applied: [],
  conflicts: [],
  failed: [],
  ...over,
});

describe('the review screen', () => {
  it('lists every file with its state and its diff, and says what the place is', async () => {
    const { fake } = show();
    const dialog = await openReview();
    expect(fake.requestsOf('session.review')).toEqual([{ id: 's' }]);
    expect(dialog).toHaveTextContent(
      `The session changed 4 files in branch ${BRANCH}, a worktree of /home/me/src/calc, since its base 4f1c2ab.2 ready to apply, 1 in conflict with your folder, 1 already in your folder. The place takes 3.1 MiB on disk.`,
    );
    const items = within(within(dialog).getByRole('list', { name: 'Files the session changed' })).getAllByRole(
      'listitem',
    );
    expect(items.map((i) => i.querySelector('.review-status')?.textContent)).toEqual([
      'Ready to apply',
      'Ready to apply',
      '⚠ Conflict: you changed it too',
      'Already in your folder',
    ]);
    // More than three files: each diff opens from its line.
    expect(within(dialog).queryByText('return a + b')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: /^calc\.py/ }));
    expect(within(dialog).getByText('return a + b')).toBeInTheDocument();
  });

  it('ticks the ready files; a conflict or an applied file takes no tick', async () => {
    show();
    const dialog = await openReview();
    expect(within(dialog).getByRole('checkbox', { name: `Apply ${READY.path}` })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: `Apply ${ADDED.path}` })).toBeChecked();
    const conflict = within(dialog).getByRole('checkbox', { name: `Apply ${CONFLICT.path}` });
    expect(conflict).not.toBeChecked();
    expect(conflict).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: `Apply ${APPLIED.path}` })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Apply to my folder (2 files)' })).toBeEnabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: `Apply ${READY.path}` }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: `Apply ${ADDED.path}` }));
    expect(within(dialog).getByRole('button', { name: 'Apply to my folder' })).toBeDisabled();
    expect(dialog).toHaveTextContent('Tick a file that is ready to apply.');
  });

  it('shows a conflict with both sides and the merged text, and offers nothing that writes it', async () => {
    show(reviewOf({ files: [CONFLICT] }));
    const dialog = await openReview();
    const item = within(dialog).getByRole('listitem');
    expect(item).toHaveTextContent('You changed this file since the session began, so Apply leaves it alone.');
    expect(within(item).getByRole('heading', { name: 'The session’s change' })).toBeInTheDocument();
    expect(within(item).getByRole('heading', { name: 'Your change since the session began' })).toBeInTheDocument();
    expect(within(item).getAllByText('Adds, one day.')).toHaveLength(2); // their diff, and the merged text
    const merged = within(item).getByLabelText('Merged text with conflict markers');
    expect(merged).toHaveTextContent('<<<<<<< yours');
    // Line by line: a line's end is a real one, not a mark.
    expect(merged.textContent).toContain('# calc\n<<<<<<< yours\nAdds, one day.\n');
    expect(merged.tagName).toBe('PRE');
    // Nothing in the item writes: its buttons are the diff's layout, the line, and no other.
    const names = within(item)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names.filter((n) => !/Side by side|Line by line|README\.md/.test(n ?? ''))).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Apply to my folder' })).toBeDisabled();
    expect(dialog).toHaveTextContent('None left to apply, 1 in conflict with your folder.');
    expect(dialog).toHaveTextContent('Nothing left to apply.');
  });

  it('applies the ticked files as files, says what it did, and reviews again', async () => {
    const { fake } = show();
    const dialog = await openReview();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: `Apply ${ADDED.path}` }));
    let answer!: (reply: { ok: true; data: PlaceApplyReply }) => void;
    fake.respond('session.apply', () => new Promise((resolve) => (answer = resolve)));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply to my folder (1 file)' }));
    expect(fake.requestsOf('session.apply')).toEqual([{ id: 's', reviewId: 'r1', as: 'files', paths: [READY.path] }]);
    expect(within(dialog).getByRole('status')).toHaveTextContent('Applying 1 file…');
    expect(within(dialog).getByRole('button', { name: 'Discard…' })).toBeDisabled();
    fake.reply('session.review', reviewOf({ reviewId: 'r2', files: [{ ...READY, status: 'applied' }, ADDED] }));
    answer({ ok: true, data: outcome({ applied: [READY.path] }) });
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('Applied 1 file to /home/me/src/calc.'),
    );
    await waitFor(() => expect(fake.requestsOf('session.review')).toHaveLength(2));
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: `Apply ${READY.path}` })).toBeDisabled());
  });

  it('says conflicts met during the apply and failures with their reasons', async () => {
    const { fake } = show();
    const dialog = await openReview();
    fake.reply(
      'session.apply',
      outcome({
        applied: [READY.path],
        conflicts: [ADDED.path],
        failed: [{ path: 'x.bin', reason: 'its folder is a link' }],
      }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply to my folder (2 files)' }));
    const status = within(dialog).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Applied 1 file'));
    expect(status).toHaveTextContent(`Left alone, changed in your folder since the review: ${ADDED.path}.`);
    expect(status).toHaveTextContent('Not applied: x.bin: its folder is a link');
  });

  it('says the host’s error in words, and changes nothing on screen but that', async () => {
    const { fake } = show();
    const dialog = await openReview();
    fake.fail('session.apply', 'the review is out of date: review again');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply to my folder (2 files)' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not apply: the review is out of date: review again',
    );
  });

  it('applies as a commit only after its card, which shows the git commands and takes the message', async () => {
    const { fake } = show();
    const dialog = await openReview();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply as a commit on my branch…' }));
    expect(fake.requestsOf('session.apply')).toEqual([]);
    const card = within(dialog).getByRole('region', { name: 'Apply as a commit on main' });
    const commands = within(card).getByRole('list', { name: 'Git commands, in order' });
    expect(within(commands).getAllByRole('listitem', { name: '' }).length).toBeGreaterThan(0);
    expect(
      within(commands)
        .getAllByRole('list', { name: 'Command and arguments' })
        .map((l) =>
          within(l)
            .getAllByRole('listitem')
            .map((t) => t.textContent),
        ),
    ).toEqual(COMMIT_ARGV);
    const message = within(card).getByRole('textbox', { name: 'Commit message' });
    expect(message).toHaveValue('fix the calculator');
    await userEvent.clear(message);
    expect(within(card).getByRole('button', { name: 'Make the commit' })).toBeDisabled();
    await userEvent.type(message, 'Fix add');
    fake.reply('session.apply', outcome({ applied: [READY.path, ADDED.path], commit: 'c0ffee1234' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Make the commit' }));
    expect(fake.requestsOf('session.apply')).toEqual([
      { id: 's', reviewId: 'r1', as: 'commit', paths: [READY.path, ADDED.path], message: 'Fix add' },
    ]);
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('Made commit c0ffee1 on your branch.'),
    );
  });

  it('shows the switches every git command shares once, and each command from where it differs', async () => {
    const quiet = ['git', '-c', 'core.hooksPath=/dev/null', '-c', 'filter.lfs.smudge='];
    show(
      reviewOf({
        commit: {
          branch: 'main',
          argv: [
            [...quiet, 'write-tree'],
            [...quiet, 'update-ref', 'refs/heads/main'],
          ],
        },
      }),
    );
    const dialog = await openReview();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply as a commit on my branch…' }));
    const card = within(dialog).getByRole('region', { name: 'Apply as a commit on main' });
    expect(card).toHaveTextContent('Each command below begins with:');
    const tokens = (list: HTMLElement) =>
      within(list)
        .getAllByRole('listitem')
        .map((t) => t.textContent);
    const [shared, ...each] = within(card).getAllByRole('list', { name: 'Command and arguments' });
    expect(tokens(shared!)).toEqual(quiet);
    expect(each.map(tokens)).toEqual([['write-tree'], ['update-ref', 'refs/heads/main']]);
  });

  it('keeps Apply as a commit off with the reason when the folder cannot take one', async () => {
    show(reviewOf({ commit: { why: 'your repository is on a detached HEAD' } }));
    const dialog = await openReview();
    expect(within(dialog).getByRole('button', { name: 'Apply as a commit on my branch…' })).toBeDisabled();
    expect(dialog).toHaveTextContent('Apply as a commit is off: your repository is on a detached HEAD');
  });

  it('keeps the branch after a card that says what goes and what stays', async () => {
    const { fake } = show();
    const dialog = await openReview();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the branch…' }));
    const card = within(dialog).getByRole('region', { name: `Keep the branch ${BRANCH} and remove the place` });
    expect(card).toHaveTextContent(`The branch ${BRANCH} stays in your repository`);
    // The branch's deletion is not among its commands.
    expect(card).not.toHaveTextContent('-D');
    fake.reply('session.discardPlace', { place: { ...WORKTREE, state: 'discarded' } });
    await userEvent.click(within(card).getByRole('button', { name: 'Remove the place, keep the branch' }));
    expect(fake.requestsOf('session.discardPlace')).toEqual([{ id: 's', keepBranch: true }]);
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(`The branch ${BRANCH} stays in /home/me/src/calc`),
    );
    expect(within(dialog).queryByRole('list', { name: 'Files the session changed' })).toBeNull();
  });

  it('discards after a card listing what it removes and the commands', async () => {
    const { fake } = show();
    const dialog = await openReview();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard…' }));
    expect(fake.requestsOf('session.discardPlace')).toEqual([]);
    const card = within(dialog).getByRole('region', { name: 'Discard the place' });
    expect(
      within(within(card).getByRole('list', { name: 'What Discard removes' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([WORKTREE.path, `the branch ${BRANCH}`]);
    expect(card).toHaveTextContent('The 3 files not in your folder yet will be lost.');
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).queryByRole('region', { name: 'Discard the place' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard…' }));
    fake.reply('session.discardPlace', { place: { ...WORKTREE, state: 'discarded' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(fake.requestsOf('session.discardPlace')).toEqual([{ id: 's', keepBranch: false }]);
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(`Discarded the place and its branch ${BRANCH}.`),
    );
    // The focus stayed in the dialog as its body went away, so Escape still closes it.
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers no Keep the branch for a copy, nor a commit, saying why', async () => {
    show(reviewOf({ place: COPY, commit: null, discard: { removes: [COPY.path], argv: [] } }));
    const dialog = await openReview();
    expect(within(dialog).queryByRole('button', { name: 'Keep the branch…' })).toBeNull();
    expect(dialog).toHaveTextContent('has no branch to commit on');
    expect(dialog).toHaveTextContent('a copy of /home/me/notes, since it was made');
  });

  it('says when the review cannot be read', async () => {
    const { fake } = show();
    fake.fail('session.review', 'the place’s folder is gone');
    await userEvent.click(screen.getByRole('button', { name: 'Review…' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not read the place’s changes: the place’s folder is gone',
    );
  });
});
