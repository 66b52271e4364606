/**
 * A stored or finished benchmark run made ready to report: its numbers under the chosen
 * conventions (recomputed from its decisions when they differ from the stored ones, as
 * every decision is stored) and the intervals and ECE noise floor around them.
 */
import type { ReportedRun } from '../../core/bench/run.js';
import type { CaseSample } from '../../core/stats/case-sample.js';
import { conventionsText, type ConventionChoice } from '../../core/stats/conventions.js';
import { chooseConventions } from '../../core/bench/run-conventions.js';
import { statisticsOfRun, statisticsOfSample, type RunStatistics } from '../../core/bench/run-statistics.js';
import { summarizeRun } from '../../store/run-summary.js';

export interface AnalyzedRun<R extends ReportedRun = ReportedRun> {
  /** The run, its summary computed under `statistics.conventions`. */
  readonly run: R;
  readonly statistics: RunStatistics;
}

export interface AnalyzeOptions {
  /** Compute the bootstrap intervals and the noise floor (`--no-ci` turns them off). */
  readonly intervals: boolean;
  /** The run's case sample, already built (bench gathers it as cases finish): no second read of the cases. */
  readonly sample?: CaseSample;
  /**
   * The statistics stored with the run (`StoreRuns.saveStatistics`): used as they are when
   * asked for under the conventions (seed included) they were made under.
   */
  readonly stored?: RunStatistics | null;
}

/** The run under its own conventions with `choice` on top; intervals unless turned off. */
export function analyzeRun<R extends ReportedRun>(
  run: R,
  choice: ConventionChoice,
  options: AnalyzeOptions,
): AnalyzedRun<R> {
  const chosen = chooseConventions(run.config, choice);
  // A summary stored before log loss existed is recomputed too: its decisions are all there.
  const summary =
    chosen.recompute || run.summary.logLoss === undefined
      ? summarizeRun(run.config, run.cases, {
          conventions: chosen.conventions,
          ...(run.summary.status === 'interrupted' ? { interrupted: true } : {}),
        })
      : run.summary;
  const estimates = {
    accuracy: summary.accuracy,
    kl: summary.kl,
    brier: summary.brier,
    logLoss: summary.logLoss,
    ece: summary.ece,
  };
  const statistics = statisticsOf(run, chosen, { ...options, estimates });
  return {
    run: summary === run.summary ? run : ({ ...run, summary } as R),
    statistics: { ...statistics, conventionsRecorded: chosen.recorded, recomputed: chosen.recompute },
  };
}

/** The run's statistics: none (intervals off), the stored ones, from the sample, or from the cases. */
function statisticsOf(
  run: ReportedRun,
  chosen: ReturnType<typeof chooseConventions>,
  options: AnalyzeOptions & { readonly estimates: Parameters<typeof statisticsOfRun>[2]['estimates'] },
): Omit<RunStatistics, 'conventionsRecorded' | 'recomputed'> {
  const { conventions } = chosen;
  // No intervals: nothing to read (the cases are counted by their source).
  if (!options.intervals || conventions.bootstrapResamples === 0)
    return { conventions, cases: run.cases.length, intervals: null, eceNoise: null };
  if (!chosen.recompute) {
    const stored = options.stored ?? null;
    if (stored !== null && conventionsText(stored.conventions) === conventionsText(conventions)) {
      const { conventionsRecorded: _recorded, recomputed: _recomputed, ...kept } = stored;
      return kept;
    }
    if (options.sample !== undefined) return statisticsOfSample(options.sample, conventions, options);
  }
  return statisticsOfRun(run.cases, conventions, options);
}
