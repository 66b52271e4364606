/**
 * What the offline use cases hand their renderers: a scored model (`score`), models compared
 * on one dataset (`compare`) and what `validate` found in a file.
 */
import type { AppliedCalibration } from '../calibration-map.js';
import type { InputProblem } from '../errors.js';
import type { RankedRow } from '../stats/accuracy-ranking.js';
import type { Conventions } from '../stats/conventions.js';
import type { OfflineIntervals, OfflinePairing } from './statistics.js';
import type { OfflineSummary } from './summary.js';

/** One scored model: which files, which model, every number. */
export interface ScoredModel {
  readonly datasetPath: string;
  readonly resultsPath: string;
  /** Null when the results file has no results. */
  readonly model: string | null;
  readonly summary: OfflineSummary;
  /** The conventions the numbers used; DEFAULT_CONVENTIONS when absent. */
  readonly conventions?: Conventions;
  /** Intervals and the ECE noise floor; null or absent when intervals are off. */
  readonly stats?: OfflineIntervals | null;
  /** ECE averaged per question with no question holding two decisions (perQuestionEceDegenerate). */
  readonly perQuestionDegenerate?: boolean;
  /** The calibration map applied before scoring (`--calibration MAP`), when one was. */
  readonly recalibration?: AppliedCalibration;
}

/** Several models scored on one dataset: what `compare` shows. */
export interface ComparedModels {
  readonly datasetPath: string;
  /** In the order given; the first is the baseline of the pairings. */
  readonly scored: readonly ScoredModel[];
  /** Model `index` against the baseline: differences are model - baseline. Empty with intervals off. */
  readonly pairings: readonly { readonly index: number; readonly pairing: OfflinePairing }[];
  /** Ranked by accuracy; ties with the leader marked when intervals are on. */
  readonly leaderboard: readonly RankedRow<ScoredModel>[];
}

/** What `validate` found in one file. */
export type FileCheck =
  | {
      readonly role: 'dataset';
      readonly path: string;
      readonly ok: true;
      readonly cases: number;
      readonly byKind: { readonly yesNo: number; readonly choice: number; readonly score: number };
    }
  | {
      readonly role: 'results';
      readonly path: string;
      readonly ok: true;
      readonly model: string | null;
      readonly lines: number;
      readonly missing: number;
    }
  | {
      readonly role: 'dataset' | 'results';
      readonly path: string;
      readonly ok: false;
      readonly problems: readonly InputProblem[];
      readonly omitted: number;
    }
  | { readonly role: 'results'; readonly path: string; readonly ok: null; readonly reason: string };
