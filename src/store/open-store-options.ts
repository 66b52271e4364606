/**
 * How a store is opened: the port's options, in words of no adapter, so the library's
 * published types never name the SQLite binding (its types are a devDependency).
 */
export interface OpenStoreOptions {
  /** Refuse to create a new database when the file is missing. Default false. */
  readonly mustExist?: boolean;
  /**
   * Open for reading only (`runs list/show/report/export/check`): never creates, migrates or
   * writes, so an archived or read-only store (file or folder) can be read. A store written
   * by an older decidekit is read from an upgraded copy in a temp folder (the file is
   * upgraded by the next command that writes to it). Implies `mustExist`.
   * Default false.
   */
  readonly readOnly?: boolean;
  /**
   * When commits reach the disk. Every commit survives a killed process either way (it is in
   * the write-ahead log before the call returns). `normal` (default): the log is synced to
   * disk at the first commit after every `syncIntervalMs` and when a run is finished or
   * marked interrupted, and at every audit and probe commit, so power loss or an OS crash
   * loses at most the cases saved in the last interval (the file stays consistent). `full`:
   * every commit is synced.
   */
  readonly synchronous?: 'full' | 'normal';
  /** With `synchronous: 'normal'`, the longest time between syncs to disk. Default 2000. */
  readonly syncIntervalMs?: number;
  /** Monotonic milliseconds, for `syncIntervalMs`. Default `performance.now`. */
  readonly now?: () => number;
  /** How long to wait for another process's write lock. Default 5000. */
  readonly busyTimeoutMs?: number;
  /** Source of the random part of record ids. Default: node:crypto. */
  readonly randomBytes?: (n: number) => Uint8Array;
  /** Sees the SQL of every statement run (diagnostics; tests count what a save reads). */
  readonly onStatement?: (sql: string) => void;
}
