/**
 * A stored or finished benchmark run made ready to report: its numbers under the chosen
 * conventions (recomputed from its decisions when they differ from the stored ones, as
 * every decision is stored) and the intervals and ECE noise floor around them.
 *
 * Whatever needs the cases (a summary recomputed, the statistics' sample, the report
 * listings, a caller's own per-case work) is gathered in one pass over them: a run in the
 * store is read once, however many things a command takes from it.
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { ReportedRun } from '../../core/bench/run.js';
import { ListingsAccumulator, type RunListings } from '../../core/bench/run-listings.js';
import { BenchAccumulator, type BenchSummary } from '../../core/bench/summary.js';
import { caseFactsOf, QuestionKeys } from '../../core/bench/case-facts.js';
import { CaseSampleBuilder, type CaseSample } from '../../core/stats/case-sample.js';
import { conventionsText, type ConventionChoice } from '../../core/stats/conventions.js';
import { chooseConventions } from '../../core/bench/run-conventions.js';
import { addCaseToSample, statisticsOfSample, type RunStatistics } from '../../core/bench/run-statistics.js';
import { summarizeOptionsOf } from '../../store/run-summary.js';
import { recalibratedCases } from '../../core/case-recalibration.js';
import type { RunCalibration } from '../../core/calibration-map.js';

export interface AnalyzedRun<R extends ReportedRun = ReportedRun> {
  /** The run, its summary computed under `statistics.conventions` (with its listings when asked for). */
  readonly run: R;
  readonly statistics: RunStatistics;
  /** The run's case sample, when `keepSample` asked for it. */
  readonly sample?: CaseSample;
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
  /** Also gather the run's report listings (unless it has them), in the same pass. */
  readonly listings?: boolean;
  /** Also build the run's case sample (returned as `sample`), in the same pass. */
  readonly keepSample?: boolean;
  /** Called with every case in run order, in the same pass; given, the cases are always read. */
  readonly visit?: (c: CaseResult, position: number) => void;
  /**
   * A calibration map to apply to a stored run that has none of its own (`report RUN
   * --calibration`): the summary, intervals and listings are all recomputed from its
   * recalibrated answers (nothing stored is reused).
   */
  readonly recalibration?: RunCalibration;
}

/** The run under its own conventions with `choice` on top; intervals unless turned off. */
export function analyzeRun<R extends ReportedRun>(
  given: R,
  choice: ConventionChoice,
  options: AnalyzeOptions,
): AnalyzedRun<R> {
  const run = recalibratedRun(given, options.recalibration);
  const chosen = chooseConventions(run.config, choice);
  const plan = passPlan(run, chosen, options);
  const read = readOnce(run, chosen, plan, options.visit);
  const summary = read.summary ?? run.summary;
  const estimates = {
    accuracy: summary.accuracy,
    kl: summary.kl,
    brier: summary.brier,
    logLoss: summary.logLoss,
    ece: summary.ece,
  };
  const { conventions } = chosen;
  const statistics =
    plan.statistics === 'none'
      ? { conventions, cases: run.cases.length, intervals: null, eceNoise: null }
      : plan.statistics === 'stored'
        ? storedStatistics(options.stored!)
        : statisticsOfSample((plan.statistics === 'given' ? options.sample : read.sample)!, conventions, {
            ...options,
            estimates,
          });
  const changed = summary !== run.summary || read.listings !== undefined || run !== given;
  return {
    run: changed ? ({ ...run, summary, ...(read.listings ? { listings: read.listings } : {}) } as R) : run,
    statistics: { ...statistics, conventionsRecorded: chosen.recorded, recomputed: chosen.recompute },
    ...(options.keepSample === true ? { sample: read.sample ?? options.sample! } : {}),
  };
}

/** True when `analyzeRun` with these options reads the run's cases (a `visit` aside). */
export function analysisReadsCases(run: ReportedRun, choice: ConventionChoice, options: AnalyzeOptions): boolean {
  const plan = passPlan(run, chooseConventions(run.config, choice), options);
  return plan.summary || plan.sample || plan.listings;
}

