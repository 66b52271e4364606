/** The writer thread's own connection to a store (`../writer/`): it saves packed case rows. */
import type { SaveProgress } from '../stored-run.js';
import type { PackedCaseRows } from './case-rows.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';

/** What the store's writer thread needs of a store: saving packed rows, and closing. */
export interface RowWriter {
  readonly path: string;
  /** `cases.save` of rows packed by `packCaseRows`: committed when it returns. */
  saveRows(runId: string, packed: PackedCaseRows, progress?: SaveProgress): void;
  close(): void;
}

/** Opens an existing store to save packed rows into (the writer thread's connection). */
export function openRowWriter(path: string, options: OpenSqliteStoreOptions = {}): RowWriter {
  const store = openSqliteStore(path, { ...options, mustExist: true });
  return {
    path: store.path,
    saveRows: (runId, packed, progress) => store.cases.saveRows(runId, packed, progress),
    close: () => store.close(),
  };
}
