import { describe, expect, it } from 'vitest';
import { summarizeModelTrend, type TrendRun } from './model-trend.js';

const run = (
  id: string,
  createdAt: string,
  accuracy: [number, number] | null,
  ece: [number, number] | null,
): TrendRun => ({
  id,
  createdAt,
  label: null,
  status: 'complete',
  values: { accuracy: accuracy === null ? null : (accuracy[0] + accuracy[1]) / 2, kl: null, brier: null, ece: null },
  intervals:
    accuracy === null
      ? null
      : {
          accuracy: { low: accuracy[0], high: accuracy[1] },
          kl: null,
          brier: null,
          ece: ece === null ? null : { low: ece[0], high: ece[1] },
        },
});

describe('summarizeModelTrend', () => {
  it('orders runs oldest first and marks only changes whose intervals do not overlap', () => {
    const points = summarizeModelTrend([
      run('c', '2026-12-03T00:00:00.000Z', [0.7, 0.8], [0.01, 0.02]),
      run('a', '2026-12-01T00:00:00.000Z', [0.5, 0.6], [0.05, 0.08]),
      run('b', '2026-12-02T00:00:00.000Z', [0.55, 0.65], [0.04, 0.06]),
    ]);
    expect(points.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(points.map((p) => p.changes.accuracy)).toEqual([null, 'within_noise', 'better']);
    // Lower ECE is better.
    expect(points.map((p) => p.changes.ece)).toEqual([null, 'within_noise', 'better']);
    expect(points[2]!.changes.kl).toBeNull();
  });

  it('marks a drop beyond noise as worse, and says nothing without intervals', () => {
    const points = summarizeModelTrend([
      run('a', '2026-12-01T00:00:00.000Z', [0.7, 0.8], null),
      run('b', '2026-12-02T00:00:00.000Z', [0.5, 0.6], null),
      run('c', '2026-12-03T00:00:00.000Z', null, null),
    ]);
    expect(points.map((p) => p.changes.accuracy)).toEqual([null, 'worse', null]);
  });
});
