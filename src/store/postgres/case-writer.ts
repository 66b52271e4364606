/**
 * The PostgreSQL store's case writer: batches committed on a connection of its own through
 * `pg`'s asynchronous client, on this thread (the driver's work is waiting on the socket),
 * one transaction a batch, in the order given, with the same statements as `cases.save`
 * (`save-cases.ts`). A batch's promise resolves once committed and rejects with the store's
 * own error when it was not; nothing of a rejected batch is kept.
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import { packCaseRows } from '../sqlite/case-rows.js';
import { StoreWriteError, UnknownRunError } from '../store-errors.js';
import type { CaseWriter } from '../store.js';
import type { SaveProgress } from '../stored-run.js';
import { serverFailureWords } from './connection.js';
import { saveCaseSteps } from './save-cases.js';
import { PgQueryError, type SyncPgConfig } from './sync-client.js';

/** Connects a writer to the store at `config` (shown as `path`). */
export async function startPgCaseWriter(config: SyncPgConfig, path: string): Promise<CaseWriter> {
  // Loaded here, not with the module: a command on a SQLite store never loads the driver.
  const { default: pg } = await import('pg');
  const client = new pg.Client(config);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new StoreWriteError(path, null, serverFailureWords(queryErrorOf(err)), err);
  }
  const unknownRun = (runId: string) =>
    new UnknownRunError(`unknown run: ${JSON.stringify(runId)} is not in ${path}`, { path, id: runId });
  let queue: Promise<unknown> = Promise.resolve();

  const commit = async (runId: string, results: readonly CaseResult[], progress: SaveProgress): Promise<void> => {
    const steps = saveCaseSteps(runId, packCaseRows(results), progress, unknownRun);
    try {
      await client.query('BEGIN');
      for (let step = steps.next(); step.done !== true;)
        step = steps.next(await client.query(step.value.sql, [...step.value.params]));
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (err instanceof DecidekitError) throw err;
      throw new StoreWriteError(path, runId, serverFailureWords(queryErrorOf(err)), err);
    }
  };

  return {
    save(runId, results, progress = {}) {
      const done = queue.then(() => commit(runId, results, progress));
      queue = done.catch(() => undefined);
      return done;
    },
    async close() {
      await queue;
      await client.end().catch(() => undefined);
    },
  };
}

function queryErrorOf(err: unknown): PgQueryError {
  const e = err as { message?: unknown; code?: unknown; constraint?: unknown };
  return new PgQueryError({
    message: typeof e.message === 'string' ? e.message : String(err),
    code: typeof e.code === 'string' ? e.code : null,
    constraint: typeof e.constraint === 'string' ? e.constraint : null,
  });
}
