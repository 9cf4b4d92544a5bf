import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import type { LiveOutput } from '../../../../../renderer/src/store/live-output';
import { Transcript } from '../../../../../renderer/src/components/transcript/Transcript';
import { createFakeApi } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import { WORKSPACE, cardOf, writeBody } from '../cards/card-fixtures';

stubLayout();

function renderTranscript(
  items: TranscriptItem[],
  streaming: string | null = null,
  liveOutput: Record<string, LiveOutput> = {},
) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <div style={{ height: 600 }}>
        <Transcript sessionId="s1" workspace={WORKSPACE} items={items} streaming={streaming} liveOutput={liveOutput} />
      </div>
    </ApiProvider>,
  );
}

const readCall: TranscriptItem = {
  kind: 'tool',
  seq: 3,
  turnId: 't1',
  toolCallId: 'c1',
  tool: 'read_file',
  args: { path: 'src/a.ts' },
  result: { ok: true, output: 'export const a = "<b>1</b>";\n' },
};

describe('the transcript', () => {
  it('shows the user message, the assistant markdown and the streaming text last', () => {
    renderTranscript(
      [
        { kind: 'user', seq: 1, messageId: 'm1', text: 'fix the **tests**' },
        { kind: 'assistant', seq: 2, turnId: 't1', text: 'Looking at **src/a.ts**' },
      ],
      'Now running',
    );
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(log).toHaveTextContent('fix the **tests**');
    expect(within(log).getByText('src/a.ts').tagName).toBe('STRONG');
    const rows = log.querySelectorAll('.transcript-row');
    expect(rows[rows.length - 1]).toHaveTextContent('Now running');
  });

  it('shows a tool call as one row that expands to its arguments and result', async () => {
    const { container } = renderTranscript([readCall]);
    const row = screen.getByRole('button', { name: /read_file/ });
    expect(row).toHaveTextContent('read_file');
    expect(row).toHaveTextContent('src/a.ts');
    expect(row).toHaveTextContent('✓');
    expect(screen.queryByText(/export const a/)).toBeNull();
    await userEvent.click(row);
    expect(row).toHaveAttribute('aria-expanded', 'true');
    const output = screen.getByText(/export const a/);
    expect(output.tagName).toBe('PRE');
    expect(output.textContent).toBe('export const a = "<b>1</b>";\n');
    expect(container.querySelector('pre b')).toBeNull();
  });

  it('marks a failed tool call as an error', () => {
    renderTranscript([{ ...readCall, result: { ok: false, output: 'no such file' } }]);
    expect(screen.getByRole('button', { name: /read_file/ })).toHaveTextContent('✗');
  });

  it('shows a running command with its argv and live output, capped to the last lines', () => {
    const text = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    renderTranscript(
      [{ kind: 'tool', seq: 4, turnId: 't1', toolCallId: 'c2', tool: 'run', args: { argv: ['npm', 'test'] } }],
      null,
      { c2: { text, droppedChars: 1000 } },
    );
    expect(screen.getByRole('button', { name: /run/ })).toHaveTextContent('npmtest');
    const live = screen.getByLabelText('Live output');
    expect(live.textContent?.split('\n')).toHaveLength(2000);
    expect(live.textContent?.startsWith('line 501\n')).toBe(true);
    expect(live.textContent?.endsWith('line 2500')).toBe(true);
    const hidden = text.indexOf('line 501') + 1000;
    expect(
      screen.getByText(new RegExp(`${hidden.toLocaleString('en')} earlier characters not shown`)),
    ).toBeInTheDocument();
  });

  it('shows cards as records, hooks, results, turn ends and errors', () => {
    const card = cardOf(writeBody());
    renderTranscript([
      { kind: 'card', seq: 5, card, outcome: { state: 'answered', answer: 'allow_session' } },
      { kind: 'hook', seq: 6, argv: ['npm', 'run', 'lint'], ok: false, exitCode: 1, output: 'lint failed' },
      { kind: 'result', seq: 7, turnId: 't1', summary: 'Fixed **two** tests' },
      { kind: 'turn_end', seq: 8, turnId: 't1', reason: 'interrupted', message: 'the app closed' },
      { kind: 'error', seq: 9, message: 'rate limited' },
    ]);
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(log).toHaveTextContent('Allowed for this session');
    expect(log).toHaveTextContent('failed (exit 1)');
    expect(within(log).getByText('two').tagName).toBe('STRONG');
    expect(log).toHaveTextContent('Turn interrupted: the app closed');
    expect(within(log).getByRole('note')).toHaveTextContent('Error: rate limited');
  });

  it('shows a plain-text answer once, not again as the result of its turn', () => {
    renderTranscript([
      { kind: 'assistant', seq: 1, turnId: 't1', text: 'Reading the file first.' },
      { kind: 'assistant', seq: 2, turnId: 't1', text: 'All **tests** pass now.' },
      { kind: 'result', seq: 3, turnId: 't1', summary: 'All **tests** pass now.\n' },
      { kind: 'turn_end', seq: 4, turnId: 't1', reason: 'finished' },
    ]);
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(within(log).getAllByText('tests')).toHaveLength(1);
    expect(within(log).queryByText('Result')).toBeNull();
    expect(log).toHaveTextContent('Turn finished');
  });

  it('keeps the result when it says something else than the last message, or belongs to another turn', () => {
    renderTranscript([
      { kind: 'assistant', seq: 1, turnId: 't1', text: 'Done.' },
      { kind: 'result', seq: 2, turnId: 't1', summary: 'Fixed two tests' },
      { kind: 'assistant', seq: 3, turnId: 't1', text: 'Same words' },
      { kind: 'result', seq: 4, turnId: 't2', summary: 'Same words' },
    ]);
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(within(log).getAllByText('Result')).toHaveLength(2);
    expect(log).toHaveTextContent('Fixed two tests');
    expect(within(log).getAllByText('Same words')).toHaveLength(2);
  });

  it('shows a question with its answer or withdrawal', () => {
    const question = {
      type: 'question' as const,
      seq: 10,
      ts: '2026-12-03T04:00:00.000Z',
      turnId: 't1',
      toolCallId: 'c9',
      questionId: 'q1',
      question: 'Which port?',
    };
    renderTranscript([
      { kind: 'question', seq: 10, question, answer: '8080' },
      {
        kind: 'question',
        seq: 11,
        question: { ...question, questionId: 'q2' },
        withdrawn: 'the turn ended (cancelled)',
      },
    ]);
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(log).toHaveTextContent('Answered: 8080');
    expect(log).toHaveTextContent('Withdrawn (the turn ended (cancelled))');
  });

  it('keeps only the rows near the viewport in the DOM for 10,000 items', () => {
    const items: TranscriptItem[] = Array.from({ length: 10_000 }, (_, i) => ({
      kind: 'user',
      seq: i + 1,
      messageId: `m${i}`,
      text: `message ${i}`,
    }));
    const { container } = renderTranscript(items);
    const rows = container.querySelectorAll('.transcript-row');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(100);
  });
});

