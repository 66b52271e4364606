/** Record ids in PostgreSQL: fresh ones drawn again on a clash, and the ids of a kind starting with a string. */
import type { IdsStartingWith, RecordKind } from '../record-kind.js';
import { createRunId } from '../run-id.js';
import { UNIQUE_VIOLATION, type PgConnection } from './connection.js';
import { PgQueryError } from './sync-client.js';

/** Inserts a record under a fresh `PREFIX-` id, drawing another when the id is taken, and returns the id. */
export function insertWithFreshId(
  prefix: string,
  createdAt: string,
  randomBytes: (n: number) => Uint8Array,
  insert: (id: string) => void,
): string {
  for (let attempt = 0; ; attempt++) {
    const id = `${prefix}-${createRunId(createdAt, randomBytes(2))}`;
    try {
      insert(id);
      return id;
    } catch (err) {
      if (attempt < 5 && err instanceof PgQueryError && err.code === UNIQUE_VIOLATION) continue;
      throw err;
    }
  }
}

const TABLES: Record<RecordKind, string> = { run: 'runs', audit: 'audits', probe: 'probes' };

/** `IdsStartingWith` over the store's three tables: prefixes match characters, never patterns. */
export function idsStartingWithIn(conn: PgConnection): IdsStartingWith {
  return (kind, prefix, limit) =>
    conn
      .rows<{ id: string }>(
        `SELECT id FROM ${TABLES[kind]} WHERE left(id, length($1)) = $1 ORDER BY id COLLATE "C" LIMIT ${Math.floor(limit)}`,
        [prefix],
      )
      .map((r) => r.id);
}
