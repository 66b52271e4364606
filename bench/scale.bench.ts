/**
 * Scale: `bench` at 20,000 and 100,000 cases,
 * `--parallel 32` against the embedded reference server (zero latency), with `--no-store`
 * (the baseline), `--store` and `--store --json`: wall time and peak RSS of the whole CLI
 * process (`/usr/bin/time -f '%e %M'`), modes in rotating order, medians, store/no-store
 * ratios taken within each repetition. Then the store alone: the per-case cost of saving a
 * 10,000-case run against a 100,000-case run (and its last 10,000 cases), `runs list` over
 * 1,000 stored runs and `runs show` of the 100,000-case run (CLI wall, start-up included).
 *
 * The datasets are the bundled sample repeated with new ids (bench/make-scale-dataset.ts),
 * written into a temp dir and removed afterwards.
 *
 *   npm run build && npx tsx bench/scale.bench.ts [--sizes 20000,100000] [--reps 3] [--part cli|store|all]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CaseResult } from '../src/core/typed-decisions/case-result.js';
import { createRunConfig } from '../src/core/bench/test-support/run-fixtures.js';
import { openStore, summarizeRun } from '../src/store/index.js';
import { writeScaleDataset } from './make-scale-dataset.js';
import { scoredCase, scoredCaseId } from './scored-case.js';
import { median } from './measurements.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20000,100000' },
    reps: { type: 'string', default: '3' },
    runs: { type: 'string', default: '1000' },
    // Another build of the CLI (e.g. a copy of dist/, so a rebuild meanwhile cannot change it).
    cli: { type: 'string' },
    // Only the CLI runs (`cli`), only the store alone (`store`), or both.
    part: { type: 'string', default: 'all' },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const REPS = Math.max(1, Number(values.reps));
const LIST_RUNS = Number(values.runs);
const CLI = values.cli ?? join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const PART = values.part;
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-scale-'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const loadAtStart = load();
const f = (x: number, d = 1) => x.toFixed(d);
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  process.stderr.write(`${line}\n`);
};

interface Timed {
  readonly seconds: number;
  /** User + system CPU of the process. */
  readonly cpuSeconds: number;
  readonly rssMb: number;
}

/** Runs the CLI under /usr/bin/time; stdout and stderr go to files (a pipe would be read into this process). */
function timeCli(args: readonly string[]): Timed {
  const timeFile = join(tmp, 'time.txt');
  const r = spawnSync(
    '/bin/sh',
    [
      '-c',
      `/usr/bin/time -f '%e %M %U %S' -o "$0" "$@" > "${join(tmp, 'stdout.txt')}" 2> "${join(tmp, 'stderr.txt')}"`,
      timeFile,
      process.execPath,
      CLI,
      ...args,
    ],
    { stdio: 'inherit' },
  );
  const fields = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ');
  if (r.status !== 0) {
    const tail = readFileSync(join(tmp, 'stderr.txt'), 'utf8').slice(-500);
    throw new Error(`decidekit ${args.join(' ')} failed (exit ${r.status}): ${tail}`);
  }
  return {
    seconds: Number(fields[0]),
    rssMb: Number(fields[1]) / 1024,
    cpuSeconds: Number(fields[2]) + Number(fields[3]),
  };
}

// ---------------------------------------------------------------- the CLI at scale

const MODES = ['no-store', 'store', 'store-json'] as const;
type Mode = (typeof MODES)[number];
const keptStores = new Map<number, { path: string; id: string }>();

say(`### bench at scale: \`--parallel 32\` against the embedded server`);
say();
say(
  `Command per row: \`node dist/cli/main.js bench --dataset <N cases> --parallel 32\` plus the mode's options; ${REPS} repetitions, modes in rotating order; wall, CPU (user + system) and peak RSS from \`/usr/bin/time -f '%e %M %U %S'\`; medians; each ratio is store / no-store within each repetition, then the median.`,
);
say();
say(
  '| cases | mode | median wall (s) | wall vs no-store | median CPU (s) | CPU vs no-store | median peak RSS (MB) | max peak RSS (MB) | walls (s) |',
);
say('|---:|---|---:|---:|---:|---:|---:|---:|---|');
for (const size of PART === 'store' ? [] : SIZES) {
  const dataset = join(tmp, `scale-${size}.jsonl`);
  writeScaleDataset(dataset, size, 1);
  const results = new Map<Mode, Timed[]>(MODES.map((m) => [m, []]));
  for (let rep = 0; rep < REPS; rep++) {
    for (let k = 0; k < MODES.length; k++) {
      const mode = MODES[(rep + k) % MODES.length]!;
      const store = join(tmp, `store-${size}-${rep}-${mode}.sqlite`);
      const args = ['bench', '--dataset', dataset, '--parallel', '32'];
      if (mode === 'no-store') args.push('--no-store');
      else args.push('--store', store);
      if (mode === 'store-json') args.push('--json');
      const t = timeCli(args);
      results.get(mode)!.push(t);
      process.stderr.write(
        `  ${size} ${mode} rep ${rep + 1}: ${f(t.seconds)} s, ${f(t.rssMb, 0)} MB (load ${load()})\n`,
      );
      if (mode === 'store' && !keptStores.has(size)) {
        const s = openStore(store, { readOnly: true });
        keptStores.set(size, { path: store, id: s.runs.list()[0]!.id });
        s.close();
      } else if (mode !== 'no-store') rmSync(store, { force: true });
    }
  }
  const base = results.get('no-store')!;
  for (const mode of MODES) {
    const runs = results.get(mode)!;
    const ratio = median(runs.map((r, i) => r.seconds / base[i]!.seconds));
    const cpuRatio = median(runs.map((r, i) => r.cpuSeconds / base[i]!.cpuSeconds));
    say(
      `| ${size.toLocaleString('en-US')} | ${mode === 'no-store' ? '`--no-store`' : mode === 'store' ? '`--store`' : '`--store --json`'} | ${f(median(runs.map((r) => r.seconds)))} | ${mode === 'no-store' ? '1.00' : f(ratio, 2)} | ${f(median(runs.map((r) => r.cpuSeconds)))} | ${mode === 'no-store' ? '1.00' : f(cpuRatio, 2)} | ${f(median(runs.map((r) => r.rssMb)), 0)} | ${f(Math.max(...runs.map((r) => r.rssMb)), 0)} | ${runs.map((r) => f(r.seconds)).join(', ')} |`,
    );
  }
  rmSync(dataset, { force: true });
}

