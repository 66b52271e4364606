/**
 * One run sent by one worker, then by two: `bench --shards 8` queues a 20,000-case run on a
 * throwaway PostgreSQL store, and `decidekit worker --until-empty` processes (the built CLI)
 * send it, each against its own zero-latency reference server in a child process. The floor
 * is the one-worker run, measured in the same rounds (A B A B: one worker, two workers);
 * each round's run is queued afresh in a new database. Throughput is cases per second of
 * wall time from the workers' start to the last one's exit; CPU and peak RSS of each worker
 * from /usr/bin/time. Target: two workers >= 1.6x one worker's throughput. `--latency-ms`
 * gives the servers a latency (a remote model's), to see the scaling when the servers, not
 * the machine's CPUs, bound the run.
 *
 *   npm run build && npx tsx bench/workers.bench.ts [--cases N] [--rounds N] [--latency-ms N]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startChildServer } from './child-server.js';
import { writeScaleDataset } from './make-scale-dataset.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';
import { startThrowawayPostgres } from './throwaway-postgres.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    'latency-ms': { type: 'string', default: '0' },
  },
});
const CASES = Number(values.cases);
const ROUNDS = Number(values.rounds);
const PARALLEL = 32;
/** The servers' added latency (0: zero-latency servers, the target's setting). */
const LATENCY_MS = Number(values['latency-ms']);
const SHARDS = 8;
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

interface Worker {
  readonly cpuS: number;
  readonly rssMb: number;
}

/** A worker process under /usr/bin/time; resolves with its CPU and peak RSS once it exits 0. */
function worker(store: string, server: string): Promise<Worker> {
  const child = spawn(
    '/usr/bin/time',
    ['-f', '%U %S %M', process.execPath, CLI, 'worker', '--store', store, '--until-empty', '--base-url', server],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const last = err.trim().split('\n').at(-1)!.split(' ').map(Number);
      if (code !== 0) reject(new Error(`worker exited with ${code}: ${err}`));
      else resolve({ cpuS: last[0]! + last[1]!, rssMb: last[2]! / 1024 });
    }),
  );
}

/** Queues a fresh run in a new database and sends it with one worker per server given; cases per second. */
async function round(
  pg: Awaited<ReturnType<typeof startThrowawayPostgres>>,
  name: string,
  dataset: string,
  servers: readonly string[],
): Promise<{ casesPerS: number; cpuS: number; rssMb: number }> {
  const store = await pg.database(name);
  const queued = spawnSync(
    process.execPath,
    [CLI, 'bench', '--dataset', dataset, '--base-url', servers[0]!, '--parallel', String(PARALLEL)].concat([
      '--store',
      store,
      '--shards',
      String(SHARDS),
    ]),
    { encoding: 'utf8' },
  );
  if (queued.status !== 0) throw new Error(`bench --shards failed: ${queued.stderr}`);
  const started = performance.now();
  const done = await Promise.all(servers.map((s) => worker(store, s)));
  const wallS = (performance.now() - started) / 1000;
  return {
    casesPerS: CASES / wallS,
    cpuS: done.reduce((n, w) => n + w.cpuS, 0),
    rssMb: Math.max(...done.map((w) => w.rssMb)),
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'decidekit-workers-bench-'));
const dataset = join(tmp, `scale-${CASES}.jsonl`);
writeScaleDataset(dataset, CASES);
readFileSync(dataset);
const pg = await startThrowawayPostgres();
const servers = [
  await startChildServer(['--slots', '256', '--latency-ms', String(LATENCY_MS)]),
  await startChildServer(['--slots', '256', '--latency-ms', String(LATENCY_MS)]),
];
const loadAtStart = oneMinuteLoad();
const one: Awaited<ReturnType<typeof round>>[] = [];
const two: Awaited<ReturnType<typeof round>>[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    one.push(await round(pg, `one_${r}`, dataset, [servers[0]!.url]));
    two.push(await round(pg, `two_${r}`, dataset, [servers[0]!.url, servers[1]!.url]));
    process.stderr.write(
      `round ${r + 1}: one worker ${one[r]!.casesPerS.toFixed(0)} cases/s, two ${two[r]!.casesPerS.toFixed(0)} cases/s, load ${oneMinuteLoad()}\n`,
    );
  }
} finally {
  for (const s of servers) await s.stop();
  await pg.stop();
  rmSync(tmp, { recursive: true, force: true });
}
const ratio = median(two.map((t, i) => t.casesPerS / one[i]!.casesPerS));
const row = (label: string, xs: typeof one) =>
  `| ${label} | ${median(xs.map((x) => x.casesPerS)).toFixed(0)} | ${median(xs.map((x) => x.cpuS)).toFixed(2)} | ${((median(xs.map((x) => x.cpuS)) / CASES) * 1e6).toFixed(0)} | ${median(xs.map((x) => x.rssMb)).toFixed(0)} |`;
process.stdout.write(
  [
    `Command: npm run build && npx tsx bench/workers.bench.ts --cases ${CASES} --rounds ${ROUNDS} --latency-ms ${LATENCY_MS}. ${machineLine(true)}. Load average ${loadAtStart} at the start, ${oneMinuteLoad()} at the end; ${ROUNDS} rounds of one worker then two; medians.`,
    '',
    `| workers (one server each, latency ${LATENCY_MS} ms, \`--parallel 32\`, 8 shards) | cases/s | CPU of the workers (s) | worker CPU µs a case | peak RSS of a worker (MB) |`,
    '|---|---:|---:|---:|---:|',
    row('one worker', one),
    row('two workers', two),
    '',
    `Two workers' throughput against one's, median of the rounds' ratios (target >= 1.6): **${ratio.toFixed(2)}**`,
    '',
  ].join('\n'),
);
