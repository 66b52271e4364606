/**
 * One ranking rule for every leaderboard: by accuracy, highest first, competition ranks
 * (1, 2, 2, 4), equal accuracies in the given order, rows without accuracy last. A row is
 * tied with the leader when its accuracy interval overlaps the leader's: on this many cases
 * the data cannot tell them apart.
 */
import { intervalsOverlap, type Interval } from './bootstrap.js';

/**
 * Which rows count as tied with the leader.
 *
 * - `'overlap'` (`score`): another row, on the same cases, whose interval overlaps the
 *   leader's. Without intervals nothing is tied.
 * - `'with-leader'` (`runs compare`): also the leader itself and any row of exactly the
 *   leader's accuracy, so that a board without intervals (`--no-intervals`) still shows
 *   exact ties. Kept apart because `runs compare --json` has always reported the leader
 *   as `tied_with_leader: true` and `score --json` never has (docs/scoring.md, "Intervals and noise").
 */
export type LeaderTies = 'overlap' | 'with-leader';

export interface AccuracyRankingOptions<T> {
  readonly accuracyOf: (row: T) => number | null;
  readonly intervalOf: (row: T) => Interval | null;
  readonly ties: LeaderTies;
  /** Whether a row's accuracy is over the leader's cases; a row that is not is never tied. Default: always. */
  readonly sameCases?: (row: T, leader: T) => boolean;
}

export interface RankedRow<T> {
  readonly row: T;
  /** Competition rank by accuracy (1, 2, 2, 4); null for a row without accuracy (listed last). */
  readonly rank: number | null;
  readonly tiedWithLeader: boolean;
  /**
   * Its accuracy is over the same cases as the leader's. When not, it is never marked tied:
   * the two accuracies are over different cases (say so; the paired comparison uses the common ones).
   */
  readonly sameCasesAsLeader: boolean;
}

/** Rows in rank order. */
export function rankByAccuracy<T>(rows: readonly T[], options: AccuracyRankingOptions<T>): RankedRow<T>[] {
  const { accuracyOf, intervalOf, ties, sameCases = () => true } = options;
  const order = rows
    .map((row, i) => ({ row, i, v: accuracyOf(row) }))
    .sort((x, y) => {
      if (x.v === null || y.v === null) return x.v === y.v ? x.i - y.i : x.v === null ? 1 : -1;
      return x.v === y.v ? x.i - y.i : y.v - x.v;
    });
  const leader = order[0];
  const leaderInterval = leader === undefined ? null : intervalOf(leader.row);
  let rank = 0;
  return order.map((x, k) => {
    if (x.v !== null && (k === 0 || order[k - 1]!.v !== x.v)) rank = k + 1;
    const mine = intervalOf(x.row);
    const same = leader === undefined || k === 0 || sameCases(x.row, leader.row);
    const overlaps = mine !== null && leaderInterval !== null && intervalsOverlap(mine, leaderInterval);
    const tiedWithLeader =
      ties === 'overlap'
        ? k > 0 && same && x.v !== null && overlaps
        : k === 0 || (same && ((x.v !== null && x.v === leader!.v) || overlaps));
    return { row: x.row, rank: x.v === null ? null : rank, tiedWithLeader, sameCasesAsLeader: same };
  });
}
