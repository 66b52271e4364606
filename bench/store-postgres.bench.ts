/**
 * One run on the PostgreSQL store against the same run on the SQLite store: `bench --dataset
 * D --parallel 32 --base-url S --store X` (the built CLI, a 100,000-case dataset, a
 * zero-latency reference server in a child process), X a fresh SQLite file or a fresh
 * database of a throwaway PostgreSQL cluster, alternated A B A B. The floor is the SQLite
 * run, measured in the same rounds. Wall time and the bench process's CPU and peak RSS from
 * /usr/bin/time; for the PostgreSQL run also the cluster's CPU (its server processes, read
 * from /proc), which the SQLite run spends in its own process. Target: the PostgreSQL run
 * costs at most 1.3x the SQLite run.
 *
 *   npm run build && npx tsx bench/store-postgres.bench.ts [--cases N] [--rounds N]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startChildServer } from './child-server.js';
import { writeScaleDataset } from './make-scale-dataset.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';
import { startThrowawayPostgres } from './throwaway-postgres.js';

const { values } = parseArgs({
  options: { cases: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '2' } },
});
const CASES = Number(values.cases);
const ROUNDS = Number(values.rounds);
const PARALLEL = 32;
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

interface Measured {
  readonly wallS: number;
  /** The bench process's user + system CPU. */
  readonly cpuS: number;
  /** The PostgreSQL cluster's CPU during the run (0 for SQLite). */
  readonly serverCpuS: number;
  readonly rssMb: number;
}

/** One bench run on `store` under /usr/bin/time. */
function benchOn(store: string, dataset: string, server: string): Promise<Omit<Measured, 'serverCpuS'>> {
  const argv = ['bench', '--dataset', dataset, '--base-url', server, '--parallel', String(PARALLEL), '--store', store];
  const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, CLI, ...argv], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const [wall, user, sys, rss] = err.trim().split('\n').at(-1)!.split(' ').map(Number);
      if (code !== 0) reject(new Error(`bench exited with ${code}: ${err.slice(-2000)}`));
      else resolve({ wallS: wall!, cpuS: user! + sys!, rssMb: rss! / 1024 });
    }),
  );
}

const tmp = mkdtempSync(join(tmpdir(), 'decidekit-store-pg-bench-'));
const dataset = join(tmp, `scale-${CASES}.jsonl`);
writeScaleDataset(dataset, CASES);
const pg = await startThrowawayPostgres();
const server = await startChildServer(['--slots', '256', '--latency-ms', '0']);
const loadAtStart = oneMinuteLoad();
const sqlite: Measured[] = [];
const postgres: Measured[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    sqlite.push({ ...(await benchOn(join(tmp, `runs-${r}.sqlite`), dataset, server.url)), serverCpuS: 0 });
    const url = await pg.database(`store_${r}`);
    const before = pg.cpuSeconds();
    const measured = await benchOn(url, dataset, server.url);
    postgres.push({ ...measured, serverCpuS: pg.cpuSeconds() - before });
    const [a, b] = [sqlite[r]!, postgres[r]!];
    process.stderr.write(
      `round ${r + 1}: SQLite ${a.wallS.toFixed(1)} s wall, ${a.cpuS.toFixed(1)} s CPU; PostgreSQL ${b.wallS.toFixed(1)} s wall, ${b.cpuS.toFixed(1)} s CPU + ${b.serverCpuS.toFixed(1)} s server; load ${oneMinuteLoad()}\n`,
    );
  }
} finally {
  await server.stop();
  await pg.stop();
  rmSync(tmp, { recursive: true, force: true });
}
const ratio = (f: (m: Measured) => number) => median(postgres.map((p, i) => f(p) / f(sqlite[i]!)));
const row = (label: string, xs: readonly Measured[]) =>
  `| ${label} | ${median(xs.map((x) => x.wallS)).toFixed(1)} | ${median(xs.map((x) => x.cpuS)).toFixed(1)} | ${median(xs.map((x) => x.serverCpuS)).toFixed(1)} | ${median(xs.map((x) => x.cpuS + x.serverCpuS)).toFixed(1)} | ${median(xs.map((x) => x.rssMb)).toFixed(0)} |`;
process.stdout.write(
  [
    `Command: npm run build && npx tsx bench/store-postgres.bench.ts --cases ${CASES} --rounds ${ROUNDS}. ${machineLine(true)}. Load average ${loadAtStart} at the start, ${oneMinuteLoad()} at the end; ${ROUNDS} rounds of SQLite then PostgreSQL; medians.`,
    '',
    `| store (${CASES.toLocaleString('en')} cases, \`--parallel ${PARALLEL}\`, zero-latency server) | wall (s) | bench CPU (s) | PostgreSQL server CPU (s) | CPU in all (s) | peak RSS (MB) |`,
    '|---|---:|---:|---:|---:|---:|',
    row('SQLite file', sqlite),
    row('PostgreSQL', postgres),
    '',
    `PostgreSQL against SQLite, median of the rounds' ratios (target <= 1.3): wall **${ratio((m) => m.wallS).toFixed(2)}**, bench CPU **${ratio((m) => m.cpuS).toFixed(2)}**, CPU in all **${ratio((m) => m.cpuS + m.serverCpuS).toFixed(2)}**`,
    '',
  ].join('\n'),
);
