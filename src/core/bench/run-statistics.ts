/**
 * The statistics around a benchmark run's headline numbers: a 95% interval on each, from a
 * seeded bootstrap that resamples **cases** (the questions of a case share its state, so
 * their decisions are correlated), and the ECE a perfectly calibrated model with the same
 * confidences would show on this many decisions (the noise floor). The run's decisions
 * become per-case sums (`caseSampleOfRun`); the bootstrap itself lives in `core/stats/`.
 */
import type { CaseResult } from '../typed-decisions/case-result.js';
import { caseFactsOf, type CaseFacts } from './case-facts.js';
import { bootstrapIntervals, type Interval, type StatMetric } from '../stats/bootstrap.js';
import { CaseSampleBuilder, type CaseSample } from '../stats/case-sample.js';
import { calibrationOptionsOf, type Conventions } from '../stats/conventions.js';
import { eceNoiseFloor, eceNoiseOf, type EceNoise } from '../stats/noise-floor.js';
import { debiasedEce, type DebiasedEce } from '../stats/debiased-ece.js';

export { STAT_METRICS as HEADLINE_METRICS, type Interval } from '../stats/bootstrap.js';
export type HeadlineMetric = StatMetric;

/** snake_case names of the headline metrics, for JSON keys (`log_loss_ci`) and `--metric`. */
export const METRIC_JSON_NAMES: Readonly<Record<HeadlineMetric, string>> = {
  accuracy: 'accuracy',
  kl: 'kl',
  brier: 'brier',
  logLoss: 'log_loss',
  ece: 'ece',
};

export interface RunStatistics {
  readonly conventions: Conventions;
  /** False for a run stored before conventions were recorded: read with the defaults. */
  readonly conventionsRecorded: boolean;
  /** The run's numbers were computed again under other conventions than it was stored with. */
  readonly recomputed: boolean;
  /** Cases resampled (every case the run kept, failed ones included: their decisions are misses). */
  readonly cases: number;
  /** Null when intervals were turned off (`--no-ci`); an entry is null when its metric is absent. */
  readonly intervals: Readonly<Record<HeadlineMetric, Interval | null>> | null;
  /** Null when intervals were turned off or nothing was answered. */
  /** The ECE of a perfectly calibrated model with the run's confidences (outcomes ~ Bernoulli(confidence)). */
  readonly eceNoise: EceNoise | null;
  /**
   * The debiased ECE and its interval (`core/stats/debiased-ece.ts`); null or absent when
   * intervals were off, nothing was answered, or the run was stored before it was computed.
   */
  readonly debiasedEce?: DebiasedEce | null;
}

/**
 * One entry per case: its decisions, correct ones, answered ones and the sums of KL, Brier
 * and log loss over the answered ones; and each answered decision's confidence, hit and
 * question key (`workflow/question`) for ECE.
 */
export function caseSampleOfRun(cases: Iterable<CaseResult>): CaseSample {
  const builder = new CaseSampleBuilder();
  for (const c of cases) addCaseToSample(builder, c);
  return builder.build();
}

/**
 * Adds one case to a sample being built (a run fed case by case keeps only these numbers).
 * `facts`: the case's question keys and log losses, when the caller has worked them out already.
 */
export function addCaseToSample(builder: CaseSampleBuilder, c: CaseResult, facts: CaseFacts = caseFactsOf(c)): void {
  let correct = 0;
  let answered = 0;
  let kl = 0;
  let brier = 0;
  let logLoss = 0;
  for (let i = 0; i < c.decisions.length; i++) {
    const o = c.decisions[i]!.outcome;
    if (o.status !== 'answered') continue;
    answered++;
    if (o.correct) correct++;
    kl += o.kl;
    brier += o.brier;
    logLoss += facts.logLosses[i]!;
  }
  builder.addCase(c.caseId, { decisions: c.decisions.length, correct, answered, kl, brier, logLoss });
  for (let i = 0; i < c.decisions.length; i++) {
    const o = c.decisions[i]!.outcome;
    if (o.status === 'answered') builder.addDecision(o.confidence, o.correct, facts.questionKeys[i]!);
  }
}

export interface StatisticsOptions {
  /** Compute intervals and the noise floor; false gives `intervals: null`. */
  readonly intervals: boolean;
  /** The summary's numbers, which the intervals must contain. */
  readonly estimates: Readonly<Record<HeadlineMetric, number | null>>;
}

/** Intervals and the ECE noise floor of a run's cases under `conventions`. */
export function statisticsOfRun(
  cases: Iterable<CaseResult>,
  conventions: Conventions,
  options: StatisticsOptions,
): Omit<RunStatistics, 'conventionsRecorded' | 'recomputed'> {
  if (!options.intervals || conventions.bootstrapResamples === 0) {
    let n = 0;
    for (const _ of cases) n++;
    return { conventions, cases: n, intervals: null, eceNoise: null };
  }
  return statisticsOfSample(caseSampleOfRun(cases), conventions, options);
}

/** `statisticsOfRun` from a sample already built (`addCaseToSample` as the run went). */
export function statisticsOfSample(
  sample: CaseSample,
  conventions: Conventions,
  options: StatisticsOptions,
): Omit<RunStatistics, 'conventionsRecorded' | 'recomputed'> {
  if (!options.intervals || conventions.bootstrapResamples === 0)
    return { conventions, cases: sample.nCases, intervals: null, eceNoise: null };
  const boot = bootstrapIntervals(sample, conventions, { estimates: options.estimates });
  const ece = options.estimates.ece;
  const floor =
    ece === null ? null : eceNoiseFloor(sample, calibrationOptionsOf(conventions), { seed: conventions.seed });
  const eceNoise = floor === null || ece === null ? null : eceNoiseOf(ece, floor);
  return {
    conventions,
    cases: sample.nCases,
    intervals: boot.intervals,
    eceNoise,
    debiasedEce:
      ece === null
        ? null
        : debiasedEce(sample, calibrationOptionsOf(conventions), {
            seed: conventions.seed,
            withinNoise: eceNoise?.withinNoise ?? false,
          }),
  };
}
