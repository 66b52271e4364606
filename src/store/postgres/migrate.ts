/**
 * The schema version of a PostgreSQL store: created and migrated in one transaction under
 * an advisory lock (processes opening a new store at once migrate it once), refused when
 * newer than this decidekit or when the database holds another program's tables of the
 * same names (left unchanged either way).
 */
import { benchOnStoreCommand } from '../../core/command-hints.js';
import { DecidekitError } from '../../core/errors.js';
import type { PgConnection } from './connection.js';
import {
  MIGRATION_LOCK,
  MIGRATIONS,
  POSTGRES_READABLE_IN_PLACE_FROM,
  POSTGRES_SCHEMA_VERSION,
  STORE_TABLES,
} from './schema.js';

/** The version the store is at, or null when it has no `schema_version` table yet. */
function versionOf(conn: PgConnection): number | null {
  const table = conn.row<{ t: string | null }>("SELECT to_regclass('schema_version')::text AS t")!.t;
  if (table === null) return null;
  return conn.row<{ version: number }>('SELECT max(version) AS version FROM schema_version')?.version ?? 0;
}

function refuseNewer(conn: PgConnection, version: number): void {
  if (version > POSTGRES_SCHEMA_VERSION)
    throw new DecidekitError(
      'store_too_new',
      `cannot open run store: ${conn.path} has schema version ${version}, this decidekit reads up to ${POSTGRES_SCHEMA_VERSION} (upgrade decidekit; the database was not changed)`,
      { context: { path: conn.path, version, supported: POSTGRES_SCHEMA_VERSION } },
    );
}

function refuseForeign(conn: PgConnection): void {
  const taken = conn
    .rows<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1::text[])',
      [STORE_TABLES],
    )
    .map((r) => r.name);
  if (taken.length > 0)
    throw new DecidekitError(
      'store_foreign',
      `cannot open run store: the database of ${conn.path} has tables named ${taken.join(', ')} but is not a decidekit run store (nothing was changed; name another database in the store URL)`,
      { context: { path: conn.path } },
    );
}

/** Creates or migrates the schema to this decidekit's version. */
export function migratePostgres(conn: PgConnection): void {
  const current = versionOf(conn);
  if (current !== null) refuseNewer(conn, current);
  if (current === POSTGRES_SCHEMA_VERSION) return;
  conn.writing(null, () =>
    conn.transaction('write', () => {
      conn.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      // Read again under the lock: another process may have migrated meanwhile.
      let from = versionOf(conn);
      if (from === null) {
        refuseForeign(conn);
        conn.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
        conn.query('INSERT INTO schema_version (version) VALUES (0)');
        from = 0;
      }
      refuseNewer(conn, from);
      for (let v = from; v < POSTGRES_SCHEMA_VERSION; v++) conn.query(MIGRATIONS[v]!);
      conn.query('UPDATE schema_version SET version = $1', [POSTGRES_SCHEMA_VERSION]);
    }),
  );
}

/**
 * A store opened without migrating must exist at a version this decidekit reads; a database
 * holding another program's tables of the same names is refused as foreign, not called empty.
 */
export function refuseUnreadableSchema(conn: PgConnection, readOnly: boolean): void {
  const version = versionOf(conn);
  if (version === null) refuseForeign(conn);
  if (version === null || version === 0)
    throw new DecidekitError(
      'store_missing',
      `no run store in ${conn.path} yet (runs are saved there by '${benchOnStoreCommand(conn.path)}')`,
      { context: { path: conn.path } },
    );
  refuseNewer(conn, version);
  if (version < POSTGRES_SCHEMA_VERSION) {
    // What a newer version only added is read as absent, without writing.
    if (readOnly && version >= POSTGRES_READABLE_IN_PLACE_FROM) return;
    if (readOnly)
      throw new DecidekitError(
        'store_needs_upgrade',
        `cannot read run store ${conn.path} without writing to it: it has schema version ${version}, this decidekit reads version ${POSTGRES_SCHEMA_VERSION} (the first command that writes to it upgrades it, e.g. ${benchOnStoreCommand(conn.path)}; the database was not changed)`,
        { context: { path: conn.path, version, current: POSTGRES_SCHEMA_VERSION } },
      );
    migratePostgres(conn);
  }
}
