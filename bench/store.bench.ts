/**
 * What durable checkpoints cost: saving a 400-case run (5 decisions a case, one committed
 * transaction per case) with `synchronous = FULL` (every commit fsyncs the write-ahead
 * log) against `synchronous = NORMAL` (the default since the scale work: a commit survives a
 * killed process, and the log is synced at least every 2 s and when a run ends) as the
 * baseline, in the same run. Also reading the run
 * back (`getRun`) and listing 200 runs.
 *
 *   npx tsx bench/store.bench.ts [--runs N] [--cases N]
 *
 * Files go to os.tmpdir(); their disk decides the fsync cost.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunConfig } from '../src/core/bench/run.js';
import { openStore, summarizeRun } from '../src/store/index.js';
import { createRunConfig } from '../src/core/bench/test-support/run-fixtures.js';
import { scoredCase } from './scored-case.js';
import { median } from './measurements.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, cases: { type: 'string', default: '400' } },
});
const RUNS = Number(values.runs);
const CASES = Number(values.cases);

const cases = Array.from({ length: CASES }, (_, i) => scoredCase(i, 6));
const config: RunConfig = createRunConfig({ toolVersion: 'bench', caseIds: cases.map((c) => c.caseId) });

function timeSave(synchronous: 'full' | 'normal'): { saveMs: number; readMs: number } {
  const dir = mkdtempSync(join(tmpdir(), 'decidekit-bench-store-'));
  try {
    const store = openStore(join(dir, 'runs.sqlite'), { synchronous });
    const head = store.runs.create({ config, label: null, createdAt: new Date().toISOString() });
    const t0 = performance.now();
    for (const c of cases) store.cases.save(head.id, [c]);
    const saveMs = performance.now() - t0;
    store.runs.finish(head.id, { status: 'complete', durationMs: 1, summary: summarizeRun(config, cases) });
    const t1 = performance.now();
    const run = store.runs.get(head.id)!;
    const readMs = performance.now() - t1;
    if (run.cases.length !== CASES) throw new Error('lost cases');
    store.close();
    return { saveMs, readMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function timeList(): number {
  const dir = mkdtempSync(join(tmpdir(), 'decidekit-bench-store-'));
  try {
    const store = openStore(join(dir, 'runs.sqlite'), { synchronous: 'normal' });
    const summary = summarizeRun(config, cases);
    for (let i = 0; i < 200; i++) {
      const head = store.runs.create({
        config,
        label: `run ${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      });
      store.runs.finish(head.id, { status: 'complete', durationMs: 1, summary });
    }
    const t0 = performance.now();
    const n = store.runs.list().length;
    const ms = performance.now() - t0;
    if (n !== 200) throw new Error('lost runs');
    store.close();
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const full: { saveMs: number; readMs: number }[] = [];
const normal: { saveMs: number; readMs: number }[] = [];
const list: number[] = [];
timeSave('normal'); // warm-up
for (let r = 0; r < RUNS; r++) {
  // Interleaved so that disk and load changes hit both settings alike.
  full.push(timeSave('full'));
  normal.push(timeSave('normal'));
  list.push(timeList());
}

const fullSave = median(full.map((x) => x.saveMs));
const normalSave = median(normal.map((x) => x.saveMs));
const read = median([...full, ...normal].map((x) => x.readMs));
const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
const f = (x: number, d = 1) => x.toFixed(d);

process.stdout.write(`Command: \`npx tsx bench/store.bench.ts --runs ${RUNS} --cases ${CASES}\`
Machine: ${cpus().length} CPUs (nproc), ${cpu}, Node ${process.version}; files in ${tmpdir()}. Medians of ${RUNS} runs.

| what | median | per case | ratio |
|---|---:|---:|---:|
| save ${CASES} cases, synchronous=NORMAL (default; synced every 2 s) | ${f(normalSave)} ms | ${f((normalSave / CASES) * 1000, 0)} µs | 1.00 |
| save ${CASES} cases, synchronous=FULL (every commit synced) | ${f(fullSave)} ms | ${f((fullSave / CASES) * 1000, 0)} µs | ${f(fullSave / normalSave, 2)} |
| getRun of ${CASES} cases (${CASES * 5} decisions) | ${f(read)} ms | | |
| listRuns of 200 runs | ${f(median(list), 2)} ms | | |
`);
