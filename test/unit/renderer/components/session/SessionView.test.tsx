import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SessionView } from '../../../../../renderer/src/components/session/SessionView';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession, started } from '../../render-frame';
import { usage } from '../context/context-fixtures';
import { stubLayout } from '../layout-stub';

stubLayout();

describe('a session’s view', () => {
  it('shows each finished turn’s usage, summed from its usage events, under the turn’s end', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 's' }, [
      ...started(),
      usage({ inputTokens: 100_000, cacheReadTokens: 90_000, outputTokens: 1_000, cost: 0.2 }),
      usage({ inputTokens: 140_000, cacheReadTokens: 130_000, outputTokens: 3_100, cost: 0.22 }),
      usage({ purpose: 'compaction', inputTokens: 100_000, cacheReadTokens: 0, outputTokens: 0, cost: 0 }),
      { type: 'turn_ended', turnId: 't1', reason: 'finished' },
    ]);
    renderFrame(<SessionView sessionId="s" />, { store });
    expect(screen.getByText('3 model calls · 340k tokens in (65% cached) · 4.1k out · $0.42')).toBeInTheDocument();
  });
});