/**
 * The run whose cases the analysis and the reports read: recalibrated by the run's own map
 * (its stored summary already is), or by a map given to the report, which then stands in
 * for what was stored (its summary recomputed, its stored statistics and listings unused).
 */
function recalibratedRun<R extends ReportedRun>(run: R, given: RunCalibration | undefined): R {
  const calibration = given ?? run.config.calibration;
  if (calibration === undefined) return run;
  const cases = recalibratedCases(run.cases, calibration);
  if (given === undefined) return { ...run, cases };
  const { listings: _stale, ...rest } = run;
  const { path, sha256, method, by } = given;
  return { ...rest, cases, recalibratedWith: { path, sha256, method, by } } as R;
}

type Chosen = ReturnType<typeof chooseConventions>;

/** What the analysis takes from the cases: a summary, a sample, listings (each read in the one pass). */
interface PassPlan {
  readonly summary: boolean;
  readonly sample: boolean;
  readonly listings: boolean;
  /** Where the statistics come from: none (intervals off), stored, the sample given, or the one read. */
  readonly statistics: 'none' | 'stored' | 'given' | 'read';
}

function passPlan(run: ReportedRun, chosen: Chosen, options: AnalyzeOptions): PassPlan {
  const { conventions } = chosen;
  // A map the report applies makes every stored number stale.
  const recompute = chosen.recompute || options.recalibration !== undefined;
  // A summary stored before log loss existed is recomputed too: its decisions are all there.
  const summary = recompute || run.summary.logLoss === undefined;
  const stored = options.stored ?? null;
  const statistics =
    !options.intervals || conventions.bootstrapResamples === 0
      ? 'none'
      : !recompute && stored !== null && conventionsText(stored.conventions) === conventionsText(conventions)
        ? 'stored'
        : !recompute && options.sample !== undefined
          ? 'given'
          : 'read';
  const keepSample = options.keepSample === true && options.sample === undefined;
  return {
    summary,
    sample: statistics === 'read' || keepSample,
    listings: options.listings === true && run.listings === undefined,
    statistics,
  };
}

function storedStatistics(stored: RunStatistics): Omit<RunStatistics, 'conventionsRecorded' | 'recomputed'> {
  const { conventionsRecorded: _recorded, recomputed: _recomputed, ...kept } = stored;
  return kept;
}

/** One pass over the run's cases feeding everything the plan asks for; no pass when it asks for nothing. */
function readOnce(
  run: ReportedRun,
  chosen: Chosen,
  plan: PassPlan,
  visit: AnalyzeOptions['visit'],
): { summary?: BenchSummary; sample?: CaseSample; listings?: RunListings } {
  if (!plan.summary && !plan.sample && !plan.listings && visit === undefined) return {};
  const summaryOptions = summarizeOptionsOf(run.config, {
    conventions: chosen.conventions,
    ...(run.summary.status === 'interrupted' ? { interrupted: true } : {}),
  });
  const summary = plan.summary ? new BenchAccumulator(summaryOptions.calibration) : null;
  const sample = plan.sample ? new CaseSampleBuilder({ cases: run.cases.length }) : null;
  const listings = plan.listings ? new ListingsAccumulator() : null;
  // One string a question key for the whole pass: the sample's and listings' maps then hash
  // each key once, not once a decision.
  const keys = new QuestionKeys();
  let position = 0;
  for (const c of run.cases) {
    summary?.add(c);
    if (sample !== null || listings !== null) {
      const facts = caseFactsOf(c, keys);
      if (sample !== null) addCaseToSample(sample, c, facts);
      listings?.add(c, position, facts);
    }
    visit?.(c, position);
    position++;
  }
  return {
    ...(summary === null ? {} : { summary: summary.summarize(summaryOptions) }),
    ...(sample === null ? {} : { sample: sample.build() }),
    ...(listings === null ? {} : { listings: listings.listings() }),
  };
}
