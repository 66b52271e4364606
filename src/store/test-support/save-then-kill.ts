/**
 * Child process of the durability test: creates a run, saves N cases, prints the run id
 * and kills itself with SIGKILL (no exit handlers, no close, no checkpoint).
 * Usage: node --import tsx save-then-kill.ts DB_PATH N
 */
import { writeSync } from 'node:fs';
import { openSqliteStore } from '../sqlite/open-sqlite-store.js';
import { answeredCase, failedCase, rightAnswers, runConfig } from '../../core/bench/test-support/run-fixtures.js';

const [dbPath, countText] = process.argv.slice(2);
const count = Number(countText);
const caseIds = Array.from({ length: count + 3 }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);
const store = openSqliteStore(dbPath!);
const head = store.runs.create({
  config: runConfig({ caseIds }),
  label: 'killed',
  createdAt: '2026-11-30T04:15:12.000Z',
});
writeSync(1, `${head.id}\n`);
for (let i = 0; i < count; i++) {
  const id = caseIds[i]!;
  store.cases.save(head.id, [i % 3 === 2 ? failedCase(id, 10_000) : answeredCase(id, rightAnswers(i), 100 + i)]);
}
process.kill(process.pid, 'SIGKILL');
