/**
 * One open SQLite store: its connection, and how every part of the adapter writes and
 * reads through it (when a commit is synced to disk, and SQLite's errors in the store's
 * words).
 */
import Database from 'better-sqlite3';
import { DecidekitError } from '../../core/errors.js';
import { StoreDamagedError, StoreWriteError, UnknownRunError } from '../store-errors.js';
import { isDamage } from './sqlite-errors.js';

/** When commits are synced to disk (see `OpenSqliteStoreOptions.synchronous`). */
export interface SyncPolicy {
  readonly everyCommit: boolean;
  readonly intervalMs: number;
  readonly now: () => number;
}

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class SqliteConnection {
  private lastSyncMs: number;

  constructor(
    readonly db: Database.Database,
    readonly path: string,
    readonly randomBytes: (n: number) => Uint8Array,
    private readonly busyTimeoutMs: number,
    private readonly sync: SyncPolicy,
  ) {
    this.lastSyncMs = sync.now();
  }

  /**
   * Runs a write transaction; with `durable` (or when the sync interval has passed) its
   * commit syncs the write-ahead log, and with it every earlier commit, to disk.
   */
  committing<T>(write: () => T, durable: boolean): T {
    const now = this.sync.now();
    if (this.sync.everyCommit || (!durable && now - this.lastSyncMs < this.sync.intervalMs)) return write();
    this.db.pragma('synchronous = FULL');
    try {
      const result = write();
      this.lastSyncMs = now;
      return result;
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  /** Runs a write; whatever keeps it from the store becomes a `StoreWriteError` (or damage). */
  writing<T>(runId: string | null, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof DecidekitError) throw err;
      if (isDamage(err))
        throw new StoreDamagedError(this.path, messageOf(err), { ...(runId ? { runId } : {}), cause: err });
      throw new StoreWriteError(this.path, runId, this.writeFailure(err), err);
    }
  }

  private writeFailure(err: unknown): string {
    const code = (err as { code?: unknown }).code;
    if (
      code === 'SQLITE_BUSY' ||
      code === 'SQLITE_LOCKED' ||
      (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))
    )
      return `another process kept it locked for more than ${this.busyTimeoutMs / 1000} s (${messageOf(err)})`;
    if (typeof code === 'string' && code.startsWith('SQLITE_READONLY'))
      return 'the file or its folder is read-only (or it was opened for reading only)';
    if (code === 'SQLITE_FULL') return 'the disk is full';
    if (typeof code === 'string' && code.startsWith('SQLITE_IOERR'))
      return `the disk refused a write (${messageOf(err)}: the disk may be full, or the file over a size limit)`;
    return messageOf(err);
  }

  /** Runs a read; a SQLite failure names the store, damage says so. */
  reading<T>(fn: () => T, runId?: string): T {
    try {
      return fn();
    } catch (err) {
      throw this.readFailure(err, runId);
    }
  }

  /**
   * What a failed read throws: a SQLite failure in the store's words (damage said as such);
   * decidekit's own errors and anything not from SQLite as they are.
   */
  readFailure(err: unknown, runId?: string): unknown {
    if (err instanceof DecidekitError) return err;
    if (isDamage(err))
      return new StoreDamagedError(this.path, messageOf(err), { ...(runId ? { runId } : {}), cause: err });
    if (!(err instanceof Database.SqliteError)) return err;
    return new DecidekitError('store_unreadable', `cannot read run store ${this.path} (${messageOf(err)})`, {
      context: { path: this.path },
      cause: err,
    });
  }

  /** The error for a run the store does not hold. */
  unknownRun(runId: string): UnknownRunError {
    return new UnknownRunError(`unknown run: ${JSON.stringify(runId)} is not in ${this.path}`, {
      path: this.path,
      id: runId,
    });
  }

  /** The error for a stored run whose rows break the store's rules. */
  damaged(runId: string, detail: string): StoreDamagedError {
    return new StoreDamagedError(this.path, `run ${runId}: ${detail}`, { runId });
  }
}
