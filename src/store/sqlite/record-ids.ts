/** Record ids in SQLite: fresh ones drawn again on a clash, and the ids of a kind starting with a string. */
import type Database from 'better-sqlite3';
import type { IdsStartingWith, RecordKind } from '../record-kind.js';
import { createRunId } from '../run-id.js';

/**
 * Inserts a record under a fresh `PREFIX-` run id, drawing another when the id is taken
 * (two records created in the same second), and returns the id.
 */
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
      if (attempt < 5 && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') continue;
      throw err;
    }
  }
}

const TABLES: Record<RecordKind, string> = { run: 'runs', audit: 'audits', probe: 'probes' };

/** `IdsStartingWith` over the store's three tables, one prepared statement per kind and limit. */
export function idsStartingWithIn(db: Database.Database): IdsStartingWith {
  const prepared = new Map<string, Database.Statement>();
  return (kind, prefix, limit) => {
    const key = `${kind}:${limit}`;
    let statement = prepared.get(key);
    if (statement === undefined) {
      statement = db.prepare(
        `SELECT id FROM ${TABLES[kind]} WHERE substr(id, 1, length(@p)) = @p ORDER BY id LIMIT ${Math.floor(limit)}`,
      );
      prepared.set(key, statement);
    }
    return (statement.all({ p: prefix }) as { id: string }[]).map((r) => r.id);
  };
}