describe('following the newest content', () => {
  const userItems = (n: number): TranscriptItem[] =>
    Array.from({ length: n }, (_, i) => ({ kind: 'user', seq: i + 1, messageId: `m${i}`, text: `message ${i}` }));

  function mount(items: TranscriptItem[]) {
    const view = (list: TranscriptItem[]) => (
      <ApiProvider api={createFakeApi().api}>
        <Transcript sessionId="s1" workspace={WORKSPACE} items={list} streaming={null} liveOutput={{}} />
      </ApiProvider>
    );
    const result = render(view(items));
    const log = screen.getByRole('log', { name: 'Transcript' });
    // jsdom has no layout: give the scroller a content height and a real scroll position.
    let top = 0;
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => 5000 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, get: () => top, set: (v: number) => (top = v) });
    return { log, update: (list: TranscriptItem[]) => result.rerender(view(list)) };
  }

  it('follows new items while the reader is at the bottom', () => {
    const { log, update } = mount(userItems(50));
    update(userItems(51));
    expect(log.scrollTop).toBe(5000);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
  });

  it('stays put once the reader scrolled up, and offers a way back down', async () => {
    const { log, update } = mount(userItems(50));
    log.scrollTop = 1000;
    fireEvent.scroll(log);
    update(userItems(52));
    expect(log.scrollTop).toBe(1000);
    await userEvent.click(screen.getByRole('button', { name: /Jump to latest/ }));
    expect(log.scrollTop).toBe(5000);
    update(userItems(53));
    expect(log.scrollTop).toBe(5000);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();
  });
});
