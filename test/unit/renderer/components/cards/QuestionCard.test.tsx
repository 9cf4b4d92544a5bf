import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { QuestionCard } from '../../../../../renderer/src/components/cards/QuestionCard';
import { createFakeApi, type FakeApi } from '../../fake-api';
import { SESSION, questionOf } from './card-fixtures';

function renderQuestion(fake: FakeApi, options?: string[]) {
  const question = questionOf('Which database should the tests use?', options);
  render(
    <ApiProvider api={fake.api}>
      <QuestionCard sessionId={SESSION} question={question} />
    </ApiProvider>,
  );
  return question;
}

describe('a question card', () => {
  afterEach(() => vi.useRealTimers());

  it('is a region labelled "Question" showing the question', () => {
    renderQuestion(createFakeApi());
    expect(screen.getByRole('region', { name: 'Question' })).toHaveTextContent('Which database should the tests use?');
  });

  it('answers with an option button once armed, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = createFakeApi();
    const question = renderQuestion(fake, ['SQLite', 'Postgres']);
    fireEvent.click(screen.getByRole('button', { name: 'Postgres' }));
    await act(async () => {});
    expect(fake.requestsOf('question.answer')).toEqual([]);
    act(() => void vi.advanceTimersByTime(500));
    fireEvent.click(screen.getByRole('button', { name: 'Postgres' }));
    await act(async () => {});
    expect(fake.requestsOf('question.answer')).toEqual([
      { id: SESSION, questionId: question.questionId, text: 'Postgres' },
    ]);
  });

  it('always takes a free-text answer, even when there are options', async () => {
    const fake = createFakeApi();
    const question = renderQuestion(fake, ['SQLite']);
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Or answer in your own words' }),
      'neither, use a fake{Enter}',
    );
    expect(fake.requestsOf('question.answer')).toEqual([
      { id: SESSION, questionId: question.questionId, text: 'neither, use a fake' },
    ]);
    expect(await screen.findByText('Answer sent.')).toBeInTheDocument();
  });

  it('shows a failed answer plainly', async () => {
    const fake = createFakeApi();
    fake.fail('question.answer', 'the question was withdrawn');
    renderQuestion(fake);
    await userEvent.type(screen.getByRole('textbox', { name: 'Or answer in your own words' }), 'yes');
    await userEvent.click(screen.getByRole('button', { name: 'Answer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('the question was withdrawn');
  });
});
