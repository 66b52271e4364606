/**
 * One open PostgreSQL store: its synchronous client, transactions over it (a read sees one
 * snapshot; a call made inside another's transaction joins it), and the driver's failures
 * in the store's words. Shown and named by its URL without the password (`path`).
 */
import { DecidekitError } from '../../core/errors.js';
import { StoreDamagedError, StoreWriteError, UnknownRunError } from '../store-errors.js';
import { PgQueryError, type QueryResult, type SyncPgClient } from './sync-client.js';

export type Row = Record<string, unknown>;

/** SQLSTATE of a unique key taken (two records drew the same id). */
export const UNIQUE_VIOLATION = '23505';

export class PgConnection {
  private depth = 0;
  private cursors = 0;

  constructor(
    readonly client: SyncPgClient,
    /** The store's URL without its password. */
    readonly path: string,
    readonly randomBytes: (n: number) => Uint8Array,
  ) {}

  query<R = Row>(sql: string, params: readonly unknown[] = []): QueryResult<R> {
    return this.client.query<R>(sql, params);
  }

  rows<R = Row>(sql: string, params: readonly unknown[] = []): R[] {
    return this.client.query<R>(sql, params).rows;
  }

  /** The first row, or undefined. */
  row<R = Row>(sql: string, params: readonly unknown[] = []): R | undefined {
    return this.client.query<R>(sql, params).rows[0];
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** A name for a cursor that no other open cursor of this connection has. */
  cursorName(): string {
    return `decidekit_cursor_${++this.cursors}`;
  }

  /**
   * Runs `fn` in a transaction: `read` sees one snapshot (repeatable read) and writes
   * nothing; `write` commits when `fn` returns, rolls back when it throws. Inside another
   * transaction `fn` joins it.
   */
  transaction<T>(mode: 'read' | 'write', fn: () => T): T {
    if (this.depth > 0) return fn();
    this.query(mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
    this.depth++;
    let result: T;
    try {
      result = fn();
    } catch (err) {
      this.depth--;
      this.rollbackQuietly();
      throw err;
    }
    this.depth--;
    this.query(mode === 'read' ? 'ROLLBACK' : 'COMMIT');
    return result;
  }

  /** Opens a transaction that a generator ends itself (`end`): the cursor of `cases.iterate`. */
  beginRead(): { end(): void } {
    this.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    this.depth++;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        this.depth--;
        this.rollbackQuietly();
      },
    };
  }

  private rollbackQuietly(): void {
    try {
      this.query('ROLLBACK');
    } catch {
      // The connection is gone: the server rolled back already.
    }
  }

  /** Runs a write; what keeps it from the store becomes a `StoreWriteError`. */
  writing<T>(runId: string | null, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof DecidekitError) throw err;
      if (err instanceof PgQueryError) throw new StoreWriteError(this.path, runId, writeFailureWords(err), err);
      throw err;
    }
  }

  /** Runs a read; a failure of the server names the store. */
  reading<T>(fn: () => T, runId?: string): T {
    try {
      return fn();
    } catch (err) {
      throw this.readFailure(err, runId);
    }
  }

  readFailure(err: unknown, runId?: string): unknown {
    if (err instanceof DecidekitError || !(err instanceof PgQueryError)) return err;
    return new DecidekitError(
      'store_unreadable',
      `cannot read run store ${this.path}${runId === undefined ? '' : ` (run ${runId})`}: ${serverFailureWords(err)}`,
      { context: { path: this.path }, cause: err },
    );
  }

  unknownRun(runId: string): UnknownRunError {
    return new UnknownRunError(`unknown run: ${JSON.stringify(runId)} is not in ${this.path}`, {
      path: this.path,
      id: runId,
    });
  }

  damaged(runId: string, detail: string): StoreDamagedError {
    return new StoreDamagedError(this.path, `run ${runId}: ${detail}`, { runId });
  }
}

/** A failed statement in words: the server's message, or what happened to the connection. */
export function serverFailureWords(err: PgQueryError): string {
  if (err.code === 'ECONNRESET' || err.code === '57P01' || /terminat|Connection terminated/i.test(err.message))
    return 'the connection to the PostgreSQL server was lost';
  return `the server said: ${err.message}`;
}

function writeFailureWords(err: PgQueryError): string {
  if (err.code === '53100') return 'the PostgreSQL server is out of disk space';
  if (err.code === '25006') return 'the database takes no writes (a read-only server or replica)';
  if (err.code === '42501') return `the user may not write to it (${err.message})`;
  return serverFailureWords(err);
}
