/** The writer thread's own connection to a store (`../writer/`): it saves packed case batches. */
import type { SaveProgress } from '../stored-run.js';
import type { PackedCaseBatch } from './case-batch.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';

/** What the store's writer thread needs of a store: saving packed batches, and closing. */
export interface RowWriter {
  readonly path: string;
  /** `cases.save` of a batch packed by `packCaseBatch`: committed when it returns. */
  saveBatch(runId: string, batch: PackedCaseBatch, progress?: SaveProgress): void;
  close(): void;
}

/** Opens an existing store to save packed batches into (the writer thread's connection). */
export function openRowWriter(path: string, options: OpenSqliteStoreOptions = {}): RowWriter {
  const store = openSqliteStore(path, { ...options, mustExist: true });
  return {
    path: store.path,
    saveBatch: (runId, batch, progress) => store.cases.saveBatch(runId, batch, progress),
    close: () => store.close(),
  };
}
