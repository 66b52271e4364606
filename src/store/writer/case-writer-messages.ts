/** The messages between the case writer (main thread) and its worker thread. */
import type { PackedCaseBatch } from '../sqlite/case-batch.js';
import type { OpenSqliteStoreOptions } from '../sqlite/open-database.js';

/** What the worker is started with. */
export interface WriterWorkerData {
  readonly path: string;
  readonly options: Pick<OpenSqliteStoreOptions, 'busyTimeoutMs' | 'syncIntervalMs' | 'synchronous'>;
}

export type ToWriter =
  | {
      readonly kind: 'save';
      readonly seq: number;
      readonly runId: string;
      /** Its typed arrays' buffers are transferred with the message. */
      readonly batch: PackedCaseBatch;
      readonly durationMs: number | null;
    }
  | { readonly kind: 'close' };

/** A store error as data: errors do not keep their class across threads. */
export interface WriterErrorData {
  readonly kind: 'write' | 'damaged' | 'other';
  readonly code: string | null;
  readonly message: string;
  /** For `write` and `damaged`: what happened, without the store's name. */
  readonly detail: string | null;
  readonly runId: string | null;
}

export type FromWriter =
  | { readonly kind: 'saved'; readonly seq: number }
  | { readonly kind: 'failed'; readonly seq: number; readonly error: WriterErrorData };
