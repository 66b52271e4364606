/**
 * Intervals and noise for `score` and `compare` (docs/scoring.md, "Intervals and noise"):
 * each model's 95% intervals and ECE noise floor, the paired comparison of each model with
 * the first one given (McNemar on accuracy included). The leaderboard ranks with
 * `rankByAccuracy` (core/stats/accuracy-ranking.ts), shared with `runs compare`.
 */
import { bootstrapIntervals, pairedBootstrap } from '../stats/bootstrap.js';
import type { Interval, PairedComparison } from '../stats/bootstrap.js';
import { calibrationOptionsOf, type Conventions } from '../stats/conventions.js';
import { mcnemarExact, type McNemarResult } from '../stats/mcnemar.js';
import { eceNoiseFloor, eceNoiseOf, type EceNoise } from '../stats/noise-floor.js';
import type { CaseSample } from '../stats/case-sample.js';
import { debiasedEce, type DebiasedEce } from '../stats/debiased-ece.js';
import { offlineRankedDecisions, type OfflineCaseRecord } from './case-record.js';
import { pairRanking, rankYesNo, type PairedRanking, type Ranking } from '../stats/ranking.js';
import type { OfflineSummary } from './summary.js';

/** The metrics offline scoring has intervals for (offline has no KL). */
export type OfflineIntervalMetric = 'accuracy' | 'brier' | 'logLoss' | 'ece';
export const OFFLINE_INTERVAL_METRICS: readonly OfflineIntervalMetric[] = ['accuracy', 'brier', 'logLoss', 'ece'];

export interface OfflineIntervals {
  readonly intervals: Readonly<Record<OfflineIntervalMetric, Interval | null>>;
  /** Null without yes_no or choice results. */
  readonly noiseFloor: EceNoise | null;
  /** Resampling units (cases, or blocks of cases above 10,000). */
  readonly units: number;
  /** The debiased ECE and its interval (`core/stats/debiased-ece.ts`); null (or absent) without decisions. */
  readonly debiasedEce?: DebiasedEce | null;
  /** ROC AUC and average precision of the yes_no decisions; null (or absent) without any. */
  readonly ranking?: Ranking | null;
}

/** One model's intervals around its summary's numbers, and its ECE noise floor. */
export function offlineIntervals(
  summary: OfflineSummary,
  sample: CaseSample,
  conventions: Conventions,
  kept?: { readonly record: OfflineCaseRecord; readonly ids: readonly string[] },
): OfflineIntervals {
  const ranked = kept === undefined ? null : offlineRankedDecisions(kept.record, kept.ids);
  const r = bootstrapIntervals(sample, conventions, {
    estimates: { accuracy: summary.accuracy, brier: summary.brier, logLoss: summary.logLoss, ece: summary.ece },
  });
  const floor = eceNoiseFloor(sample, calibrationOptionsOf(conventions), { seed: conventions.seed });
  const noise = floor === null || summary.ece === null ? null : eceNoiseOf(summary.ece, floor);
  return {
    intervals: {
      accuracy: r.intervals.accuracy,
      brier: r.intervals.brier,
      logLoss: r.intervals.logLoss,
      ece: r.intervals.ece,
    },
    noiseFloor: noise,
    units: r.units,
    debiasedEce:
      summary.ece === null
        ? null
        : debiasedEce(sample, calibrationOptionsOf(conventions), {
            seed: conventions.seed,
            withinNoise: noise?.withinNoise ?? false,
          }),
    ranking: ranked === null || ranked.ids.length === 0 ? null : rankYesNo(ranked, conventions),
  };
}

export interface OfflinePairing {
  readonly paired: PairedComparison;
  /** On the cases both models decided. */
  readonly mcnemar: McNemarResult;
  /** AUC and AP on the yes_no cases both decided; null (or absent) without any, or without their ids. */
  readonly ranking?: PairedRanking | null;
}

/** `second` against `first` on the same dataset: paired differences (second - first) and McNemar. */
export function pairOffline(
  first: { readonly sample: CaseSample; readonly record: OfflineCaseRecord },
  second: { readonly sample: CaseSample; readonly record: OfflineCaseRecord },
  conventions: Conventions,
  ids?: readonly string[],
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
  const ranked =
    ids === undefined ? null : { a: offlineRankedDecisions(a, ids, b), b: offlineRankedDecisions(b, ids, a) };
  return {
    paired: pairedBootstrap(first.sample, second.sample, conventions),
    mcnemar: mcnemarExact(onlyFirst, onlySecond),
    ranking: ranked === null || ranked.a.ids.length === 0 ? null : pairRanking(ranked.a, ranked.b, conventions),
  };
}
