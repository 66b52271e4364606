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
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSeededRandom } from '../src/core/seeded-random.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, cases: { type: 'string', default: '1000000' } },
});
const RUNS = Number(values.runs);
const CASES = Number(values.cases);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const DIR = join(tmpdir(), `decidekit-bench-offline-${CASES}-v1`);
const DATASET = join(DIR, 'dataset.jsonl');
const RESULTS = join(DIR, 'results.jsonl');

const OPTION_SETS = [
  ['allow', 'flag', 'remove'],
  ['none', 'spam', 'harassment', 'hate', 'self_harm'],
  ['billing', 'shipping', 'returns', 'technical'],
];
const PROMPTS = [
  'Does this post violate the threats policy?',
  'Is this message spam?',
  'Pick an action for this comment',
  'Which category fits this ticket best?',
  'Rate the severity from 0 to 10',
];

/** Writes both files in blocks through a temp name, so an interrupted run is not reused. */
function generate(): void {
  mkdirSync(DIR, { recursive: true });
  const rnd = createSeededRandom(7);
  const d = openSync(`${DATASET}.tmp`, 'w');
  const r = openSync(`${RESULTS}.tmp`, 'w');
  let dBlock: string[] = [];
  let rBlock: string[] = [];
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  for (let i = 0; i < CASES; i++) {
    const id = `case-${String(i).padStart(7, '0')}`;
    const roll = rnd();
    const prompt = PROMPTS[i % PROMPTS.length]!;
    let decision: Record<string, unknown>;
    if (roll < 0.4) {
      const correct = rnd() < 0.4;
      dBlock.push(JSON.stringify({ id, kind: 'yes_no', prompt, correct }));
      decision = { probability: r3(correct ? 0.3 + 0.7 * rnd() : 0.7 * rnd()) };
    } else if (roll < 0.8) {
      const options = OPTION_SETS[i % OPTION_SETS.length]!;
      const correct = options[Math.floor(rnd() * options.length)]!;
      dBlock.push(JSON.stringify({ id, kind: 'choice', prompt, options, correct }));
      const weights = options.map((o) => (o === correct ? 2 : 0.2) + rnd());
      const total = weights.reduce((a, b) => a + b, 0);
      const probs = weights.map((w) => r3(w / total));
      probs[0] = r3(1 - probs.slice(1).reduce((a, b) => a + b, 0));
      // Half the lines give an object keyed by option with a picked option, half a list.
      if (i % 2 === 0)
        decision = {
          picked: options[probs.indexOf(Math.max(...probs))],
          probabilities: Object.fromEntries(options.map((o, k) => [o, probs[k]])),
        };
      else decision = { probabilities: probs };
    } else {
      const correct = Math.round(rnd() * 10);
      dBlock.push(JSON.stringify({ id, kind: 'score', prompt, score_min: 0, score_max: 10, correct }));
      decision = {
        value: Math.min(10, Math.max(0, Math.round((correct + (rnd() - 0.5) * 4) * 10) / 10)),
        confidence: r3(0.5 + rnd() / 2),
      };
    }
    rBlock.push(
      JSON.stringify({
        case_id: id,
        model: 'bench-model-large-2026-01',
        decision,
        cost_usd: Math.round(rnd() * 5e6) / 1e9,
        latency_ms: 200 + Math.round(rnd() * 1800),
      }),
    );
    if (dBlock.length === 10_000) {
      writeSync(d, `${dBlock.join('\n')}\n`);
      writeSync(r, `${rBlock.join('\n')}\n`);
      dBlock = [];
      rBlock = [];
    }
  }
  if (dBlock.length > 0) {
    writeSync(d, `${dBlock.join('\n')}\n`);
    writeSync(r, `${rBlock.join('\n')}\n`);
  }
  closeSync(d);
  closeSync(r);
  renameSync(`${DATASET}.tmp`, DATASET);
  renameSync(`${RESULTS}.tmp`, RESULTS);
}

interface Measured {
  readonly seconds: number;
  readonly maxRssMb: number;
  /** User + system CPU seconds: steadier than wall time on a shared machine. NaN when unknown. */
  readonly cpuSeconds: number;
}

const HAS_TIME = existsSync('/usr/bin/time');

/** Wall time and peak RSS of one child process (via /usr/bin/time -v, else resourceUsage). */
function measure(cmd: string, args: readonly string[]): Measured {
  if (HAS_TIME) {
    const r = spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr);
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    if (!wall || !rss) throw new Error(`cannot parse /usr/bin/time output:\n${r.stderr.slice(-1000)}`);
    const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
    const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
    const sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
    return {
      seconds,
      maxRssMb: Number(rss[1]) / 1024,
      cpuSeconds: user && sys ? Number(user[1]) + Number(sys[1]) : NaN,
    };
  }
  const wrapper = `const {spawnSync}=require('node:child_process');const t=process.hrtime.bigint();const r=spawnSync(process.argv[1],process.argv.slice(2),{stdio:'ignore'});if(r.status!==0)process.exit(1);const s=Number(process.hrtime.bigint()-t)/1e9;process.stdout.write(JSON.stringify({s,rss:process.resourceUsage().maxRSS}));`;
  const r = spawnSync(process.execPath, ['-e', wrapper, cmd, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed`);
  // maxRSS of resourceUsage covers the wrapper and (on Linux, RUSAGE_CHILDREN not included) is a lower bound.
  const o = JSON.parse(r.stdout) as { s: number; rss: number };
  return { seconds: o.s, maxRssMb: o.rss / 1024, cpuSeconds: NaN };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

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

if (!existsSync(DATASET) || !existsSync(RESULTS)) {
  process.stderr.write(`generating ${CASES} cases into ${DIR} ...\n`);
  generate();
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

/** The 1-minute load average: other work on the machine inflates wall times. */
function readLoad(): string {
  return existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ')[0]! : 'n/a';
}
const loadBefore = readLoad();

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
  `Median of ${RUNS} runs; peak RSS is the highest of the runs (${HAS_TIME ? '/usr/bin/time -v' : 'process.resourceUsage'}). Load average before / after: ${loadBefore} / ${readLoad()}.`,
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
  `Target: score with intervals < 2x without (#14): ${score.seconds < 2 * noCi.seconds ? 'met' : 'MISSED'} (wall ${(score.seconds / noCi.seconds).toFixed(2)}x, CPU ${(score.cpuSeconds / noCi.cpuSeconds).toFixed(2)}x).`,
];
process.stdout.write(`${lines.join('\n')}\n`);
