/**
 * What `tune` hands its renderers: one tuned model (a results file, or one yes/no question of
 * a stored run) and, for `tune RUN`, every yes/no question of the run.
 */
import type { Ranking } from '../stats/ranking.js';
import type { TuneReport } from './threshold-tuning.js';

/** What was tuned: the report plus where it came from. */
export interface TunedModel {
  readonly model: string;
  readonly datasetPath: string;
  readonly resultsPath: string;
  readonly report: TuneReport;
  /** ROC AUC and average precision of the same decisions, with intervals (threshold-free). */
  readonly ranking?: Ranking | null;
}

/** One yes/no question of a stored run (`tune RUN`): its tuning, or why there is none. */
export type TunedQuestion =
  { readonly question: string; readonly tuned: TunedModel } | { readonly question: string; readonly skipped: string };

/** `tune RUN`: every yes/no question of a stored benchmark run, tuned on its own. */
export interface TunedRun {
  readonly runId: string;
  readonly model: string;
  /** The run's dataset id (and revision). */
  readonly dataset: string;
  /** In question-key order; empty when the run has no yes/no question. */
  readonly questions: readonly TunedQuestion[];
}
