import { expect } from 'vitest';

/**
 * Same keys and exact counts; every number within 1e-9 (relative beyond 1): how two engines'
 * JSON reports are compared (their sums may round in another order).
 */
export function expectSameNumbers(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      1e-9 * Math.max(1, Math.abs(expected)),
    );
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, `${path} length`).toBe(expected.length);
    expected.forEach((e, i) => expectSameNumbers((actual as unknown[])[i], e, `${path}[${i}]`));
  } else if (expected !== null && typeof expected === 'object') {
    expect(Object.keys(actual as object), path).toEqual(Object.keys(expected));
    for (const [k, v] of Object.entries(expected))
      expectSameNumbers((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else {
    expect(actual, path).toEqual(expected);
  }
}
