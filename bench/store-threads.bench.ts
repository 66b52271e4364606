/**
 * Where a `bench --store` run spends its CPU, thread by thread: the main
 * thread runs the client, the embedded server and the accumulators, so its CPU time is the
 * run's critical path; the store's writer thread and V8's helpers run beside it. Wall time
 * on a shared machine mostly measures the other jobs; per-thread CPU time does not.
 *
 * Each run is `node <cli> bench --dataset <N cases> --parallel 32` with `--no-store` or
 * `--store`, spawned and sampled (`/proc/PID/task/TID/stat`, user + system, every 100 ms
 * until it exits; Linux only). Several builds (`--cli` given more than once, e.g. copies of
 * `dist/` before and after a change) alternate within each repetition; ratios are store /
 * no-store of the same build in the same repetition, then the median.
 *
 *   npm run build && npx tsx bench/store-threads.bench.ts [--sizes 20000] [--reps 3] [--cli A/cli/main.js --cli B/cli/main.js]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeScaleDataset } from './make-scale-dataset.js';
import { median } from './measurements.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20000' },
    reps: { type: 'string', default: '3' },
    cli: { type: 'string', multiple: true },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const REPS = Math.max(1, Number(values.reps));
const CLIS = values.cli ?? [join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')];
const TICKS_PER_S = 100; // USER_HZ on Linux
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-threads-'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

interface ThreadCpu {
  readonly mainS: number;
  readonly otherS: number;
  readonly wallS: number;
}

/** user + system seconds of each thread of `pid`, by thread id. */
function threadTimes(pid: number): Map<string, number> {
  const times = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(tid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S);
    } catch {
      // The thread ended between the listing and the read: its last sample stands.
    }
  }
  return times;
}

function runSampled(cli: string, args: readonly string[]): Promise<ThreadCpu> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    const last = new Map<string, number>();
    const sample = () => {
      try {
        for (const [tid, s] of threadTimes(child.pid!)) last.set(tid, s);
      } catch {
        // Exited: the samples so far stand.
      }
    };
    const timer = setInterval(sample, 100);
    // Sampled once more when it has finished its work but not yet been reaped.
    child.on('exit', () => sample());
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`${cli} ${args.join(' ')} failed (exit ${code}): ${stderr}`));
      const main = last.get(String(child.pid)) ?? 0;
      const all = [...last.values()].reduce((a, b) => a + b, 0);
      resolve({ mainS: main, otherS: all - main, wallS: (performance.now() - t0) / 1000 });
    });
  });
}

const f = (x: number, d = 2) => x.toFixed(d);
const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  process.stderr.write(`${line}\n`);
};
const loadAtStart = load();
say(
  '| cases | build | main thread no-store / store (s) | main thread ratio | other threads no-store / store (s) | process CPU ratio | wall ratio |',
);
say('|---:|---|---|---:|---|---:|---:|');
for (const size of SIZES) {
  const dataset = join(tmp, `scale-${size}.jsonl`);
  writeScaleDataset(dataset, size, 1);
  const results = CLIS.map(() => ({ none: [] as ThreadCpu[], store: [] as ThreadCpu[] }));
  for (let rep = 0; rep < REPS; rep++) {
    for (const [b, cli] of CLIS.entries()) {
      for (const mode of rep % 2 === 0 ? (['none', 'store'] as const) : (['store', 'none'] as const)) {
        const store = join(tmp, `store-${rep}-${b}.sqlite`);
        const args = [
          'bench',
          '--dataset',
          dataset,
          '--parallel',
          '32',
          ...(mode === 'none' ? ['--no-store'] : ['--store', store]),
        ];
        const r = await runSampled(cli, args);
        results[b]![mode].push(r);
        rmSync(store, { force: true });
        rmSync(`${store}-wal`, { force: true });
        rmSync(`${store}-shm`, { force: true });
        process.stderr.write(
          `  ${size} build ${b + 1} ${mode} rep ${rep + 1}: main ${f(r.mainS)} s, other ${f(r.otherS)} s, wall ${f(r.wallS)} s (load ${load()})\n`,
        );
      }
    }
  }
  for (const [b, cli] of CLIS.entries()) {
    const { none, store } = results[b]!;
    const ratio = (pick: (t: ThreadCpu) => number) => median(store.map((s, i) => pick(s) / pick(none[i]!)));
    say(
      `| ${size.toLocaleString('en-US')} | ${cli} | ${f(median(none.map((t) => t.mainS)))} / ${f(median(store.map((t) => t.mainS)))} | ${f(ratio((t) => t.mainS))} | ${f(median(none.map((t) => t.otherS)))} / ${f(median(store.map((t) => t.otherS)))} | ${f(ratio((t) => t.mainS + t.otherS))} | ${f(ratio((t) => t.wallS))} |`,
    );
  }
  rmSync(dataset, { force: true });
}
say();
say(`Medians of ${REPS}; load average ${loadAtStart} at start, ${load()} at the end (1, 5, 15 min).`);
rmSync(tmp, { recursive: true, force: true });
process.stdout.write(`${out.join('\n')}\n`);
