import { DecidekitError } from '../core/errors.js';
import type Database from 'better-sqlite3';
import { refuseIdOfOtherKind, type AskedBy } from './record-kind.js';
import { createRunId } from './run-id.js';
import { UnknownRunError } from './sqlite-run-store.js';

/**
 * Refuses an endpoint identity whose host or path could carry a secret (credentials, query,
 * fragment); `message` says what could not be stored and never repeats the value.
 */
export function refuseEndpointSecrets(e: { readonly host: string; readonly path: string }, message: string): void {
  if (e.host === '' || /[@/?#\s]/.test(e.host) || /[?#\s]/.test(e.path))
    throw new DecidekitError('invalid_run', message);
}

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

/**
 * The one `PREFIX-` record id that `given` names: the id itself, else the only id starting
 * with it (tried with the prefix added when it lacks it). `startingWith` lists the ids that
 * start with a string, in id order, at most 6. An id of another kind of record in the store
 * (`db`) is named as such.
 */
export function resolveRecordId(
  prefix: 'audit' | 'probe',
  given: string,
  store: { readonly db: Database.Database; readonly path: string; readonly askedBy?: AskedBy | undefined },
  startingWith: (p: string) => readonly string[],
): string {
  for (const p of given.startsWith(`${prefix}-`) ? [given] : [given, `${prefix}-${given}`]) {
    const ids = startingWith(p);
    // The id itself sorts before every longer id it starts.
    if (ids[0] === p) return p;
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1)
      throw new DecidekitError(
        'ambiguous_run',
        `${prefix} id ${JSON.stringify(given)} matches ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''} (give more of the id)`,
        { context: { prefix: given } },
      );
  }
  refuseIdOfOtherKind(store.db, store.path, given, prefix, store.askedBy);
  throw new UnknownRunError(`no ${prefix} ${JSON.stringify(given)} in ${store.path} (see 'decidekit runs list')`, {
    prefix: given,
  });
}
