import { describe, expect, it } from 'vitest';
import { rankRuns } from './leaderboard.js';
import type { RunStatistics } from './run-statistics.js';
import { createMixedRun } from './test-support/bench-run-fixture.js';
import { DEFAULT_CONVENTIONS } from '../stats/conventions.js';

function entry(id: string, accuracy: number, low: number, high: number) {
  const base = createMixedRun();
  const run = { ...base, id, summary: { ...base.summary, accuracy } };
  const ci = { low, high };
  const statistics: RunStatistics = {
    conventions: DEFAULT_CONVENTIONS,
    conventionsRecorded: true,
    recomputed: false,
    cases: 5,
    intervals: { accuracy: ci, kl: null, brier: null, logLoss: null, ece: null },
    eceNoise: null,
  };
  return { run, statistics };
}

describe('rankRuns', () => {
  it('ranks by accuracy and marks runs whose interval overlaps the leader’s as tied', () => {
    const rows = rankRuns([
      entry('c', 0.6, 0.55, 0.65),
      entry('a', 0.73, 0.7, 0.76),
      entry('b', 0.72, 0.69, 0.75),
      entry('d', 0.6, 0.56, 0.64),
    ]);
    expect(rows.map((r) => [r.id, r.rank, r.tiedWithLeader])).toEqual([
      ['a', 1, true],
      ['b', 2, true],
      ['c', 3, false],
      ['d', 3, false],
    ]);
  });

  it('marks nothing tied without intervals, except an equal accuracy', () => {
    const off = (id: string, accuracy: number) => {
      const e = entry(id, accuracy, 0, 1);
      return { ...e, statistics: { ...e.statistics, intervals: null } };
    };
    const rows = rankRuns([off('x', 0.5), off('y', 0.7), off('z', 0.7)]);
    expect(rows.map((r) => [r.id, r.rank, r.tiedWithLeader])).toEqual([
      ['y', 1, true],
      ['z', 1, true],
      ['x', 3, false],
    ]);
  });

  it('ranks runs without accuracy last, sharing the rank after the last ranked run', () => {
    const none = (id: string) => {
      const e = entry(id, 0, 0, 1);
      return { ...e, run: { ...e.run, summary: { ...e.run.summary, accuracy: null } } };
    };
    const rows = rankRuns([none('n1'), entry('a', 0.7, 0.6, 0.8), none('n2'), entry('b', 0.5, 0.4, 0.55)]);
    expect(rows.map((r) => [r.id, r.rank])).toEqual([
      ['a', 1],
      ['b', 2],
      ['n1', 3],
      ['n2', 3],
    ]);
  });
});
