/**
 * What intervals cost a benchmark report: a 2,000-decision run (the bundled sample's 100
 * cases four times over, 400 cases of 5 decisions, answered by a seeded random model) kept
 * in a real SQLite store, then re-reported with `decidekit report RUN` (the real CLI, in
 * process) with intervals (2,000 case-level bootstrap resamples and the 500-simulation ECE
 * noise floor) and with `--no-ci` as the baseline, interleaved in the same run. Also the
 * statistics alone (`analyzeRun` with and without intervals).
 *
 *   npx tsx bench/stats-intervals.bench.ts [--runs N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeRun } from '../src/app/bench/run-analysis.js';
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../src/core/typed-decisions/case-result.js';
import type { RunConfig } from '../src/core/bench/run.js';
import { answersOf } from '../src/core/question.js';
import { createSeededRandom } from '../src/core/seeded-random.js';
import { runCliInProcess } from '../src/cli/test-support/in-process-cli.js';
import { loadBenchDataset } from '../src/datasets/typed-decisions/load-bench-dataset.js';
import { openStore, summarizeRun } from '../src/store/index.js';
import { createRunConfig } from '../src/core/bench/test-support/run-fixtures.js';
import { median } from './measurements.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const RUNS = Number(values.runs);
const COPIES = 4;

const { cases: sample } = await loadBenchDataset({ kind: 'sample' });
const random = createSeededRandom(2026);
const cases: CaseResult[] = [];
const benchCases: TypedDecisionsCase[] = [];
for (let k = 0; k < COPIES; k++) {
  for (const c of sample) {
    const copy: TypedDecisionsCase = { ...c, id: `${c.id}-copy${k}` };
    benchCases.push(copy);
    const predicted = copy.questions.map(([, q], i) => {
      // Lean toward gold so accuracy is realistic, with noise.
      const raw = answersOf(q).map((_, j) => (copy.gold[i]!.probabilities[j] ?? 0) + random());
      const sum = raw.reduce((a, b) => a + b, 0);
      return raw.map((x) => x / sum);
    });
    cases.push(scoreCase(copy, { status: 'answered', latencyMs: 5, inputTokens: 500, predicted }));
  }
}
const decisions = cases.reduce((n, c) => n + c.decisions.length, 0);
const questionSet: Record<string, string> = {};
for (const c of benchCases) for (const [q] of c.questions) questionSet[`${c.workflow}/${q}`] = 'q0000000';
const config: RunConfig = createRunConfig({ toolVersion: 'bench', caseIds: cases.map((c) => c.caseId), questionSet });

const dir = mkdtempSync(join(tmpdir(), 'decidekit-bench-stats-'));
const storePath = join(dir, 'runs.sqlite');
const store = openStore(storePath, { synchronous: 'normal' });
const head = store.runs.create({ config, label: null, createdAt: new Date().toISOString() });
store.cases.save(head.id, cases);
store.runs.finish(head.id, { status: 'complete', durationMs: 1, summary: summarizeRun(config, cases) });
const run = store.runs.get(head.id)!;
store.close();

async function timeReport(extra: string[]): Promise<number> {
  const t0 = performance.now();
  const r = await runCliInProcess(['report', head.id, '--store', storePath, ...extra], { env: {} });
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(r.stderr);
  return ms;
}

function timeAnalyze(intervals: boolean): number {
  const t0 = performance.now();
  analyzeRun(run, {}, { intervals });
  return performance.now() - t0;
}

// Warm-up: module loading and JIT, for both paths.
await timeReport([]);
await timeReport(['--no-ci']);
const withCi: number[] = [];
const noCi: number[] = [];
const analyzeCi: number[] = [];
const analyzeNone: number[] = [];
for (let r = 0; r < RUNS; r++) {
  // Interleaved so that load changes on the shared machine hit both alike.
  withCi.push(await timeReport([]));
  noCi.push(await timeReport(['--no-ci']));
  analyzeCi.push(timeAnalyze(true));
  analyzeNone.push(timeAnalyze(false));
}
rmSync(dir, { recursive: true, force: true });

const f = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
console.log(`run: ${cases.length} cases, ${decisions} decisions; ${RUNS} interleaved repetitions, medians`);
console.log('');
console.log('| what | with intervals | --no-ci | added |');
console.log('|---|---|---|---|');
console.log(
  `| \`decidekit report RUN\` (in process, store read + render) | ${f(median(withCi))} | ${f(median(noCi))} | ${f(median(withCi) - median(noCi))} |`,
);
console.log(
  `| \`analyzeRun\` alone (bootstrap 2,000 × 5 metrics + ECE noise floor) | ${f(median(analyzeCi))} | ${f(median(analyzeNone))} | ${f(median(analyzeCi) - median(analyzeNone))} |`,
);
