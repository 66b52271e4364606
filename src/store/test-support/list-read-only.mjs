/**
 * Child process of the read-only test, run as another user when the test runs as root, so
 * that file permissions apply. It opens the store read-only and prints each run's id, status
 * and saved case count, or the error's code and message. It is plain JavaScript over the built
 * `dist/`, copied with better-sqlite3 into a folder any user can read: the other user may not
 * be able to read the clone at all (a clone in a private folder).
 * Usage: node list-read-only.mjs DB_PATH
 */
import { writeSync } from 'node:fs';
import { DecidekitError } from './dist/core/errors.js';
import { openSqliteStore } from './dist/store/sqlite/open-sqlite-store.js';

try {
  const store = openSqliteStore(process.argv[2], { readOnly: true });
  for (const head of store.runs.list()) {
    const run = store.runs.get(head.id);
    writeSync(1, `${head.id} ${head.status} ${run.cases.length}\n`);
  }
  store.close();
} catch (err) {
  writeSync(
    1,
    `error ${err instanceof DecidekitError ? err.code : 'crash'}: ${err instanceof Error ? err.message : String(err)}\n`,
  );
}
