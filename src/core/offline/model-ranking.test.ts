import { given } from '../given.js';
import { describe, expect, it } from 'vitest';
import type { OfflineCase } from './case.js';
import { isCompareSortMetric, sortByMetric } from './model-ranking.js';
import { summarizeOffline, type OfflineSummary } from './summary.js';

const yn: OfflineCase = { id: 'y', kind: 'yes_no', correct: true };
const summary = (p: number | null, costUsd?: number): OfflineSummary =>
  summarizeOffline(
    p === null
      ? []
      : [
          {
            case: yn,
            result: {
              caseId: 'y',
              model: 'm',
              decision: { kind: 'yes_no', probability: p },
              ...given({ costUsd }),
            },
          },
        ],
  );

describe('sortByMetric', () => {
  const rows = [
    { name: 'low', s: summary(0.2) },
    { name: 'none', s: summary(null) },
    { name: 'high', s: summary(0.9, 1) },
    { name: 'high-too', s: summary(0.9, 1) },
  ];

  it('puts the best first: higher accuracy, lower Brier', () => {
    expect(sortByMetric(rows, (r) => r.s, 'accuracy').map((r) => r.name)).toEqual(['high', 'high-too', 'low', 'none']);
    expect(sortByMetric(rows, (r) => r.s, 'brier').map((r) => r.name)).toEqual(['high', 'high-too', 'low', 'none']);
  });

  it('puts absent values last and keeps ties in the given order', () => {
    expect(sortByMetric(rows, (r) => r.s, 'cost_per_correct').map((r) => r.name)).toEqual([
      'high',
      'high-too',
      'low',
      'none',
    ]);
  });

  it('knows its metric names', () => {
    expect(isCompareSortMetric('log_loss')).toBe(true);
    expect(isCompareSortMetric('toString')).toBe(false);
  });
});

describe('sortByMetric with values that are not ordinary numbers', () => {
  it('puts NaN with the absent values, last, and orders infinite values as numbers', () => {
    const base = summary(0.9, 1);
    const rows = [
      { name: 'nan', s: { ...base, costPerCorrectUsd: NaN } },
      { name: 'inf', s: { ...base, costPerCorrectUsd: Infinity } },
      { name: 'none', s: { ...base, costPerCorrectUsd: null } },
      { name: 'inf-too', s: { ...base, costPerCorrectUsd: Infinity } },
      { name: 'cheap', s: { ...base, costPerCorrectUsd: 2 } },
    ];
    expect(sortByMetric(rows, (r) => r.s, 'cost_per_correct').map((r) => r.name)).toEqual([
      'cheap',
      'inf',
      'inf-too',
      'nan',
      'none',
    ]);
  });
});
