/**
 * Child process of the PostgreSQL concurrency test: waits for a shared start time, then
 * creates a run whose first id draw is the same in every process (the unique key decides),
 * saves N cases to it and to a run shared by every process (its own slice of the shared
 * run's cases, one at a time, reading the run between saves), and finishes its own run.
 * Prints its run id, or the error's code and message.
 * Usage: node --import tsx save-concurrently-pg.ts URL N START_EPOCH_MS LABEL SHARED_RUN SLICE SLICES
 */
import { randomBytes } from 'node:crypto';
import { writeSync } from 'node:fs';
import { DecidekitError } from '../../core/errors.js';
import { openStore } from '../open-store.js';
import { summarizeRun } from '../run-summary.js';
import { answeredCase, failedCase, rightAnswers, runConfig } from './run-fixtures.js';

const [url, countText, startText, label, shared, sliceText, slicesText] = process.argv.slice(2);
const count = Number(countText);
const caseIds = Array.from({ length: count }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);
const config = runConfig({ caseIds });
const caseOf = (id: string, i: number) =>
  i % 5 === 4 ? failedCase(id, 50) : answeredCase(id, rightAnswers(i), 10 + i);

while (Date.now() < Number(startText)) {
  // Spin until the shared start: the point is to collide with the other processes.
}
try {
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
  writeSync(1, `${head.id}\n`);
} catch (err) {
  const code = err instanceof DecidekitError ? err.code : 'crash';
  writeSync(1, `error ${code}: ${err instanceof Error ? err.message : String(err)}\n`);
}
