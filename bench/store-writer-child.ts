/**
 * One side of `store-writer.bench.ts`, in its own process: saves `--cases` scored cases in
 * batches of `--batch` into a fresh store, through
 * - `--mode writer`: the writer as `bench --store` runs it, its compiled worker thread from
 *   `dist/` with the same heap limits, each packed batch posted once the one before is
 *   committed (the transfer to the thread included);
 * - `--mode writer-here`: the same code on this thread (`openRowWriter(...).saveRows`);
 * - `--mode floor`: a plain better-sqlite3 script writing the same rows, schema, indexes,
 *   pragmas and batches, values bound by position, a case's decisions in one statement (as
 *   the writer writes them), digests made before timing.
 * Everything before the first batch (making the cases, packing them, the floor's row arrays
 * and digests) is outside the timed part. Prints one JSON line: CPU (user + system of the
 * whole process, all threads) and wall of the saves, and of the first and last tenth.
 *
 *   npm run build && npx tsx bench/store-writer-child.ts --mode writer|writer-here|floor --cases N --batch B --store PATH
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { CaseResult } from '../src/core/typed-decisions/case-result.js';
import { createRunConfig } from '../src/core/bench/test-support/run-fixtures.js';
import { openStore } from '../src/store/index.js';
import { packedCaseDigest } from '../src/store/sqlite/case-digest.js';
import { packCaseBatch, transferables, type PackedCaseBatch } from '../src/store/sqlite/case-batch.js';
import {
  forEachPackedCase,
  packCaseRows,
  PACKED_CASE_VALUES,
  PACKED_DECISION_VALUES,
  type PackedCaseRows,
} from '../src/store/sqlite/case-rows.js';
import { openRowWriter } from '../src/store/sqlite/row-writer.js';
import { WRITER_HEAP } from '../src/store/writer/case-writer.js';
import type { FromWriter, ToWriter, WriterWorkerData } from '../src/store/writer/case-writer-messages.js';
import { scoredCase } from './scored-case.js';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'writer' },
    cases: { type: 'string', default: '20000' },
    batch: { type: 'string', default: '250' },
    store: { type: 'string' },
  },
});
const CASES = Number(values.cases);
const BATCH = Number(values.batch);
const path = values.store!;

/**
 * Case ids as the scale dataset makes them (`bench/make-scale-dataset.ts`): 100 base ids
 * repeated as `<id>~r<block>`, so a big run's keys land all over its indexes, as a real one's do.
 */
const idOf = (i: number) => `customer_service_${String(i % 100).padStart(3, '0')}~r${Math.floor(i / 100)}`;
const cases: CaseResult[] = Array.from({ length: CASES }, (_, i) => ({ ...scoredCase(i, 6), caseId: idOf(i) }));
const config = createRunConfig({ toolVersion: 'bench', caseIds: cases.map((c) => c.caseId) });
const setup = openStore(path);
const runId = setup.runs.create({ config, label: null, createdAt: new Date().toISOString() }).id;
setup.close();
// The floor's rows come from `packCaseRows`; the writer's batches are packed as `bench --store`
// packs them on its main thread, timed apart (`packCpuUs`).
const floorMode = values.mode === 'floor';
const batches: PackedCaseRows[] = [];
const writerBatches: PackedCaseBatch[] = [];
const p0 = process.cpuUsage();
for (let i = 0; i < CASES; i += BATCH)
  if (floorMode) batches.push(packCaseRows(cases.slice(i, i + BATCH)));
  else writerBatches.push(packCaseBatch(cases.slice(i, i + BATCH)));
const p1 = process.cpuUsage(p0);
const packCpuUs = floorMode ? 0 : p1.user + p1.system;
cases.length = 0;

/** Times each batch's save: CPU (user + system, the whole process) and wall, in µs. */
async function timed(save: (k: number) => void | Promise<void>): Promise<{ cpu: number[]; wall: number[] }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  const n = floorMode ? batches.length : writerBatches.length;
  for (let k = 0; k < n; k++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await save(k);
    const c = process.cpuUsage(c0);
    cpu.push(c.user + c.system);
    wall.push((performance.now() - w0) * 1000);
  }
  return { cpu, wall };
}

