/**
 * Child process of the PostgreSQL concurrency test: waits for a shared start time, then
 * creates a run whose first id draw is the same in every process (the unique key decides),
 * saves N cases to it and to a run shared by every process (its own slice of the shared
 * run's cases, one at a time, reading the run between saves), and finishes its own run.
 * Prints its run id, or the error's code and message.
 * Usage: node --import tsx save-concurrently-pg.ts URL N START_EPOCH_MS LABEL SHARED_RUN SLICE SLICES
 */
import { randomBytes } from 'node:crypto';
import { openStore } from '../open-store-with-postgres.js';
import { summarizeRun } from '../run-summary.js';
import { fixtureCase, fixtureCaseIds, runAtStart } from './concurrent-child.js';
import { runConfig } from './run-fixtures.js';

const [url, countText, startText, label, shared, sliceText, slicesText] = process.argv.slice(2);
const count = Number(countText);
const caseIds = fixtureCaseIds(count);
const config = runConfig({ caseIds });
const caseOf = (id: string, i: number) => fixtureCase(id, i, 10 + i);

runAtStart(Number(startText), () => {
  let draws = 0;
  const store = openStore(url!, { randomBytes: (n) => (draws++ === 0 ? new Uint8Array(n) : randomBytes(n)) });
  const head = store.runs.create({ config, label: label ?? null, createdAt: '2026-12-01T00:00:00.000Z' });
  const saved = [];
  for (let i = 0; i < count; i++) {
    const own = caseOf(caseIds[i]!, i);
    store.cases.save(head.id, [own], { durationMs: i });
    saved.push(own);
    if (i % Number(slicesText) === Number(sliceText)) {
      store.cases.save(shared!, [caseOf(caseIds[i]!, i)]);
      store.runs.head(shared!);
    }
  }
  const summary = summarizeRun(config, saved);
  store.runs.finish(head.id, { status: summary.status, durationMs: count, summary });
  store.close();
  return head.id;
});
