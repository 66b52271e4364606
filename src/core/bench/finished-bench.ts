import type { ReportedRun } from './run.js';
import type { RunStatistics } from './run-statistics.js';

/** A finished benchmark run as the bench use case hands it to its renderers. */
export interface FinishedBench {
  /** Its cases are read from the store (or a temp file) when iterated: never all in memory. */
  readonly run: ReportedRun;
  /** Intervals, ECE noise floor and conventions of `run` (under the chosen conventions). */
  readonly statistics: RunStatistics;
  readonly interrupted: boolean;
  /** True when the run is in the store. */
  readonly saved: boolean;
  readonly casesTotal: number;
  /** The `--out` files written. */
  readonly written: readonly string[];
  /** Why the `--out` files could not be written (the run itself is finished and saved). */
  readonly writeError: string | null;
  /**
   * The JSON document's decision rows as `--out` rendered them (in the one pass over the
   * run): printing the document reads no case again. Absent without `--out`.
   */
  readonly decisionRows?: { readonly rows: number; readonly pieces: Iterable<string> };
}
