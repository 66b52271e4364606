/**
 * Several runs of the same work side by side, ranked by accuracy (highest first) with the
 * one ranking rule of core/stats/accuracy-ranking.ts. A run whose accuracy interval overlaps
 * the leader's is marked tied with it: on this many cases the data cannot tell them apart.
 */
import type { ReportedRun } from './run.js';
import type { HeadlineMetric, RunStatistics } from './run-statistics.js';
import type { Interval } from '../stats/bootstrap.js';
import { rankByAccuracy } from '../stats/accuracy-ranking.js';

export interface LeaderboardRow {
  /** Competition rank by accuracy: 1, 2, 2, 4; runs without accuracy share the rank after the last ranked one. */
  readonly rank: number;
  readonly id: string;
  readonly label: string | null;
  readonly model: string | null;
  /** For a run that asked for no model: the models its answers named (none when not known). */
  readonly answeredModels: readonly string[];
  readonly decisions: number;
  readonly values: Readonly<Record<HeadlineMetric, number | null>>;
  /** Null when intervals were turned off. */
  readonly intervals: Readonly<Record<HeadlineMetric, Interval | null>> | null;
  /** The leader itself, a run of the leader's accuracy, or one whose accuracy interval overlaps the leader's. */
  readonly tiedWithLeader: boolean;
}

/** Rows in rank order; runs of equal accuracy keep the order given. */
export function rankRuns(
  runs: ReadonlyArray<{
    readonly run: ReportedRun;
    readonly statistics: RunStatistics;
    /** The models the run's answers named, when known (a stored run's head has them). */
    readonly answeredModels?: readonly string[] | null;
  }>,
): LeaderboardRow[] {
  const ranked = rankByAccuracy(runs, {
    accuracyOf: (r) => r.run.summary.accuracy,
    intervalOf: (r) => r.statistics.intervals?.accuracy ?? null,
    ties: 'with-leader',
  });
  const unranked = ranked.filter((r) => r.rank !== null).length + 1;
  return ranked.map(({ row: { run, statistics, answeredModels }, rank, tiedWithLeader }): LeaderboardRow => {
    const s = run.summary;
    return {
      rank: rank ?? unranked,
      id: run.id,
      label: run.label,
      model: run.config.model,
      answeredModels: answeredModels ?? [],
      decisions: s.total,
      values: { accuracy: s.accuracy, kl: s.kl, brier: s.brier, logLoss: s.logLoss ?? null, ece: s.ece },
      intervals: statistics.intervals,
      tiedWithLeader,
    };
  });
}
