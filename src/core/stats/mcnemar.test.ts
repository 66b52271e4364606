import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discordantPairs, mcnemarExact } from './mcnemar.js';

/** Exact two-sided p with integers: 2 · Σ_{i ≤ min} C(n, i) / 2^n, capped at 1. */
function exactP(b: number, c: number): number {
  const n = b + c;
  const k = Math.min(b, c);
  let choose = 1n;
  let tail = 0n;
  for (let i = 0; i <= k; i++) {
    if (i > 0) choose = (choose * BigInt(n - i + 1)) / BigInt(i);
    tail += choose;
  }
  // Scale before dividing so the quotient keeps 15+ significant digits.
  const scaled = (2n * tail * 10n ** 30n) / 2n ** BigInt(n);
  return Math.min(1, Number(scaled) / 1e30);
}

describe('mcnemarExact', () => {
  it('gives the textbook p-values', () => {
    // 10 against 2 discordant pairs: 2 · (1 + 12 + 66) / 4096.
    expect(mcnemarExact(10, 2).pValue).toBeCloseTo(158 / 4096, 15);
    // 1 against 6 (a common worked example): 2 · 8 / 128 = 0.125.
    expect(mcnemarExact(1, 6).pValue).toBeCloseTo(0.125, 15);
    // 0 against 5: 2 / 32.
    expect(mcnemarExact(5, 0).pValue).toBeCloseTo(0.0625, 15);
    // Agresti's approval ratings (794, 150, 86, 570): 150 against 86.
    expect(mcnemarExact(150, 86).pValue).toBeCloseTo(exactP(150, 86), 12);
    expect(mcnemarExact(150, 86).pValue).toBeLessThan(1e-4);
  });

  it('is 1 for no or balanced discordant pairs and symmetric', () => {
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(7, 7).pValue).toBe(1);
    expect(mcnemarExact(3, 4).pValue).toBe(1);
    expect(mcnemarExact(3, 9).pValue).toBe(mcnemarExact(9, 3).pValue);
  });

  it('agrees with exact integer arithmetic on random tables', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 600 }), (b, c) => {
        const p = mcnemarExact(b, c).pValue;
        const want = exactP(b, c);
        return Math.abs(p - want) <= 1e-12 + 1e-9 * want;
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('stays finite and right for millions of discordant pairs', () => {
    // n = 2,000,000, difference 2,800: z = 2800 / √n ≈ 1.98, continuity-corrected normal p ≈ 0.0477.
    const p = mcnemarExact(998_600, 1_001_400).pValue;
    const z = (2800 - 1) / Math.sqrt(2_000_000);
    const normal = 2 * (1 - phi(z));
    expect(Math.abs(p / normal - 1)).toBeLessThan(0.01);
    expect(mcnemarExact(0, 5_000_000).pValue).toBe(0);
  });
});

describe('discordantPairs', () => {
  it('counts the decisions only one run got right', () => {
    expect(discordantPairs([1, 1, 0, 0, 1], [1, 0, 1, 0, 0])).toEqual({ onlyFirstCorrect: 2, onlySecondCorrect: 1 });
    expect(() => discordantPairs([1], [])).toThrow(/aligned/);
  });
});

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 through erf, error < 1.5e-7). */
function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}
