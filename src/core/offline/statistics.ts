/**
 * Intervals and noise for `score` and `compare` (docs/scoring.md, "Intervals and noise"):
 * each model's 95% intervals and ECE noise floor, the paired comparison of each model with
 * the first one given (McNemar on accuracy included), and the leaderboard by accuracy with
 * ties against the leader.
 */
import { bootstrapIntervals, intervalsOverlap, pairedBootstrap } from '../stats/bootstrap.js';
import type { Interval, PairedComparison } from '../stats/bootstrap.js';
import { calibrationOptionsOf, type Conventions } from '../stats/conventions.js';
import { mcnemarExact, type McNemarResult } from '../stats/mcnemar.js';
import { eceNoiseFloor, eceWithinNoise, type EceNoiseFloor } from '../stats/noise-floor.js';
import type { CaseSample } from '../stats/case-sample.js';
import type { OfflineCaseRecord } from './case-record.js';
import type { OfflineSummary } from './summary.js';

/** The metrics offline scoring has intervals for (offline has no KL). */
export type OfflineIntervalMetric = 'accuracy' | 'brier' | 'logLoss' | 'ece';
export const OFFLINE_INTERVAL_METRICS: readonly OfflineIntervalMetric[] = ['accuracy', 'brier', 'logLoss', 'ece'];

export interface OfflineIntervals {
  readonly intervals: Readonly<Record<OfflineIntervalMetric, Interval | null>>;
  /** Null without yes_no or choice results. */
  readonly noiseFloor: (EceNoiseFloor & { readonly withinNoise: boolean }) | null;
  /** Resampling units (cases, or blocks of cases above 10,000). */
  readonly units: number;
}

/** One model's intervals around its summary's numbers, and its ECE noise floor. */
export function offlineIntervals(
  summary: OfflineSummary,
  sample: CaseSample,
  conventions: Conventions,
): OfflineIntervals {
  const r = bootstrapIntervals(sample, conventions, {
    estimates: { accuracy: summary.accuracy, brier: summary.brier, logLoss: summary.logLoss, ece: summary.ece },
  });
  const floor = eceNoiseFloor(sample, calibrationOptionsOf(conventions), { seed: conventions.seed });
  return {
    intervals: {
      accuracy: r.intervals.accuracy,
      brier: r.intervals.brier,
      logLoss: r.intervals.logLoss,
      ece: r.intervals.ece,
    },
    noiseFloor:
      floor === null || summary.ece === null ? null : { ...floor, withinNoise: eceWithinNoise(summary.ece, floor) },
    units: r.units,
  };
}

export interface OfflinePairing {
  readonly paired: PairedComparison;
  /** On the cases both models decided. */
  readonly mcnemar: McNemarResult;
}

/** `second` against `first` on the same dataset: paired differences (second - first) and McNemar. */
export function pairOffline(
  first: { readonly sample: CaseSample; readonly record: OfflineCaseRecord },
  second: { readonly sample: CaseSample; readonly record: OfflineCaseRecord },
  conventions: Conventions,
): OfflinePairing {
  let onlyFirst = 0;
  let onlySecond = 0;
  const a = first.record;
  const b = second.record;
  for (let i = 0; i < a.nCases; i++) {
    if (a.decided[i] === 0 || b.decided[i] === 0) continue;
    if (a.hit[i] === 1 && b.hit[i] === 0) onlyFirst++;
    else if (b.hit[i] === 1 && a.hit[i] === 0) onlySecond++;
  }
  return {
    paired: pairedBootstrap(first.sample, second.sample, conventions),
    mcnemar: mcnemarExact(onlyFirst, onlySecond),
  };
}

export interface LeaderboardRow<T> {
  readonly row: T;
  /** Competition rank by accuracy (1, 2, 2, 4); null for a model without accuracy (listed last). */
  readonly rank: number | null;
  /** Its accuracy interval overlaps the leader's, on the same cases (the leader itself is not marked). */
  readonly tiedWithLeader: boolean;
  /**
   * Its accuracy is over the same cases as the leader's. When not, it is never marked tied:
   * the two accuracies are over different cases (say so; the paired comparison uses the common ones).
   */
  readonly sameCasesAsLeader: boolean;
}

/**
 * Rows ranked by accuracy, highest first (equal accuracies share a rank, the given order
 * kept), absent accuracy last; a row whose accuracy interval overlaps the leader's, on the
 * same cases (`sameCases`, default always), is tied with it. Without intervals nothing is
 * marked tied.
 */
export function accuracyLeaderboard<T>(
  rows: readonly T[],
  accuracyOf: (row: T) => number | null,
  intervalOf: (row: T) => Interval | null,
  sameCases: (row: T, leader: T) => boolean = () => true,
): LeaderboardRow<T>[] {
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
    return {
      row: x.row,
      rank: x.v === null ? null : rank,
      tiedWithLeader:
        k > 0 &&
        same &&
        x.v !== null &&
        leaderInterval !== null &&
        mine !== null &&
        intervalsOverlap(mine, leaderInterval),
      sameCasesAsLeader: same,
    };
  });
}
