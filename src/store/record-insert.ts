import { DecidekitError } from '../core/errors.js';
import { createRunId } from './run-id.js';

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
