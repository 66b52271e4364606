import { describe, expect, it } from 'vitest';
import { rankByAccuracy, type LeaderTies } from './accuracy-ranking.js';

describe('rankByAccuracy', () => {
  const row = (name: string, accuracy: number | null, low = 0, high = 0) => ({ name, accuracy, ci: { low, high } });
  const board = (rows: ReturnType<typeof row>[], ties: LeaderTies = 'overlap') =>
    rankByAccuracy(rows, {
      accuracyOf: (r) => r.accuracy,
      intervalOf: (r) => (r.accuracy === null ? null : r.ci),
      ties,
    }).map((r) => [r.row.name, r.rank, r.tiedWithLeader]);
  const mixed = [
    row('c', 0.7, 0.65, 0.75),
    row('none', null),
    row('a', 0.8, 0.76, 0.84),
    row('b', 0.7, 0.66, 0.76),
    row('d', 0.78, 0.74, 0.82),
  ];

  it('ranks by accuracy with competition ranks, absent last, ties against the leader by overlap', () => {
    expect(board(mixed)).toEqual([
      ['a', 1, false],
      ['d', 2, true],
      ['c', 3, false],
      ['b', 3, true],
      ['none', null, false],
    ]);
  });

  it('marks nothing tied without intervals', () => {
    const r = rankByAccuracy([0.5, 0.5], { accuracyOf: (a) => a, intervalOf: () => null, ties: 'overlap' });
    expect(r.map((x) => [x.rank, x.tiedWithLeader])).toEqual([
      [1, false],
      [1, false],
    ]);
  });

  it('with the leader: marks the leader and overlapping rows, the ranks unchanged', () => {
    expect(board(mixed, 'with-leader')).toEqual([
      ['a', 1, true],
      ['d', 2, true],
      ['c', 3, false],
      ['b', 3, true],
      ['none', null, false],
    ]);
  });

  it('with the leader: marks an equal accuracy tied without intervals', () => {
    const r = rankByAccuracy([0.5, 0.7, 0.7], { accuracyOf: (a) => a, intervalOf: () => null, ties: 'with-leader' });
    expect(r.map((x) => [x.row, x.rank, x.tiedWithLeader])).toEqual([
      [0.7, 1, true],
      [0.7, 1, true],
      [0.5, 3, false],
    ]);
  });

  it('never ties a row over other cases than the leader', () => {
    const rows = [row('a', 0.8, 0.7, 0.9), row('b', 0.8, 0.7, 0.9), row('c', 0.79, 0.7, 0.9)];
    for (const ties of ['overlap', 'with-leader'] as const) {
      const r = rankByAccuracy(rows, {
        accuracyOf: (x) => x.accuracy,
        intervalOf: (x) => x.ci,
        ties,
        sameCases: (x) => x.name !== 'b',
      });
      expect(r.map((x) => [x.row.name, x.tiedWithLeader, x.sameCasesAsLeader])).toEqual([
        ['a', ties === 'with-leader', true],
        ['b', false, false],
        ['c', true, true],
      ]);
    }
  });
});
