/**
 * The PostgreSQL adapter of the store port: a database (named by a `postgresql://` URL)
 * holding runs, cases, audits and probes, over one synchronous connection (`sync-client.ts`)
 * whose driver runs on a worker thread. Several processes on several machines may write one
 * store at once: every write is a transaction, ids are unique keys (drawn again on a clash),
 * and saves to a run lock its row. The URL is shown everywhere without its password.
 */
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { DecidekitError } from '../../core/errors.js';
import { shownStoreUrl, storeUrlProblem } from '../../core/store-url.js';
import { resolveRecordId, type AskedBy, type RecordKind } from '../record-kind.js';
import type { OpenStoreOptions } from '../open-store-options.js';
import type { CaseWriter, Store } from '../store.js';
import type { StoreCheck } from '../stored-run.js';
import { PgAudits } from './audits.js';
import { startPgCaseWriter } from './case-writer.js';
import { PgCases } from './cases.js';
import { checkPgStore } from './check.js';
import { PgConnection } from './connection.js';
import { refuseUnusableServer } from './connect-failures.js';
import { migratePostgres, refuseUnreadableSchema } from './migrate.js';
import { PgProbes } from './probes.js';
import { PgClaims } from './run-claims.js';
import { idsStartingWithIn } from './record-ids.js';
import { PgRuns } from './runs.js';
import { SyncPgClient, type SyncPgConfig } from './sync-client.js';

/** How long connecting may take before the server counts as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens (creating the schema and migrating it when needed, unless `readOnly` or `mustExist`)
 * the PostgreSQL store at `url`. A server that cannot be reached, refused credentials, a
 * missing database and a schema newer than this decidekit are each refused in words before
 * anything is written.
 */
export function openPostgresStore(url: string, options: OpenStoreOptions = {}): PostgresStore {
  const path = shownStoreUrl(url);
  const problem = storeUrlProblem(url);
  if (problem !== null)
    throw new DecidekitError('store_unreadable', `cannot open the run store ${path}: ${problem}`, {
      context: { path },
    });
  const config: SyncPgConfig = {
    connectionString: url.trim(),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'decidekit',
  };
  const client = new SyncPgClient(config);
  const conn = new PgConnection(client, path, options.randomBytes ?? ((n) => cryptoRandomBytes(n)));
  try {
    refuseUnusableServer(conn, url);
    if (options.readOnly === true || options.mustExist === true)
      refuseUnreadableSchema(conn, options.readOnly === true);
    else migratePostgres(conn);
    return new PostgresStore(conn, config, options);
  } catch (err) {
    try {
      client.close();
    } catch {
      // Already gone.
    }
    throw conn.readFailure(err);
  }
}

export class PostgresStore implements Store {
  readonly path: string;
  readonly runs: PgRuns;
  readonly cases: PgCases;
  readonly audits: PgAudits;
  readonly probes: PgProbes;
  readonly claims: PgClaims;
  private readonly idsStartingWith;
  private closed = false;

  constructor(
    private readonly conn: PgConnection,
    config: SyncPgConfig,
    options: OpenStoreOptions,
  ) {
    this.path = conn.path;
    const url = config.connectionString;
    this.cases = new PgCases(
      conn,
      // Read from a fresh connection, so the source outlives this store.
      () => openPostgresStore(url, { ...options, mustExist: true, readOnly: true }),
      (): Promise<CaseWriter> => startPgCaseWriter(config, conn.path),
    );
    this.runs = new PgRuns(conn, this.cases);
    this.audits = new PgAudits(conn);
    this.probes = new PgProbes(conn);
    this.claims = new PgClaims(conn);
    this.idsStartingWith = idsStartingWithIn(conn);
  }

  resolveId(prefix: string, kind: RecordKind, askedBy?: AskedBy): string {
    const { path, idsStartingWith } = this;
    return this.conn.reading(() => resolveRecordId(kind, prefix, { path, idsStartingWith }, askedBy));
  }

  check(options: { readonly runIds?: readonly string[] } = {}): StoreCheck {
    return this.conn.reading(() => checkPgStore(this.conn, this.runs, options.runIds));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.client.close();
  }
}
