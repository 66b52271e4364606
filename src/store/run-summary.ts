import type { CaseResult } from '../core/typed-decisions/case-result.js';
import type { RunConfig } from '../core/bench/run.js';
import { summarizeBenchmark, type BenchSummary, type SummarizeOptions } from '../core/bench/summary.js';
import { conventionsOfConfig } from '../core/bench/run-conventions.js';
import { calibrationOptionsOf, type Conventions } from '../core/stats/conventions.js';
import { recalibratedIterable } from '../core/case-recalibration.js';

/**
 * The summary of a run's saved cases with the options its configuration implies (cases
 * expected, price). Use it for `finishRun` so a stored summary and one recomputed from the
 * stored cases always agree. A run that applies a calibration map (`config.calibration`) is
 * summarized from its stored (raw) answers recalibrated, as it was while it ran.
 */
export function summarizeRun(
  config: RunConfig,
  cases: Iterable<CaseResult>,
  options: {
    readonly interrupted?: boolean;
    /** Other conventions than the run's own (a report recomputing the run). */
    readonly conventions?: Conventions;
  } = {},
): BenchSummary {
  const scored = config.calibration === undefined ? cases : recalibratedIterable(cases, config.calibration);
  return summarizeBenchmark(scored, summarizeOptionsOf(config, options));
}

/** The options `summarizeRun` passes for a run's configuration (for a `BenchAccumulator` fed case by case). */
export function summarizeOptionsOf(
  config: RunConfig,
  options: { readonly interrupted?: boolean; readonly conventions?: Conventions } = {},
): SummarizeOptions {
  return {
    expectedCases: config.caseIds.length,
    ...(options.interrupted === true ? { interrupted: true } : {}),
    ...(config.pricePerMtokUsd === null ? {} : { pricePerMtokUsd: config.pricePerMtokUsd }),
    calibration: calibrationOptionsOf(options.conventions ?? conventionsOfConfig(config).conventions),
  };
}
