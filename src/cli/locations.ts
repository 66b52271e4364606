import { resolve } from 'node:path';
import type { DatasetChoice } from '../app/dataset-choice.js';
import { defaultCacheDir } from '../datasets/typed-decisions/default-cache-dir.js';
import { defaultStorePath } from '../store/default-store-path.js';
import type { CliIo } from './io.js';

/** `--store PATH` resolved against the working folder, else the default store. */
export function storePathOf(value: string | undefined, io: CliIo): string {
  return value === undefined ? defaultStorePath(io.env) : resolve(io.cwd, value);
}

/** Where fetched datasets are cached. */
export function cacheDirOf(io: CliIo): string {
  return defaultCacheDir(io.env);
}

/** `--dataset`: a name, or a path resolved against the working folder. */
export function datasetChoiceOf(value: string, io: CliIo): DatasetChoice {
  if (value === 'sample') return { kind: 'sample' };
  if (value === 'typed-decisions') return { kind: 'typed-decisions' };
  return { kind: 'path', path: resolve(io.cwd, value) };
}
