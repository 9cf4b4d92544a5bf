import { describe, expect, it } from 'vitest';
import { shortRelativeTime } from '../../../../../renderer/src/components/frame/relative-time';

describe('short relative time', () => {
  const now = Date.parse('2026-12-03T12:00:00.000Z');
  it('says now, minutes, hours, days, then the date', () => {
    expect(shortRelativeTime('2026-12-03T11:59:30.000Z', now)).toBe('now');
    expect(shortRelativeTime('2026-12-03T11:55:00.000Z', now)).toBe('5m');
    expect(shortRelativeTime('2026-12-03T09:00:00.000Z', now)).toBe('3h');
    expect(shortRelativeTime('2026-12-01T12:00:00.000Z', now)).toBe('2d');
    expect(shortRelativeTime('2026-11-01T12:00:00.000Z', now)).toBe('2026-11-01');
  });
  it('shows nothing for a time it cannot read', () => {
    expect(shortRelativeTime('yesterday-ish', now)).toBe('');
  });
});
