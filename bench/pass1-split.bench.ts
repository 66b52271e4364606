/**
 * Whether `bench`'s pass 1 (every row of the dataset checked before the first request) pays
 * for splitting over two worker threads while the server is still idle: the whole file
 * checked in the main thread (the floor: what `bench` does) against its two halves checked by
 * two workers at once, worker start-up, module loading and the transfer of the entries
 * counted (merging the halves' results in file order is not, so this is the split's best
 * case). Alternated rounds, medians of wall and of the process's CPU (workers included).
 *
 *   npm run build && npx tsx bench/pass1-split.bench.ts [--cases 20000,100000] [--rounds 5]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { writeScaleDataset } from './make-scale-dataset.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({
  options: { cases: { type: 'string', default: '20000,100000' }, rounds: { type: 'string', default: '5' } },
});
const SCAN = join(import.meta.dirname, '..', 'dist', 'datasets', 'typed-decisions', 'scan-cases.js');
// The worker: plain JavaScript over the built module, as the CLI would run it.
const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
const { scanCaseFile } = await import(workerData.scan);
const scanned = await scanCaseFile(workerData.path);
parentPort.postMessage({ entries: scanned.entries, rows: scanned.rows });
`;
const { scanCaseFile } = (await import(SCAN)) as typeof import('../src/datasets/typed-decisions/scan-cases.js');
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function inWorkers(paths: readonly string[]): Promise<number> {
  const got = await Promise.all(
    paths.map(
      (path) =>
        new Promise<{ entries: unknown[] }>((resolve, reject) => {
          const w = new Worker(WORKER, { eval: true, workerData: { scan: SCAN, path } });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  return got.reduce((n, g) => n + g.entries.length, 0);
}

const tmp = mkdtempSync(join(tmpdir(), 'decidekit-pass1-split-'));
const rounds = Math.max(1, Number(values.rounds));
const lines: string[] = [];
const loadAtStart = oneMinuteLoad();
try {
  for (const cases of values.cases.split(',').map(Number)) {
    const whole = join(tmp, `scale-${cases}.jsonl`);
    writeScaleDataset(whole, cases);
    const bytes = readFileSync(whole);
    const mid = bytes.indexOf(10, bytes.length >> 1) + 1;
    const halves = [join(tmp, 'a.jsonl'), join(tmp, 'b.jsonl')];
    writeFileSync(halves[0]!, bytes.subarray(0, mid));
    writeFileSync(halves[1]!, bytes.subarray(mid));
    await scanCaseFile(whole); // the main thread's modules loaded and warm, as in the CLI
    const sides = {
      main: async () => (await scanCaseFile(whole)).entries.length,
      split: () => inWorkers(halves),
    };
    const runs: Record<keyof typeof sides, { wall: number; cpu: number }[]> = { main: [], split: [] };
    for (let r = 0; r < rounds; r++)
      for (const side of r % 2 === 0 ? (['main', 'split'] as const) : (['split', 'main'] as const)) {
        const c0 = cpuMs();
        const t0 = performance.now();
        const n = await sides[side]();
        if (n !== cases) throw new Error(`${side}: ${n} cases, expected ${cases}`);
        runs[side].push({ wall: performance.now() - t0, cpu: cpuMs() - c0 });
      }
    const row = (name: string, side: keyof typeof sides) =>
      `| ${cases.toLocaleString('en-US')} | ${name} | ${median(runs[side].map((x) => x.wall)).toFixed(0)} | ${median(runs[side].map((x) => x.cpu)).toFixed(0)} |`;
    lines.push(row('main thread (the floor)', 'main'), row('two workers, a half each', 'split'));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write(
  [
    '### Pass 1 on two worker threads',
    '',
    `Command: \`npm run build && npx tsx bench/pass1-split.bench.ts --cases ${values.cases} --rounds ${rounds}\`. ${machineLine(false).replace(/; peak RSS.*$/, '')}. Load average ${loadAtStart} at the start, ${oneMinuteLoad()} at the end; ${rounds} alternated rounds; medians.`,
    '',
    '| cases | pass 1 | wall (ms) | CPU (ms) |',
    '|---:|---|---:|---:|',
    ...lines,
    '',
  ].join('\n'),
);
