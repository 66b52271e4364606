/**
 * The dataset use cases behind `decidekit dataset info` and `verify`: describe or verify
 * the bundled sample, the cached Typed Decisions copy and user files. Without explicit
 * targets, a Typed Decisions copy that was never fetched is information, not a failure.
 */
import type { DatasetInfo } from '../../core/typed-decisions/dataset-info.js';
import { DecidekitError, InvalidInputError, formatProblem } from '../../core/errors.js';
import {
  loadBenchDataset,
  summarizeCases,
  verifyBenchDataset,
  type CaseSummary,
  type DatasetManifest,
  type DatasetSource,
  type VerifiedDataset,
} from '../../datasets/typed-decisions/index.js';

/** What the user named: `sample`, `typed-decisions` or a path, resolved to a source. */
export interface DatasetTarget {
  readonly target: string;
  readonly source: DatasetSource;
}

export interface DescribedDataset {
  readonly target: string;
  readonly info: DatasetInfo;
  readonly location: string;
  readonly manifest: DatasetManifest | null;
  readonly summary: CaseSummary;
}

export async function describeDatasets(
  targets: readonly DatasetTarget[],
  options: { readonly explicit: boolean; readonly split?: string },
): Promise<{ described: DescribedDataset[]; notFetched: { target: string; message: string }[] }> {
  const described: DescribedDataset[] = [];
  const notFetched: { target: string; message: string }[] = [];
  for (const { target, source } of targets) {
    try {
      const d = await loadBenchDataset(source, options.split === undefined ? {} : { split: options.split });
      described.push({
        target,
        info: d.info,
        location: d.location,
        manifest: d.manifest,
        summary: summarizeCases(d.cases),
      });
    } catch (err) {
      if (!options.explicit && err instanceof DecidekitError && err.code === 'dataset_missing')
        notFetched.push({ target, message: err.message });
      else throw err;
    }
  }
  return { described, notFetched };
}

export type DatasetVerification =
  | { readonly target: string; readonly ok: true; readonly verified: VerifiedDataset }
  | {
      readonly target: string;
      readonly ok: false;
      readonly skipped: boolean;
      readonly error: string;
      readonly problems: string[];
    };

/** Verifies every target; a failure is a result, not an exception. */
export async function verifyDatasets(
  targets: readonly DatasetTarget[],
  options: { readonly explicit: boolean },
): Promise<DatasetVerification[]> {
  const results: DatasetVerification[] = [];
  for (const { target, source } of targets) {
    try {
      results.push({ target, ok: true, verified: await verifyBenchDataset(source) });
    } catch (err) {
      if (!(err instanceof DecidekitError)) throw err;
      const skipped = !options.explicit && err.code === 'dataset_missing';
      const problems = err instanceof InvalidInputError ? err.problems.map(formatProblem) : [];
      results.push({ target, ok: false, skipped, error: err.message, problems });
    }
  }
  return results;
}
