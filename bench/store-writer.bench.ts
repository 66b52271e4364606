/**
 * The store's writer against its floor, in the same run: saving N scored cases in batches
 * of 250 (what `bench --store` commits per 50 ms at `--parallel 32`) through
 * - the writer's thread as `bench --store` runs it (compiled, from `dist/`: run `npm run
 *   build` first, as `npm run bench` does), each batch posted once the one before is committed;
 * - the writer's code alone on the child's main thread (`openRowWriter(...).saveRows`);
 * - the floor: a plain better-sqlite3 script writing the same rows, schema, indexes, pragmas
 *   and batches (values bound by position, a case's decisions in one statement as the writer
 *   writes them, digests made before timing).
 * Each runs in its own process (`bench/store-writer-child.ts`) under `/usr/bin/time -v`, in
 * turn; medians of the saves' CPU (user + system of the whole process, timed around the
 * saves only), ratios to the floor taken within each repetition, the main thread's packing
 * of the writer's batches (`packCaseBatch`, timed apart: the floor's row arrays and digests
 * are made untimed too), peak RSS, and the load
 * average before and after. The first and last tenth of each run's batches show whether the
 * cost a case grows with the run.
 *
 *   npm run build && npx tsx bench/store-writer.bench.ts [--sizes 20000,100000] [--reps 3]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './measurements.js';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '20000,100000' }, reps: { type: 'string', default: '3' } },
});
const SIZES = values.sizes.split(',').map(Number);
const REPS = Math.max(1, Number(values.reps));
const CHILD = join(import.meta.dirname, 'store-writer-child.ts');
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-store-writer-'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

interface Side {
  readonly cpuUs: number;
  readonly firstTenthCpuUs: number;
  readonly lastTenthCpuUs: number;
  readonly tenthCases: number;
  readonly packCpuUs: number;
  readonly rssMb: number;
}

type Mode = 'writer' | 'writer-here' | 'floor';
const MODES: readonly Mode[] = ['writer', 'floor', 'writer-here'];

function runSide(mode: Mode, cases: number): Side {
  const store = join(tmp, `${mode}.sqlite`);
  for (const f of [store, `${store}-wal`, `${store}-shm`]) rmSync(f, { force: true });
  const r = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, '--import', 'tsx', CHILD, '--mode', mode, '--cases', String(cases), '--store', store],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (r.status !== 0) throw new Error(`${mode} ${cases} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
  for (const f of [store, `${store}-wal`, `${store}-shm`]) rmSync(f, { force: true });
  return { ...(JSON.parse(r.stdout.trim().split('\n').pop()!) as Omit<Side, 'rssMb'>), rssMb: rssKb / 1024 };
}

const f = (x: number, d = 1) => x.toFixed(d);
const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
const loadAtStart = load();
const rows: string[] = [];
for (const size of SIZES) {
  const sides: Record<Mode, Side[]> = { writer: [], 'writer-here': [], floor: [] };
  for (let rep = 0; rep < REPS; rep++) {
    // The order turns each repetition: none always runs first, on a cold page cache.
    for (let m = 0; m < MODES.length; m++) {
      const mode = MODES[(m + rep) % MODES.length]!;
      const side = runSide(mode, size);
      sides[mode].push(side);
      process.stderr.write(
        `  ${size} ${mode} rep ${rep + 1}: ${f(side.cpuUs / size)} µs a case, peak ${f(side.rssMb, 0)} MB (load ${load()})\n`,
      );
    }
  }
  const { writer, floor } = sides;
  const here = sides['writer-here'];
  const perCase = (s: Side[]) => median(s.map((x) => x.cpuUs / size));
  const tenths = (s: Side[]) =>
    `${f(median(s.map((x) => x.firstTenthCpuUs / x.tenthCases)), 0)} → ${f(median(s.map((x) => x.lastTenthCpuUs / x.tenthCases)), 0)}`;
  const ratio = (s: Side[]) => median(s.map((w, i) => w.cpuUs / floor[i]!.cpuUs));
  rows.push(
    `| ${size.toLocaleString('en-US')} | ${f(perCase(writer))} | ${f(perCase(here))} | ${f(perCase(floor))} | **${f(ratio(writer), 2)}** | ${f(ratio(here), 2)} | ${f(median(writer.map((x) => x.packCpuUs / size)))} | ${tenths(writer)} | ${tenths(floor)} | ${f(median(writer.map((x) => x.rssMb)), 0)} / ${f(median(floor.map((x) => x.rssMb)), 0)} |`,
  );
}
rmSync(tmp, { recursive: true, force: true });
process.stdout.write(`Command: \`npx tsx bench/store-writer.bench.ts --sizes ${SIZES.join(',')} --reps ${REPS}\`
Machine: ${cpus().length} CPUs (nproc), ${cpu}, Node ${process.version}; files in ${tmpdir()}. Medians of ${REPS}, the three in turn.
Load average (1, 5, 15 min) ${loadAtStart} at the start, ${load()} at the end.

| cases | writer thread CPU a case (µs) | writer code alone | floor | writer thread / floor (target ≤ 1.3) | writer code alone / floor | packing on the main thread (µs a case, untimed above) | writer thread first → last tenth (µs a case) | floor first → last tenth | peak RSS writer / floor (MB) |
|---:|---:|---:|---:|---:|---:|---:|---|---|---:|
${rows.join('\n')}
`);