// ---------------------------------------------------------------- the store alone

/** Saves a run of `n` cases in batches of 4 (what a parallel run commits per turn); µs per case per 10,000-case slice. */
function timeSaves(n: number): number[] {
  const dir = mkdtempSync(join(tmp, 'saves-'));
  const ids = Array.from({ length: n }, (_, i) => scoredCaseId(i, 7));
  const config = createRunConfig({ toolVersion: 'bench', caseIds: ids });
  const store = openStore(join(dir, 'runs.sqlite'));
  const head = store.runs.create({ config, label: null, createdAt: new Date().toISOString() });
  const slices: number[] = [];
  let t0 = performance.now();
  for (let i = 0; i < n; i += 4) {
    const batch: CaseResult[] = [];
    for (let k = i; k < Math.min(n, i + 4); k++) batch.push(scoredCase(k, 7));
    store.cases.save(head.id, batch, { durationMs: i });
    if ((i + 4) % 10_000 === 0) {
      slices.push(((performance.now() - t0) / 10_000) * 1000);
      t0 = performance.now();
    }
  }
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return slices;
}

if (PART !== 'cli') {
  say();
  say('### The run store alone');
  say();
  const small: number[] = [];
  const large: number[][] = [];
  for (let rep = 0; rep < REPS; rep++) {
    small.push(median(timeSaves(10_000)));
    large.push(timeSaves(100_000));
  }
  say(
    `Saving cases in batches of 4 (synchronous=NORMAL, a sync to disk every 2 s), µs per case, medians of ${REPS}: 10,000-case run **${f(median(small), 0)}**; 100,000-case run: first 10,000 **${f(median(large.map((l) => l[0]!)), 0)}**, last 10,000 **${f(median(large.map((l) => l[l.length - 1]!)), 0)}**, whole run ${f(median(large.map((l) => median(l))), 0)} (median slice). Per-case cost must not grow with the run: last / first = ${f(median(large.map((l) => l[l.length - 1]! / l[0]!)), 2)}.`,
  );

  // runs list over many stored runs (100 saved cases each, so the count per run is real work).
  {
    const path = join(tmp, 'list.sqlite');
    const ids = Array.from({ length: 400 }, (_, i) => scoredCaseId(i, 7));
    const config = createRunConfig({ toolVersion: 'bench', caseIds: ids });
    const cases = ids.slice(0, 100).map((_, i) => scoredCase(i, 7));
    const summary = summarizeRun(config, cases);
    const store = openStore(path);
    for (let r = 0; r < LIST_RUNS; r++) {
      const head = store.runs.create({
        config,
        label: `run ${r}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, r)).toISOString(),
      });
      store.cases.save(head.id, cases);
      store.runs.finish(head.id, { status: summary.status, durationMs: 1, summary });
    }
    store.close();
    const cli: number[] = [];
    const lib: number[] = [];
    for (let rep = 0; rep < 5; rep++) {
      cli.push(timeCli(['runs', 'list', '--store', path, '--limit', String(LIST_RUNS)]).seconds * 1000);
      const s = openStore(path, { readOnly: true });
      const t0 = performance.now();
      if (s.runs.list().length !== LIST_RUNS) throw new Error('lost runs');
      lib.push(performance.now() - t0);
      s.close();
    }
    say(
      `\`runs list --store <${LIST_RUNS.toLocaleString('en-US')} runs of 400 cases, 100 saved each> --limit ${LIST_RUNS}\`: CLI wall **${f(median(cli), 0)} ms** (process start included; /usr/bin/time resolution 10 ms), \`listRuns\` itself ${f(median(lib), 1)} ms; medians of 5.`,
    );
  }

  // runs show of the largest stored run.
  const largest = [...keptStores.entries()].sort((a, b) => b[0] - a[0])[0];
  if (largest !== undefined) {
    const [size, { path, id }] = largest;
    const show: number[] = [];
    for (let rep = 0; rep < 5; rep++) show.push(timeCli(['runs', 'show', id, '--store', path]).seconds * 1000);
    const s = openStore(path, { readOnly: true });
    let t0 = performance.now();
    s.runs.info(id);
    const info = performance.now() - t0;
    t0 = performance.now();
    const whole = s.runs.get(id)!;
    const full = performance.now() - t0;
    s.close();
    say(
      `\`runs show\` of the ${size.toLocaleString('en-US')}-case run: CLI wall **${f(median(show), 0)} ms** (medians of 5); \`getRunInfo\` ${f(info, 1)} ms, against ${f(full, 0)} ms to load all ${whole.cases.length.toLocaleString('en-US')} cases (\`getRun\`, what it did before).`,
    );
  }
}

rmSync(tmp, { recursive: true, force: true });
const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
say();
say(
  `Machine: ${cpus().length} CPUs (nproc), ${cpu}, ${f(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; load average ${loadAtStart} at start, ${load()} at the end (1, 5, 15 min).`,
);
process.stdout.write(`${out.join('\n')}\n`);
