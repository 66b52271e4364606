/**
 * `score` (in process) against `score --engine duckdb` on large offline files: wall time,
 * CPU and peak RSS at 1,000,000 and 10,000,000 decisions (the same seeded files as
 * offline-score.bench.ts, generated once into os.tmpdir()). Also checks, outside the timing,
 * that both engines print the same numbers to 1e-9.
 *
 *   npm run build && npx tsx bench/offline-engines.bench.ts [--runs N] [--cases 1000000,10000000]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HAS_TIME, measure, warmOfflineFiles, type Measured } from './offline-data.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, cases: { type: 'string', default: '1000000,10000000' } },
});
const RUNS = Number(values.runs);
const SIZES = values.cases.split(',').map(Number);
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

function scoreArgs(dataset: string, results: string, engine: string): string[] {
  return [CLI, 'score', '--dataset', dataset, '--results', results, '--json', '--engine', engine];
}

/** Runs once outside the timing and returns the JSON summary (or the failure). */
function summaryOf(args: readonly string[]): Record<string, unknown> | string {
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  return r.status === 0
    ? (JSON.parse(r.stdout) as Record<string, unknown>)
    : `exit ${r.status}: ${r.stderr.slice(-300)}`;
}

function largestDifference(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) / Math.max(1, Math.abs(b));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object')
    return Math.max(
      0,
      ...Object.keys(b).map((k) =>
        largestDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      ),
    );
  return a === b ? 0 : Infinity;
}

const lines: string[] = [
  `Command: \`npx tsx bench/offline-engines.bench.ts --runs ${RUNS} --cases ${values.cases}\` (after \`npm run build\`)`,
  machineLine(HAS_TIME),
  `Load average before: ${oneMinuteLoad()}`,
  '',
  '| decisions | engine | median wall (s) | median CPU user+sys (s) | peak RSS (MB) | runs (s) |',
  '|---:|---|---:|---:|---:|---|',
];
const notes: string[] = [];
for (const cases of SIZES) {
  const { files, size } = warmOfflineFiles(cases);
  const timed: Record<string, { seconds: number; cpu: number; rss: number } | string> = {};
  for (const engine of ['node', 'duckdb']) {
    const all: Measured[] = [];
    try {
      for (let i = 0; i < RUNS; i++)
        all.push(measure(process.execPath, scoreArgs(files.dataset, files.results, engine)));
    } catch (err) {
      timed[engine] = String(err).slice(0, 300);
      lines.push(
        `| ${cases.toLocaleString('en-US')} | ${engine} | failed | | | ${String(err).split('\n')[0]!.slice(0, 120)} |`,
      );
      continue;
    }
    const seconds = median(all.map((m) => m.seconds));
    const cpu = median(all.map((m) => m.cpuSeconds));
    const rss = Math.max(...all.map((m) => m.maxRssMb));
    timed[engine] = { seconds, cpu, rss };
    lines.push(
      `| ${cases.toLocaleString('en-US')} | ${engine} | ${seconds.toFixed(2)} | ${cpu.toFixed(2)} | ${rss.toFixed(0)} | ${all.map((m) => m.seconds.toFixed(2)).join(', ')} |`,
    );
  }
  const node = timed['node'];
  const duck = timed['duckdb'];
  const ratio =
    typeof node === 'object' && typeof duck === 'object'
      ? `; duckdb / node: wall ${(duck.seconds / node.seconds).toFixed(2)}x, peak RSS ${(duck.rss / node.rss).toFixed(2)}x`
      : '';
  const a = summaryOf(scoreArgs(files.dataset, files.results, 'node'));
  const b = summaryOf(scoreArgs(files.dataset, files.results, 'duckdb'));
  const agreement =
    typeof a === 'object' && typeof b === 'object'
      ? `largest relative difference between the engines' numbers ${largestDifference(b, a).toExponential(1)}`
      : `engines not compared (${typeof a === 'string' ? `node ${a}` : ''}${typeof b === 'string' ? ` duckdb ${b}` : ''})`;
  notes.push(`- ${cases.toLocaleString('en-US')} decisions (${size})${ratio}; ${agreement}.`);
}
lines.push('', ...notes, '', `Load average after: ${oneMinuteLoad()}`);
process.stdout.write(`${lines.join('\n')}\n`);
