/**
 * Child process of the concurrency test: waits for a shared start time, then creates a run
 * and saves N cases one small batch at a time (as `bench` does), reading the run between
 * batches, and finishes it. Prints the run id, or the error's code and message.
 * Usage: node --import tsx save-concurrently.ts DB_PATH N START_EPOCH_MS LABEL
 */
import { summarizeRun } from '../run-summary.js';
import { openSqliteStore } from '../sqlite/open-sqlite-store.js';
import { fixtureCase, fixtureCaseIds, runAtStart } from './concurrent-child.js';
import { runConfig } from './run-fixtures.js';

const [dbPath, countText, startText, label] = process.argv.slice(2);
const count = Number(countText);
const caseIds = fixtureCaseIds(count);
const config = runConfig({ caseIds });

runAtStart(Number(startText), () => {
  const store = openSqliteStore(dbPath!, { busyTimeoutMs: 20_000 });
  const head = store.runs.create({ config, label: label ?? null, createdAt: new Date().toISOString() });
  const saved = [];
  for (let i = 0; i < count; i += 2) {
    const batch = caseIds.slice(i, i + 2).map((id, j) => fixtureCase(id, i + j, 10 + i));
    store.cases.save(head.id, batch, { durationMs: i });
    saved.push(...batch);
    store.runs.head(head.id);
  }
  const summary = summarizeRun(config, saved);
  store.runs.finish(head.id, { status: summary.status, durationMs: count, summary });
  store.close();
  return head.id;
});
