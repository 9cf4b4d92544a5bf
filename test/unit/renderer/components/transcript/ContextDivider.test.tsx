import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emptyUsage, type TranscriptItem, type UsageTotals } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { Transcript } from '../../../../../renderer/src/components/transcript/Transcript';
import { createFakeApi } from '../../fake-api';
import { WORKSPACE } from '../cards/card-fixtures';
import { stubLayout } from '../layout-stub';

stubLayout();

function renderTranscript(items: TranscriptItem[], turnUsage: Record<string, UsageTotals> = {}) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <div style={{ height: 600 }}>
        <Transcript
          sessionId="s1"
          workspace={WORKSPACE}
          items={items}
          streaming={null}
          liveOutput={{}}
          turnUsage={turnUsage}
        />
      </div>
    </ApiProvider>,
  );
}

const base = { ts: '2026-12-03T04:00:00.000Z' };

const compaction = (over: object = {}): TranscriptItem => ({
  kind: 'context',
  seq: 40,
  event: {
    ...base,
    seq: 40,
    type: 'compaction',
    turnId: 't2',
    fromSeq: 3,
    toSeq: 35,
    summary: 'The user wants the tests fixed. <script>alert("x")</script> Files touched: src/a.ts.',
    trigger: 'user',
    tokensBefore: 84_000,
    tokensAfter: 9_000,
    ...over,
  },
});

describe('the model’s context in the transcript', () => {
  it('marks where older tool results were hidden from the model', () => {
    renderTranscript([
      {
        kind: 'context',
        seq: 20,
        event: {
          ...base,
          seq: 20,
          type: 'context_masked',
          throughSeq: 18,
          results: 7,
          tokensBefore: 84_000,
          tokensAfter: 41_000,
        },
      },
    ]);
    expect(
      screen.getByText('Older tool results hidden from the model (7 results, 84k → 41k tokens)'),
    ).toBeInTheDocument();
  });

  it('marks where the provider stated a smaller window', () => {
    renderTranscript([
      {
        kind: 'context',
        seq: 21,
        event: {
          ...base,
          seq: 21,
          type: 'context_window',
          model: 'openai:gpt-x',
          tokens: 100_000,
          reason: 'maximum context length is 100000 tokens',
        },
      },
    ]);
    expect(screen.getByText('The provider said this model’s window is 100k tokens')).toBeInTheDocument();
  });

  it('marks a summary with its trigger, and opens the summary as plain text on a click', async () => {
    const { container } = renderTranscript([compaction({ instructions: 'keep the <b>plan</b>' })]);
    const toggle = screen.getByRole('button', { name: /History summarised: 84k → 9k tokens · by request/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/The user wants/)).toBeNull();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const summary = screen.getByLabelText('Summary the model sees');
    expect(summary).toHaveTextContent('The user wants the tests fixed. <script>alert("x")</script> Files touched');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText('Asked to keep: keep the <b>plan</b>')).toBeInTheDocument();
    expect(screen.getByText(/in place of events 3–35/)).toBeInTheDocument();
  });

  it('says why a summary was written when the person did not ask', () => {
    renderTranscript([compaction({ trigger: 'overflow' }), { ...compaction({ trigger: 'budget' }), seq: 41 }]);
    expect(
      screen.getByRole('button', { name: /· the provider said the conversation was too long/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /· the context was nearly full/ })).toBeInTheDocument();
  });

  it('puts each finished turn’s usage under its end, and none on a turn without model calls', () => {
    const t1: UsageTotals = {
      ...emptyUsage(),
      calls: 12,
      inputTokens: 340_000,
      cacheReadTokens: 312_800,
      outputTokens: 4_100,
      cost: 0.42,
    };
    renderTranscript(
      [
        { kind: 'turn_end', seq: 10, turnId: 't1', reason: 'finished' },
        { kind: 'turn_end', seq: 20, turnId: 't2', reason: 'cancelled' },
      ],
      { t1 },
    );
    expect(screen.getByText('12 model calls · 340k tokens in (92% cached) · 4.1k out · $0.42')).toBeInTheDocument();
    expect(screen.getAllByText(/model call/)).toHaveLength(1);
  });
});
