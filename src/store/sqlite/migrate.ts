/**
 * The schema version of a SQLite store: refused when newer than this decidekit or not a
 * decidekit store (left unchanged), migrated when older, its tables checked when current.
 */
import type Database from 'better-sqlite3';
import { DecidekitError } from '../../core/errors.js';
import { StoreDamagedError } from '../store-errors.js';
import { APPLICATION_ID, MIGRATIONS, REQUIRED_TABLES, SCHEMA_VERSION } from './schema.js';
import { optionMention as option, words } from '../../core/message-words.js';

/**
 * The oldest schema version a read-only command reads in place: version 11 rebuilt the
 * cases and decisions tables in run order (`run-order-schema.ts`), which every read of a
 * run's rows uses; version 12 only added the listings kept with finished runs and version 13
 * the notes of replicas set aside (each read as none when absent). Older stores are read
 * from an upgraded copy.
 */
export const READABLE_IN_PLACE_FROM = 11;

/** True for a decidekit store too old to read in place (an unmarked file is not). */
export function olderThanCurrent(db: Database.Database): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
  const appId = db.pragma('application_id', { simple: true }) as number;
  return appId === APPLICATION_ID && version > 0 && version < READABLE_IN_PLACE_FROM;
}

/** A store at the current version with a table missing was damaged (or edited by hand). */
export function refuseMissingTables(db: Database.Database, path: string): void {
  const present = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
  if (missing.length > 0)
    throw new StoreDamagedError(path, `table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing`);
}

/** Reads only: a refused file must stay byte-for-byte as it was. */
export function refuseForeignOrNewerStore(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new DecidekitError(
      'store_too_new',
      `cannot open run store: ${path} has schema version ${version}, this decidekit reads up to ${SCHEMA_VERSION} (upgrade decidekit; the file was not changed)`,
      { context: { path, version, supported: SCHEMA_VERSION } },
    );
  }
  const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n;
  if (appId !== APPLICATION_ID && (appId !== 0 || objects > 0)) {
    throw new DecidekitError(
      'store_foreign',
      words`cannot open run store: ${path} is a SQLite database but not a decidekit run store (the file was not changed; pass ${option('storePath')} with another path)`,
      {
        context: { path },
      },
    );
  }
}

/** Runs the migrations from the database's version to this decidekit's, in one write transaction. */
export function migrate(db: Database.Database, path: string): void {
  const run = db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const from = db.pragma('user_version', { simple: true }) as number;
    if (from > SCHEMA_VERSION)
      throw new DecidekitError(
        'store_too_new',
        `cannot open run store: ${path} was upgraded by a newer decidekit while opening`,
      );
    for (let v = from; v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
  });
  if ((db.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) run.immediate();
}
