import { describe, expect, it } from 'vitest';
import { Estimator, roomFor } from '../../../../../electron/core/context/budget.js';
import { DEFAULT_TOKENS_PER_BYTE, ESTIMATE_MARGIN, OUTPUT_RESERVE_MAX_TOKENS } from '../../../../../shared/limits.js';

describe('the room a request has', () => {
  it('is the window less the reply cap: the config’s, else the model’s, at most 32k and a quarter of the window', () => {
    expect(roomFor(200_000, 64_000)).toEqual({
      window: 200_000,
      outputReserve: OUTPUT_RESERVE_MAX_TOKENS,
      input: 168_000,
    });
    expect(roomFor(200_000, 8_192)).toEqual({ window: 200_000, outputReserve: 8_192, input: 191_808 });
    expect(roomFor(200_000, null, 4_000)).toEqual({ window: 200_000, outputReserve: 4_000, input: 196_000 });
    expect(roomFor(16_000, null)).toEqual({ window: 16_000, outputReserve: 4_000, input: 12_000 });
  });
});

describe('estimating a request', () => {
  it('uses a cautious default ratio, with the margin, before the provider has counted anything', () => {
    const e = new Estimator(null);
    expect(e.calibrated).toBe(false);
    expect(e.request(30_000)).toBe(Math.ceil(30_000 * DEFAULT_TOKENS_PER_BYTE * ESTIMATE_MARGIN));
  });

  it("starts from the provider's last count and adds the growth at its tokens per byte, with a margin", () => {
    const e = new Estimator({ tokens: 25_000, bytes: 100_000 });
    expect(e.tokensPerByte).toBe(0.25);
    expect(e.request(100_000)).toBe(25_000);
    expect(e.request(140_000)).toBe(Math.ceil(25_000 + 40_000 * 0.25 * ESTIMATE_MARGIN));
  });

  it('takes the provider’s ratio, not a fixed one: dense text that counts more tokens per byte is estimated larger', () => {
    const prose = new Estimator({ tokens: 25_000, bytes: 100_000 });
    const hex = new Estimator({ tokens: 50_000, bytes: 100_000 });
    expect(hex.request(200_000)).toBeGreaterThan(prose.request(200_000) * 1.9);
  });

  it('shrinks without a margin when parts were masked or summarised away', () => {
    const e = new Estimator({ tokens: 25_000, bytes: 100_000 });
    expect(e.request(60_000)).toBe(15_000);
    expect(e.request(0)).toBe(0);
  });
});
