/**
 * One call, one row: a gated tool call shows once in the transcript, with its answer, its
 * state in words and what it changed (UI.md card rule 10); its card is answered above the
 * composer, and its files open as diffs.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../../shared/events';
import { SessionView } from '../../../../../renderer/src/components/session/SessionView';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession, writeCard } from '../../render-frame';
import { stubLayout } from '../layout-stub';
import {
  appendEvents,
  CALC_DIFF,
  cardFor,
  checkpoint,
  ended,
  turnThatChanged,
  turnView,
  WRITE_CALC,
} from '../changes/checkpoint-fixtures';

stubLayout();

const asking: EventPayload[] = turnThatChanged().slice(0, 4);

function show(payloads: EventPayload[]) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's', workspace: '/home/me/src/project' }, payloads);
  return { ...renderFrame(<SessionView sessionId="s" />, { store }), store };
}

const log = () => screen.getByRole('log', { name: 'Transcript' });
const rows = () => [...log().querySelectorAll<HTMLElement>('.tool-row')];
const line = (row: HTMLElement) => within(row).getAllByRole('button')[0]!;

describe('a gated call in the transcript', () => {
  it('is one row that says it waits for you while its card is open, and the card is answered above the composer', () => {
    show(asking);
    expect(rows()).toHaveLength(1);
    expect(log().querySelector('.card-record')).toBeNull();
    const row = line(rows()[0]!);
    expect(row).toHaveTextContent('search_replace');
    expect(row).toHaveTextContent('calc.py');
    expect(row).toHaveTextContent('waiting for you — answer the card above the composer');
    expect(within(log()).queryByRole('button', { name: 'Allow once' })).toBeNull();
    const cards = screen.getAllByRole('region', { name: 'Permission: write calc.py' });
    expect(cards).toHaveLength(1);
    expect(within(cards[0]!).getByRole('button', { name: /Allow once/ })).toBeInTheDocument();
  });

  it('collapses to one line once answered: the call, the answer, its state and what it changed', () => {
    show([...turnThatChanged(), ended()]);
    const [write, run] = rows();
    expect(line(write!)).toHaveTextContent(/search_replace\s*calc\.py\s*Allowed once ·\s*✓ done\s*· changed 1 file/);
    expect(line(run!)).toHaveTextContent(/Allowed for this session ·\s*✓ done\s*· changed 2 files/);
    expect(screen.queryByRole('region', { name: /Permission/ })).toBeNull();
  });

  it('opens to what its card asked (the diff and the scope), then the arguments and the result', async () => {
    show([...turnThatChanged(), ended()]);
    await userEvent.click(line(rows()[0]!));
    const details = rows()[0]!.querySelector<HTMLElement>('.tool-row-details')!;
    expect(details).toHaveTextContent('Card: Allowed once');
    expect(details).toHaveTextContent('const limit = 20;');
    expect(details).toHaveTextContent('Scope offered: Allow writes to');
    expect(details).toHaveTextContent('Arguments');
    expect(details).toHaveTextContent('replaced 1');
  });

  it('keeps a card asked again in the same row, each card saying what became of it', async () => {
    show([
      ...asking,
      { type: 'card_stale', cardId: 'k1-t1', answer: 'allow_once', reason: 'the file on disk changed' },
      {
        ...cardFor('c1', 'k1b', WRITE_CALC),
        reasked: { previousCardId: 'k1-t1', reason: 'the file changed' },
      } as EventPayload,
      { type: 'card_answer', cardId: 'k1b', answer: 'allow_once' },
    ]);
    expect(rows()).toHaveLength(1);
    await userEvent.click(line(rows()[0]!));
    const details = rows()[0]!.querySelector('.tool-row-details')!;
    expect(details).toHaveTextContent('Card 1 of 2: Dropped: file changed (the file on disk changed)');
    expect(details).toHaveTextContent('Card 2 of 2: Allowed once');
    expect(line(rows()[0]!)).toHaveTextContent('Allowed once · running…');
  });

  it('says a denied call was denied and did not run, not that it failed', () => {
    show([
      ...asking,
      { type: 'card_answer', cardId: 'k1-t1', answer: 'deny' },
      {
        type: 'tool_result',
        turnId: 't1',
        toolCallId: 'c1',
        tool: 'search_replace',
        ok: false,
        output: 'denied by the user',
      },
    ]);
    expect(line(rows()[0]!)).toHaveTextContent(/Denied ·\s*– not run/);
    expect(line(rows()[0]!)).not.toHaveTextContent('failed');
  });

  it('follows the call as events arrive: waiting, then running, then done', () => {
    const { store } = show(asking);
    expect(line(rows()[0]!)).toHaveTextContent('waiting for you');
    appendEvents(store, 's', [{ type: 'card_answer', cardId: 'k1-t1', answer: 'allow_once' }]);
    expect(line(rows()[0]!)).toHaveTextContent('Allowed once · running…');
    appendEvents(store, 's', [
      checkpoint('t1', 'c1', []),
      { type: 'tool_result', turnId: 't1', toolCallId: 'c1', tool: 'search_replace', ok: true, output: 'same' },
    ]);
    expect(line(rows()[0]!)).toHaveTextContent(/Allowed once ·\s*✓ done\s*· changed no files/);
  });

  it('lists the files it changed, each opening as a diff asked for that call once', async () => {
    const { fake } = show([...turnThatChanged(), ended()]);
    fake.reply('session.changes', turnView({ turnId: 't1', toolCallId: 'c2', files: turnView().files.slice(1) }));
    const files = within(rows()[1]!).getByRole('list', { name: 'Files changed' });
    const items = within(files).getAllByRole('button');
    expect(items.map((b) => b.textContent)).toEqual([
      '▸ +out/report.txtadded, 300 bytes',
      '▸ −old.txtdeleted, was 50 bytes',
    ]);
    await userEvent.click(items[0]!);
    expect(items[0]).toHaveAttribute('aria-expanded', 'true');
    expect(await within(files).findByText('total: 3')).toBeInTheDocument();
    await userEvent.click(items[1]!);
    expect(await within(files).findByText('bye')).toBeInTheDocument();
    expect(fake.requestsOf('session.changes')).toEqual([{ id: 's', turnId: 't1', toolCallId: 'c2' }]);
  });

  it('says plainly when a file’s diff cannot be read, and tries again on the next opening', async () => {
    const { fake } = show([...turnThatChanged(), ended()]);
    fake.fail('session.changes', 'call c1 took no checkpoint');
    const files = within(rows()[0]!).getByRole('list', { name: 'Files changed' });
    const file = within(files).getByRole('button', { name: /calc\.py/ });
    await userEvent.click(file);
    expect(await screen.findByText('Could not read the change: call c1 took no checkpoint')).toBeInTheDocument();
    fake.reply('session.changes', turnView({ files: turnView().files.slice(0, 1) }));
    await userEvent.click(file);
    await userEvent.click(file);
    expect(await screen.findByText('return a + b')).toBeInTheDocument();
    expect(CALC_DIFF).toContain('return a + b');
  });

  it('shows a card no call holds (a server start, a hook command) as a record of its own, as before', () => {
    show([...asking.slice(0, 2), writeCard('k9', '/home/me/src/project/notes.md')]);
    expect(rows()).toHaveLength(0);
    expect(log().querySelector('.card-record')).toHaveTextContent('write notes.md');
  });

  it('shows what a Stop hook changed as a small row with the same list', () => {
    show([
      ...turnThatChanged(),
      checkpoint('t1', 'hook-1', [{ path: 'fmt.py', change: 'modified', bytes: 10 }]),
      ended(),
    ]);
    const hook = log().querySelector<HTMLElement>('.hook-changes-row')!;
    expect(hook).toHaveTextContent('Hook changed 1 file');
    expect(within(hook).getByRole('button', { name: /fmt\.py/ })).toBeInTheDocument();
  });
});
