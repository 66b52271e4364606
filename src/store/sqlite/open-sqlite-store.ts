/**
 * The SQLite adapter of the store port: one file (better-sqlite3 12, WAL, a versioned
 * schema) holding runs, cases, audits and probes, over one connection.
 */
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { given } from '../../core/given.js';
import { resolveRecordId, type AskedBy, type RecordKind } from '../record-kind.js';
import type { Store } from '../store.js';
import type { StoreCheck } from '../stored-run.js';
import { SqliteAudits } from './audits.js';
import { SqliteCases } from './cases.js';
import { checkStore } from './check.js';
import { SqliteConnection } from './connection.js';
import { guardedPart } from './guarded-parts.js';
import { openDatabase, type OpenSqliteStoreOptions } from './open-database.js';
import { SqliteProbes } from './probes.js';
import { idsStartingWithIn } from './record-ids.js';
import { RunTables } from './run-tables.js';
import { SqliteRuns } from './runs.js';

export type { OpenSqliteStoreOptions } from './open-database.js';

/**
 * Opens (creating and migrating when needed) the SQLite store at `path`. A database written
 * by a newer decidekit, or a SQLite file that is not a decidekit store, is refused and left
 * unchanged.
 */
export function openSqliteStore(path: string, options: OpenSqliteStoreOptions = {}): SqliteStore {
  const { db, busyTimeoutMs, copyFile, removeCopy } = openDatabase(path, options);
  const conn = new SqliteConnection(db, path, options.randomBytes ?? ((n) => cryptoRandomBytes(n)), busyTimeoutMs, {
    everyCommit: options.synchronous === 'full',
    intervalMs: Math.max(0, options.syncIntervalMs ?? 2000),
    now: options.now ?? (() => performance.now()),
  });
  try {
    return new SqliteStore(conn, removeCopy, options, copyFile);
  } catch (err) {
    db.close();
    removeCopy();
    throw conn.readFailure(err);
  }
}

export class SqliteStore implements Store {
  readonly path: string;
  readonly copyPath?: string;
  readonly runs: SqliteRuns;
  readonly cases: SqliteCases;
  readonly audits: SqliteAudits;
  readonly probes: SqliteProbes;
  private readonly tables: RunTables;
  private readonly idsStartingWith;

  constructor(
    private readonly conn: SqliteConnection,
    private readonly removeCopy: () => void,
    options: OpenSqliteStoreOptions,
    copyFile: string | null = null,
  ) {
    this.path = conn.path;
    if (copyFile !== null) this.copyPath = copyFile;
    this.tables = new RunTables(conn);
    const path = conn.path;
    const cases = new SqliteCases(
      this.tables,
      // Read from a fresh read-only connection, so the source outlives this store.
      () => openSqliteStore(path, { mustExist: true, readOnly: true }),
      {
        ...given({ busyTimeoutMs: options.busyTimeoutMs, syncIntervalMs: options.syncIntervalMs }),
      },
    );
    // Each part as handed out says a damaged file is damaged, whichever statement met it.
    this.cases = guardedPart(cases, conn);
    this.runs = guardedPart(new SqliteRuns(this.tables, cases), conn);
    this.audits = guardedPart(new SqliteAudits(conn), conn);
    this.probes = guardedPart(new SqliteProbes(conn), conn);
    this.idsStartingWith = idsStartingWithIn(conn.db);
  }

  resolveId(prefix: string, kind: RecordKind, askedBy?: AskedBy): string {
    const { path, idsStartingWith } = this;
    return this.conn.reading(() => resolveRecordId(kind, prefix, { path, idsStartingWith }, askedBy));
  }

  check(options: { readonly runIds?: readonly string[] } = {}): StoreCheck {
    return checkStore(this.tables, this.runs, options.runIds);
  }

  close(): void {
    if (!this.conn.db.open) return;
    this.conn.db.close();
    this.removeCopy();
  }
}
