/**
 * The one mapping between a `--dataset` value (or a `dataset` command target) and the
 * source the loader reads, in both directions.
 */
import { resolve } from 'node:path';
import type { DatasetInfo } from '../../core/typed-decisions/dataset-info.js';
import type { DatasetSource } from './load-bench-dataset.js';
import { SAMPLE_ID, TYPED_DECISIONS_ID } from './provenance.js';

/** The datasets known by name, in the order `dataset info` and `dataset verify` list them. */
export const NAMED_DATASETS = ['sample', 'typed-decisions'] as const;
export type NamedDataset = (typeof NAMED_DATASETS)[number];

/**
 * The source a `--dataset` value names: `sample` (also when absent), `typed-decisions`
 * (read from `cacheDir`), else a file or folder resolved against `cwd`.
 */
export function parseDatasetSource(value: string | undefined, cwd: string, cacheDir: string): DatasetSource {
  if (value === undefined || value === 'sample') return { kind: 'sample' };
  if (value === 'typed-decisions') return { kind: 'typed-decisions', cacheDir };
  return { kind: 'path', path: resolve(cwd, value) };
}

/**
 * The `--dataset` value that names a stored run's dataset again, or null when the run's
 * dataset was given by path (it can be found again only by that path).
 */
export function datasetValueOf(dataset: Pick<DatasetInfo, 'id'>): NamedDataset | null {
  if (dataset.id === SAMPLE_ID) return 'sample';
  if (dataset.id === TYPED_DECISIONS_ID) return 'typed-decisions';
  return null;
}
