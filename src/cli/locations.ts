import { resolve } from 'node:path';
import type { DatasetChoice } from '../app/dataset-choice.js';
import { defaultCacheDir } from '../datasets/typed-decisions/default-cache-dir.js';
import { defaultStorePath } from '../store/default-store-path.js';
import type { CliIo } from './io.js';
import { UsageError } from '../core/errors.js';
import { isPostgresUrl, storeUrlProblem } from '../core/store-url.js';

/**
 * Where the store is: `--store`, else `DECIDEKIT_STORE`, else the default SQLite file. A
 * path is resolved against the working folder; a PostgreSQL URL is kept as given (with its
 * password, which only the connection reads: everything shown uses it without).
 */
export function storePathOf(value: string | undefined, io: CliIo): string {
  const given = value ?? nonEmpty(io.env['DECIDEKIT_STORE']);
  if (given === undefined) return defaultStorePath(io.env);
  return storeLocationOf(given, io, value === undefined ? 'DECIDEKIT_STORE' : '--store');
}

/**
 * A store named on the command line: a PostgreSQL URL as given, a path resolved against the
 * working folder. A malformed URL is refused at once, naming where it came from (`source`:
 * the flag or the environment variable) and the bad part, before any connection is tried.
 */
export function storeLocationOf(value: string, io: CliIo, source = '--store'): string {
  if (value === '-' && source === 'DECIDEKIT_STORE')
    throw new UsageError(
      'DECIDEKIT_STORE=- names no file: a run store is a file (a SQLite database read and written in place), never standard input or output; give its path, e.g. DECIDEKIT_STORE=runs.sqlite (or DECIDEKIT_STORE=./- for a file named "-")',
    );
  const problem = storeUrlProblem(value);
  if (problem !== null) throw new UsageError(`${source}: ${problem}`);
  return isPostgresUrl(value) ? value.trim() : resolve(io.cwd, value);
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
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
