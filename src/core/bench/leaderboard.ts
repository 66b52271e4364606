/**
 * Several runs of the same work side by side, ranked by accuracy (highest first). A run
 * whose accuracy interval overlaps the leader's is marked tied with it: on this many cases
 * the data cannot tell them apart.
 */
import type { BenchRun } from './run.js';
import type { HeadlineMetric, RunStatistics } from './run-statistics.js';
import { intervalsOverlap, type Interval } from '../stats/bootstrap.js';

export interface LeaderboardRow {
  /** Competition rank by accuracy: 1, 2, 2, 4. */
  readonly rank: number;
  readonly id: string;
  readonly label: string | null;
  readonly model: string | null;
  readonly decisions: number;
  readonly values: Readonly<Record<HeadlineMetric, number | null>>;
  /** Null when intervals were turned off. */
  readonly intervals: Readonly<Record<HeadlineMetric, Interval | null>> | null;
  /** The leader itself, or a run whose accuracy interval overlaps the leader's. */
  readonly tiedWithLeader: boolean;
}

/** Rows in rank order; runs of equal accuracy keep the order given. */
export function rankRuns(
  runs: ReadonlyArray<{ readonly run: BenchRun; readonly statistics: RunStatistics }>,
): LeaderboardRow[] {
  const order = runs
    .map((r, i) => ({ ...r, i }))
    .sort((x, y) => (y.run.summary.accuracy ?? -1) - (x.run.summary.accuracy ?? -1) || x.i - y.i);
  const leader = order[0];
  const leaderInterval = leader?.statistics.intervals?.accuracy ?? null;
  let rank = 0;
  let previous: number | null | undefined;
  return order.map(({ run, statistics }, position): LeaderboardRow => {
    const s = run.summary;
    if (s.accuracy !== previous) rank = position + 1;
    previous = s.accuracy;
    const own = statistics.intervals?.accuracy ?? null;
    return {
      rank,
      id: run.id,
      label: run.label,
      model: run.config.model,
      decisions: s.total,
      values: { accuracy: s.accuracy, kl: s.kl, brier: s.brier, logLoss: s.logLoss ?? null, ece: s.ece },
      intervals: statistics.intervals,
      tiedWithLeader:
        position === 0 ||
        (s.accuracy !== null && s.accuracy === leader!.run.summary.accuracy) ||
        (own !== null && leaderInterval !== null && intervalsOverlap(own, leaderInterval)),
    };
  });
}
