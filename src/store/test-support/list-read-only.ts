/**
 * Child process of the read-only test (run as another user when the test runs as root, so
 * file permissions apply): opens the store read-only and prints each run's id and status,
 * or the error's code and message.
 * Usage: node --import tsx list-read-only.ts DB_PATH
 */
import { writeSync } from 'node:fs';
import { DecidekitError } from '../../core/errors.js';
import { openSqliteStore } from '../sqlite/open-sqlite-store.js';

try {
  const store = openSqliteStore(process.argv[2]!, { readOnly: true });
  for (const head of store.runs.list()) {
    const run = store.runs.get(head.id)!;
    writeSync(1, `${head.id} ${head.status} ${run.cases.length}\n`);
  }
  store.close();
} catch (err) {
  writeSync(
    1,
    `error ${err instanceof DecidekitError ? err.code : 'crash'}: ${err instanceof Error ? err.message : String(err)}\n`,
  );
}
