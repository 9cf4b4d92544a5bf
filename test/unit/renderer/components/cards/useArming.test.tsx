import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useArming } from '../../../../../renderer/src/components/cards/useArming';

describe('arming', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('arms 0.5 s after the card appears, not before', () => {
    const { result } = renderHook(() => useArming('card-1'));
    expect(result.current).toBe(false);
    act(() => void vi.advanceTimersByTime(499));
    expect(result.current).toBe(false);
    act(() => void vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('disarms at once for a new card, on its first render', () => {
    const { result, rerender } = renderHook(({ id }) => useArming(id), { initialProps: { id: 'card-1' } });
    act(() => void vi.advanceTimersByTime(500));
    rerender({ id: 'card-2' });
    expect(result.current).toBe(false);
    act(() => void vi.advanceTimersByTime(500));
    expect(result.current).toBe(true);
  });

  it('disarms again when the window comes back into focus', () => {
    const { result } = renderHook(() => useArming('card-1'));
    act(() => void vi.advanceTimersByTime(500));
    act(() => void window.dispatchEvent(new FocusEvent('focus')));
    expect(result.current).toBe(false);
    act(() => void vi.advanceTimersByTime(500));
    expect(result.current).toBe(true);
  });
});