/**
 * The writer as `bench --store` runs it: its worker thread (the compiled one in `dist/`,
 * with the same heap limits), each batch posted once the one before is committed.
 */
async function writer() {
  const file = join(import.meta.dirname, '..', 'dist', 'store', 'writer', 'case-writer-worker.js');
  const data: WriterWorkerData = { path, options: {} };
  const worker = new Worker(file, { workerData: data, resourceLimits: WRITER_HEAP });
  let seq = 0;
  const post = (batch: PackedCaseBatch, k: number) =>
    new Promise<void>((resolve, reject) => {
      worker.once('message', (m: FromWriter) => (m.kind === 'saved' ? resolve() : reject(new Error(m.error.message))));
      const message: ToWriter = { kind: 'save', seq: seq++, runId, batch, durationMs: k };
      worker.postMessage(message, transferables(batch));
    });
  try {
    // An empty batch first: the thread's start and its connection are not the saves' cost.
    await post(packCaseBatch([]), 0);
    return await timed((k) => post(writerBatches[k]!, k));
  } finally {
    worker.postMessage({ kind: 'close' } satisfies ToWriter);
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}

/** The writer's code on this thread (what the worker runs for each batch, without the transfer). */
async function writerHere() {
  const w = openRowWriter(path);
  try {
    return await timed((k) => w.saveBatch(runId, writerBatches[k]!, { durationMs: k }));
  } finally {
    w.close();
  }
}

async function floor() {
  const positions = new Map(config.caseIds.map((id, i) => [id, i]));
  // A plain script's rows: arrays in column order, the digest already made.
  const rows = batches.map((p) => {
    const batch: { caseValues: unknown[]; decisionValues: unknown[]; count: number }[] = [];
    forEachPackedCase(p, (at, count) => {
      const caseId = p[at] as string;
      const position = positions.get(caseId)!;
      const caseValues = [runId, ...p.slice(at, at + PACKED_CASE_VALUES - 1), position];
      caseValues.push(packedCaseDigest(runId, p, at, count));
      // Every decision of the case in one row list: one statement a case, as the writer does.
      const decisionValues: unknown[] = [];
      for (let d = 0; d < count; d++) {
        const k = at + PACKED_CASE_VALUES + d * PACKED_DECISION_VALUES;
        decisionValues.push(runId, caseId, position, d, ...p.slice(k, k + PACKED_DECISION_VALUES));
      }
      batch.push({ caseValues, decisionValues, count });
    });
    return batch;
  });
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -2000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const insertCase = db.prepare(
    'INSERT INTO cases (run_id, case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, replica, position, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const row = `(${Array.from({ length: 18 }, () => '?').join(', ')})`;
  const insertDecisions = new Map<number, Database.Statement>();
  const insertDecisionsOf = (count: number) => {
    let statement = insertDecisions.get(count);
    if (statement === undefined)
      insertDecisions.set(
        count,
        (statement = db.prepare(
          `INSERT INTO decisions (run_id, case_id, case_position, position, question_id, type, answers_json, gold_label, gold_probabilities_json, status, predicted, correct, confidence, kl, brier, probabilities_json, error_kind, error_message) VALUES ${Array.from({ length: count }, () => row).join(', ')}`,
        )),
      );
    return statement;
  };
  const duration = db.prepare('UPDATE runs SET duration_ms = ? WHERE id = ?');
  const save = db.transaction((k: number) => {
    for (const r of rows[k]!) {
      insertCase.run(r.caseValues);
      if (r.count > 0) insertDecisionsOf(r.count).run(...r.decisionValues);
    }
    duration.run(k, runId);
  });
  try {
    return await timed((k) => save.immediate(k));
  } finally {
    db.close();
  }
}

const t = await (values.mode === 'floor' ? floor() : values.mode === 'writer-here' ? writerHere() : writer());
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const tenth = Math.max(1, Math.floor(t.cpu.length / 10));
process.stdout.write(
  `${JSON.stringify({
    cpuUs: sum(t.cpu),
    wallUs: sum(t.wall),
    firstTenthCpuUs: sum(t.cpu.slice(0, tenth)),
    lastTenthCpuUs: sum(t.cpu.slice(-tenth)),
    tenthCases: tenth * BATCH,
    packCpuUs,
  })}\n`,
);
