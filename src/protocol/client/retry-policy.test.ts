import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, backoffDelayMs, parseRetryAfterMs } from './retry-policy.js';

describe('backoffDelayMs', () => {
  const policy = { retries: 5, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles the step each retry with half of it jittered', () => {
    expect([0, 1, 2].map((i) => backoffDelayMs(i, policy, () => 0, null))).toEqual([50, 100, 200]);
    expect([0, 1, 2].map((i) => backoffDelayMs(i, policy, () => 0.999999, null)).map(Math.round)).toEqual([
      100, 200, 400,
    ]);
  });

  it('caps the step and honours Retry-After up to the cap', () => {
    expect(backoffDelayMs(10, policy, () => 1, null)).toBe(1000);
    expect(backoffDelayMs(0, policy, () => 0.5, 700)).toBe(700);
    expect(backoffDelayMs(0, policy, () => 0.5, 60_000)).toBe(1000);
  });

  it('stays within [step/2, cap] for any random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), (i, r) => {
        const d = backoffDelayMs(i, DEFAULT_RETRY_POLICY, () => r, null);
        expect(d).toBeGreaterThanOrEqual(
          Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** i) / 2,
        );
        expect(d).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxDelayMs);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('Sun, 01 Mar 2026 12:00:05 GMT', now)).toBe(5000);
  });
  it('treats a past date as 0 and garbage or absence as null', () => {
    expect(parseRetryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs('-3', now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
  });
});
