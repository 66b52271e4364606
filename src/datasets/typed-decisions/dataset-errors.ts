import { given } from '../../core/given.js';
import { DecidekitError } from '../../core/errors.js';
import type { MessageWords } from '../../core/message-words.js';

/**
 * A stored dataset copy does not match its manifest (missing, truncated, edited, wrong row
 * count) or has no usable manifest. The message says how to restore it.
 */
export class DatasetIntegrityError extends DecidekitError {
  override readonly name = 'DatasetIntegrityError';
  constructor(message: string, context: { file: string; restore: string }, cause?: unknown) {
    super('dataset_integrity', `dataset integrity check failed: ${message} (restore it: ${context.restore})`, {
      context,
      ...given({ cause }),
    });
  }
}

/**
 * A manifest written by hand (in a folder given as the dataset, not one decidekit fetched or
 * bundled) that breaks the manifest format: the advice is to fix it, not to restore data.
 */
export class InvalidManifestError extends DecidekitError {
  override readonly name = 'InvalidManifestError';
  constructor(file: string, problem: string) {
    super(
      'invalid_manifest',
      `invalid dataset manifest: ${file}: ${problem} (fix the manifest: its keys are described in docs/file-formats.md, "Dataset manifest")`,
      { context: { file } },
    );
  }
}

/** Downloading the dataset failed; nothing was left in the cache. */
export class DatasetFetchError extends DecidekitError {
  override readonly name = 'DatasetFetchError';
  constructor(message: string | MessageWords, context: Record<string, unknown>, cause?: unknown) {
    super('dataset_fetch', message, { context, ...given({ cause }) });
  }
}
