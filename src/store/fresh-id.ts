/** A record inserted under a fresh id, drawn again when the adapter says the id is taken. */
import { createRunId } from './run-id.js';

/**
 * Inserts a record under a fresh `PREFIX-` run id, drawing another when the id is taken
 * (two records created in the same second: `isClash` says so for the adapter's error), up to
 * five times, and returns the id.
 */
export function insertWithFreshId(
  prefix: string,
  createdAt: string,
  randomBytes: (n: number) => Uint8Array,
  insert: (id: string) => void,
  isClash: (err: unknown) => boolean,
): string {
  for (let attempt = 0; ; attempt++) {
    const id = `${prefix}-${createRunId(createdAt, randomBytes(2))}`;
    try {
      insert(id);
      return id;
    } catch (err) {
      if (attempt < 5 && isClash(err)) continue;
      throw err;
    }
  }
}
