/** Record ids in PostgreSQL: fresh ones drawn again on a clash, and the ids of a kind starting with a string. */
import { RECORD_TABLES, type IdsStartingWith } from '../record-kind.js';
import { insertWithFreshId as insertFresh } from '../fresh-id.js';
import { UNIQUE_VIOLATION, type PgConnection } from './connection.js';
import { PgQueryError } from './sync-client.js';

/** Inserts a record under a fresh `PREFIX-` id, drawing another when the unique key says the id is taken. */
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
    (err) => err instanceof PgQueryError && err.code === UNIQUE_VIOLATION,
  );
}

/** `IdsStartingWith` over the store's three tables: prefixes match characters, never patterns. */
export function idsStartingWithIn(conn: PgConnection): IdsStartingWith {
  return (kind, prefix, limit) =>
    conn
      .rows<{ id: string }>(
        `SELECT id FROM ${RECORD_TABLES[kind]} WHERE left(id, length($1)) = $1 ORDER BY id COLLATE "C" LIMIT ${Math.floor(limit)}`,
        [prefix],
      )
      .map((r) => r.id);
}
