import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../../shared/events';
import { Composer } from '../../../../../renderer/src/components/composer/Composer';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession, started } from '../../render-frame';
import { usage } from './context-fixtures';

function composerWith(payloads: EventPayload[]) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's' }, payloads);
  return renderFrame(<Composer sessionId="s" />, { store });
}

const meter = () => screen.getByRole('button', { name: /^Context:/ });

describe('the context meter beside the composer', () => {
  it('says a dash before the first model call', () => {
    composerWith([]);
    expect(meter()).toHaveTextContent('—');
    expect(meter()).not.toHaveClass('context-meter-high');
  });

  it('says how full the context is and what the session cost, from the folded usage events', () => {
    composerWith([
      ...started(),
      usage({ inputTokens: 100_000, cost: 0.6 }),
      usage({ inputTokens: 124_000, cost: 0.63 }),
    ]);
    expect(meter()).toHaveAccessibleName('Context: 62% of 200k · $1.23');
    expect(meter()).not.toHaveClass('context-meter-high');
  });

  it('turns amber past 80% of the window', () => {
    composerWith([...started(), usage({ inputTokens: 170_000 })]);
    expect(meter()).toHaveTextContent('85% of 200k');
    expect(meter()).toHaveClass('context-meter-high');
  });

  it('says "cost unknown" when the calls had no prices', () => {
    composerWith([...started(), usage({ cost: null })]);
    expect(meter()).toHaveTextContent('50% of 200k · cost unknown');
  });

  it('follows the estimate after masking and a window the provider stated', () => {
    composerWith([
      ...started(),
      usage({ inputTokens: 150_000 }),
      { type: 'context_masked', turnId: 't1', throughSeq: 3, results: 4, tokensBefore: 150_000, tokensAfter: 60_000 },
      { type: 'context_window', model: 'anthropic:claude-sonnet-4-5', tokens: 100_000, reason: 'too long' },
    ]);
    expect(meter()).toHaveTextContent('60% of 100k');
  });

  it('on hover and on focus, shows the session’s tokens and where the prices come from', async () => {
    composerWith([
      ...started(),
      usage({ inputTokens: 100_000, cacheReadTokens: 90_000, cacheWriteTokens: 5_000, outputTokens: 2_000 }),
      usage({ inputTokens: 120_000, cacheReadTokens: 110_000, cacheWriteTokens: 1_000, outputTokens: 3_000 }),
    ]);
    await userEvent.hover(meter());
    const tip = await screen.findByRole('tooltip');
    expect(tip).toHaveTextContent('Model calls2');
    expect(tip).toHaveTextContent('Tokens in220,000 (91% cached)');
    expect(tip).toHaveTextContent('Read from cache200,000');
    expect(tip).toHaveTextContent('Written to cache6,000');
    expect(tip).toHaveTextContent('Tokens out5,000');
    expect(await screen.findByText('Prices from test-table@0.0.0, 2026-11-30')).toBeInTheDocument();
    expect(meter()).toHaveAccessibleDescription(/Tokens in/);
    await userEvent.unhover(meter());
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => meter().focus());
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
  });

  it('asks for the price table once, whatever the hovering', async () => {
    const { fake } = composerWith([...started(), usage()]);
    await userEvent.hover(meter());
    await screen.findByText(/Prices from/);
    await userEvent.unhover(meter());
    await userEvent.hover(meter());
    await screen.findByText(/Prices from/);
    expect(fake.requestsOf('models.catalog')).toHaveLength(1);
  });

  it('opens "What the model sees" on a click', async () => {
    const { store } = composerWith([...started(), usage()]);
    await userEvent.click(meter());
    expect(store.getState().dialog).toBe('context');
  });

  it('says so under the composer while a summary is being written', () => {
    const { store } = composerWith([...started()]);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => store.getState().setCompacting({ s: true }));
    expect(screen.getByRole('status')).toHaveTextContent('Writing a summary of the history…');
    act(() => store.getState().setCompacting({ s: false }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
