/**
 * The dataset use cases behind `decidekit dataset info` and `verify`: describe or verify
 * the bundled sample, the cached Typed Decisions copy and user files. Without explicit
 * targets, a Typed Decisions copy that was never fetched is information, not a failure.
 */
import { given } from '../../core/given.js';
import { DecidekitError, InvalidInputError, formatProblem } from '../../core/errors.js';
import {
  loadBenchDataset,
  summarizeCases,
  verifyBenchDataset,
  type DatasetSource,
} from '../../datasets/typed-decisions/index.js';
import type {
  DatasetDescription,
  DatasetNotFetched,
  DatasetVerification,
} from '../../datasets/typed-decisions/dataset-description.js';

/** What the user named: `sample`, `typed-decisions` or a path, resolved to a source. */
export interface DatasetTarget {
  readonly target: string;
  readonly source: DatasetSource;
}

export async function describeDatasets(
  targets: readonly DatasetTarget[],
  options: { readonly explicit: boolean; readonly split?: string },
): Promise<{ described: DatasetDescription[]; notFetched: DatasetNotFetched[] }> {
  const described: DatasetDescription[] = [];
  const notFetched: DatasetNotFetched[] = [];
  for (const { target, source } of targets) {
    try {
      const d = await loadBenchDataset(source, given({ split: options.split }));
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
