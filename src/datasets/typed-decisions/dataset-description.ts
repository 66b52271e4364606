/**
 * What `dataset info` and `dataset verify` find of each dataset named: the shapes their use
 * case (`app/datasets/describe-datasets.ts`) hands the renderers (`reports/datasets/`).
 */
import type { DatasetInfo } from '../../core/typed-decisions/dataset-info.js';
import type { CaseSummary } from './case-summary.js';
import type { VerifiedDataset } from './load-bench-dataset.js';
import type { DatasetManifest } from './manifest.js';

/** What `dataset info` describes of one dataset. */
export interface DatasetDescription {
  readonly target: string;
  readonly info: DatasetInfo;
  readonly location: string;
  readonly manifest: DatasetManifest | null;
  readonly summary: CaseSummary;
}

/** A dataset named by default that is not there: information, not a failure. */
export interface DatasetNotFetched {
  readonly target: string;
  readonly message: string;
}

/** One target's verification: the copy verified, or why not (`skipped`: not fetched). */
export type DatasetVerification =
  | { readonly target: string; readonly ok: true; readonly verified: VerifiedDataset }
  | {
      readonly target: string;
      readonly ok: false;
      readonly skipped: boolean;
      readonly error: string;
      readonly problems: readonly string[];
    };
