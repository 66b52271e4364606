/**
 * Speed and memory of `decidekit score` on a large file: 1,000,000 mixed cases and one
 * model's results (~200 MB of JSON), with full validation. Compared in the same run with
 * two baselines that only read the same bytes: `wc -l` and node's readline counting lines.
 *
 *   npm run build && npx tsx bench/offline-score.bench.ts [--runs N] [--cases N]
 *
 * The files are generated once into os.tmpdir() and reused (deterministic, seeded).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HAS_TIME, measure, offlineDataFiles } from './offline-data.js';
import { median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, cases: { type: 'string', default: '1000000' } },
});
const RUNS = Number(values.runs);
const CASES = Number(values.cases);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const { dir: DIR, dataset: DATASET, results: RESULTS } = offlineDataFiles(CASES);

function run(
  label: string,
  cmd: string,
  args: readonly string[],
): { label: string; seconds: number; cpuSeconds: number; maxRssMb: number; all: number[] } {
  const all: number[] = [];
  const cpu: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const m = measure(cmd, args);
    all.push(m.seconds);
    cpu.push(m.cpuSeconds);
    rss.push(m.maxRssMb);
  }
  return { label, seconds: median(all), cpuSeconds: median(cpu), maxRssMb: Math.max(...rss), all };
}

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
const mb = (p: string) => statSync(p).size / 1e6;

const readlineScript =
  "const fs=require('node:fs'),rl=require('node:readline');(async()=>{let n=0;for(const f of process.argv.slice(1)){for await(const l of rl.createInterface({input:fs.createReadStream(f),crlfDelay:Infinity}))n++;}process.stdout.write(String(n)+'\\n');})()";
const naiveScript =
  "const fs=require('node:fs'),rl=require('node:readline');(async()=>{let n=0;for(const f of process.argv.slice(1)){for await(const l of rl.createInterface({input:fs.createReadStream(f),crlfDelay:Infinity}))if(l)n+=JSON.parse(l)?1:0;}process.stdout.write(String(n)+'\\n');})()";

/** What `score` does once its command starts the results read before loading the dataset. */
const prefetchScript = [
  `import { loadOfflineDataset } from ${JSON.stringify(join(ROOT, 'dist', 'datasets', 'offline', 'dataset.js'))};`,
  `import { prefetchResults, scoreResults } from ${JSON.stringify(join(ROOT, 'dist', 'datasets', 'offline', 'results.js'))};`,
  `import { renderScoreJson } from ${JSON.stringify(join(ROOT, 'dist', 'reports', 'offline', 'score-json.js'))};`,
  'const [d, r] = process.argv.slice(2);',
  'const prefetched = prefetchResults(r);',
  'const ds = await loadOfflineDataset(d);',
  'const s = await scoreResults(r, ds, {}, { prefetched });',
  'process.stdout.write(renderScoreJson({ datasetPath: d, resultsPath: r, model: s.model, summary: s.summary }));',
].join('\n');
const PREFETCH_SCRIPT = join(DIR, 'score-prefetch.mjs');
writeFileSync(PREFETCH_SCRIPT, prefetchScript);

const loadBefore = oneMinuteLoad();

// One warm-up so the page cache holds both files for every measured run.
spawnSync('cat', [DATASET, RESULTS], { stdio: 'ignore' });
const rows = [
  run('wc -l (both files)', 'wc', ['-l', DATASET, RESULTS]),
  run('node readline, count lines (both files)', process.execPath, ['-e', readlineScript, DATASET, RESULTS]),
  run('node readline + JSON.parse (both files)', process.execPath, ['-e', naiveScript, DATASET, RESULTS]),
  run('decidekit score (full validation, 95% intervals and ECE noise floor)', process.execPath, [
    CLI,
    'score',
    '--dataset',
    DATASET,
    '--results',
    RESULTS,
    '--json',
  ]),
  run('library: prefetchResults, then load dataset + scoreResults (both files parsed at once)', process.execPath, [
    PREFETCH_SCRIPT,
    DATASET,
    RESULTS,
  ]),
  run('decidekit score --no-ci (full validation, no intervals)', process.execPath, [
    CLI,
    'score',
    '--dataset',
    DATASET,
    '--results',
    RESULTS,
    '--json',
    '--no-ci',
  ]),
];
const noCi = rows[5]!;
const score = rows[3]!;
const naive = rows[2]!;
const readline = rows[1]!;

const cpu = cpus()[0]?.model ?? 'unknown';
const lines = [
  `Command: \`npx tsx bench/offline-score.bench.ts --runs ${RUNS} --cases ${CASES}\` (after \`npm run build\`)`,
  `Machine: ${cpus().length} CPUs (nproc), ${cpu}, node ${process.version}`,
  `Files: dataset ${mb(DATASET).toFixed(0)} MB, results ${mb(RESULTS).toFixed(0)} MB (${CASES.toLocaleString('en-US')} cases each, 40% yes_no, 40% choice, 20% score), page cache warm`,
  `Median of ${RUNS} runs; peak RSS is the highest of the runs (${HAS_TIME ? '/usr/bin/time -v' : 'process.resourceUsage'}). Load average before / after: ${loadBefore} / ${oneMinuteLoad()}.`,
  '',
  '| what | median wall (s) | vs readline | median CPU user+sys (s) | peak RSS (MB) | runs (s) |',
  '|---|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.seconds.toFixed(2)} | ${(r.seconds / readline.seconds).toFixed(2)}x | ${Number.isNaN(r.cpuSeconds) ? 'n/a' : r.cpuSeconds.toFixed(2)} | ${r.maxRssMb.toFixed(0)} | ${r.all.map((s) => s.toFixed(2)).join(', ')} |`,
  ),
  '',
  `vs readline + JSON.parse: score ${(score.seconds / naive.seconds).toFixed(2)}x, prefetch ${(rows[4]!.seconds / naive.seconds).toFixed(2)}x (wall); score ${(score.cpuSeconds / naive.cpuSeconds).toFixed(2)}x (CPU).`,
  `Target: score --no-ci < 2.5 s and < 300 MB: ${noCi.seconds < 2.5 ? 'met' : 'MISSED'} (${noCi.seconds.toFixed(2)} s), ${noCi.maxRssMb < 300 ? 'met' : 'MISSED'} (${noCi.maxRssMb.toFixed(0)} MB).`,
  `Target: score with intervals < 2x without: ${score.seconds < 2 * noCi.seconds ? 'met' : 'MISSED'} (wall ${(score.seconds / noCi.seconds).toFixed(2)}x, CPU ${(score.cpuSeconds / noCi.cpuSeconds).toFixed(2)}x).`,
];
process.stdout.write(`${lines.join('\n')}\n`);
