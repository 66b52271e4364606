/** Record ids in SQLite: fresh ones drawn again on a clash, and the ids of a kind starting with a string. */
import type Database from 'better-sqlite3';
import { RECORD_TABLES, type IdsStartingWith } from '../record-kind.js';
import { insertWithFreshId as insertFresh } from '../fresh-id.js';

/** Inserts a record under a fresh `PREFIX-` id, drawing another when the primary key says the id is taken. */
export function insertWithFreshId(
  prefix: string,
  createdAt: string,
  randomBytes: (n: number) => Uint8Array,
  insert: (id: string) => void,
): string {
  return insertFresh(
    prefix,
    createdAt,
    randomBytes,
    insert,
    (err) => (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  );
}

/** `IdsStartingWith` over the store's three tables, one prepared statement per kind and limit. */
export function idsStartingWithIn(db: Database.Database): IdsStartingWith {
  const prepared = new Map<string, Database.Statement>();
  return (kind, prefix, limit) => {
    const key = `${kind}:${limit}`;
    let statement = prepared.get(key);
    if (statement === undefined) {
      statement = db.prepare(
        `SELECT id FROM ${RECORD_TABLES[kind]} WHERE substr(id, 1, length(@p)) = @p ORDER BY id LIMIT ${Math.floor(limit)}`,
      );
      prepared.set(key, statement);
    }
    return (statement.all({ p: prefix }) as { id: string }[]).map((r) => r.id);
  };
}
