/**
 * `runs export --format parquet` of a stored run against DuckDB's own `COPY … TO parquet` of
 * the same rows. The run is made first by `bench --store` on a scale dataset (default 100,000
 * cases, 500,000 decisions) with the embedded server, outside the timing. The floor, in its
 * own process: the run's JSONL export loaded into a typed DuckDB table (not timed), then
 * `COPY t TO 'x.parquet' (FORMAT parquet)` timed alone (wall, and CPU of every DuckDB thread).
 * Rounds alternate decidekit and the floor; medians; ratios within each round, then their
 * median. decidekit's file is written by DuckDB here (its optional package is installed for
 * development), from the CSV text SQLite makes of the run (`cases.decisionCsv`) in one `COPY`.
 *
 *   npm run build && npx tsx bench/export-parquet.bench.ts [--cases 100000] [--rounds 3] [--before CLI]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DECISION_COLUMNS } from '../src/core/export/decision-row.js';
import { openStore } from '../src/store/index.js';
import { writeScaleDataset } from './make-scale-dataset.js';
import { HAS_TIME, measure, type Measured } from './offline-data.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    // An older build's dist/cli/main.js, timed in the same rounds.
    before: { type: 'string' },
  },
});
const CASES = Number(values.cases);
const ROUNDS = Math.max(1, Number(values.rounds));
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-export-parquet-'));
const store = join(tmp, 'runs.sqlite');
const DUCKDB_TYPES = { integer: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN', string: 'VARCHAR' } as const;

function cli(args: readonly string[], cliPath = CLI): string {
  const r = spawnSync(process.execPath, [cliPath, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0)
    throw new Error(`decidekit ${args.join(' ')} failed (${r.status}): ${String(r.stderr).slice(-500)}`);
  return String(r.stdout);
}

/** The floor: the rows in a typed DuckDB table, then only `COPY … TO parquet` timed; prints {ms, cpuMs, rows}. */
function floorScript(jsonl: string, out: string): string {
  const columns = DECISION_COLUMNS.map((c) => `${c.name}: '${DUCKDB_TYPES[c.type]}'`).join(', ');
  return `import { DuckDBInstance } from '@duckdb/node-api';
const db = await (await DuckDBInstance.create(':memory:')).connect();
await db.run(${JSON.stringify(`CREATE TABLE t AS SELECT * FROM read_json('${jsonl}', format = 'newline_delimited', columns = {${columns}})`)});
const cpu = process.cpuUsage();
const t0 = performance.now();
await db.run(${JSON.stringify(`COPY t TO '${out}' (FORMAT parquet)`)});
const ms = performance.now() - t0;
const used = process.cpuUsage(cpu);
const rows = Number((await (await db.runAndReadAll(${JSON.stringify(`SELECT count(*) FROM read_parquet('${out}')`)})).getRows())[0][0]);
process.stdout.write(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, rows }));`;
}

function floor(jsonl: string, out: string): { seconds: number; cpuSeconds: number; rows: number } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', floorScript(jsonl, out)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`the DuckDB floor failed (${r.status}): ${r.stderr.slice(-800)}`);
  const o = JSON.parse(r.stdout) as { ms: number; cpuMs: number; rows: number };
  return { seconds: o.ms / 1000, cpuSeconds: o.cpuMs / 1000, rows: o.rows };
}

try {
  const dataset = join(tmp, `scale-${CASES}.jsonl`);
  writeScaleDataset(dataset, CASES, 1);
  cli(['bench', '--store', store, '--dataset', dataset, '--parallel', '32', '--no-ci']);
  const s = openStore(store, { mustExist: true, readOnly: true });
  const runId = s.runs.list()[0]!.id;
  s.close();
  const jsonl = join(tmp, 'rows.jsonl');
  cli(['runs', 'export', runId, '--format', 'jsonl', '--out', jsonl, '--store', store]);
  const exportArgs = (out: string, cliPath = CLI) => [
    cliPath,
    'runs',
    'export',
    runId,
    '--format',
    'parquet',
    '--out',
    out,
    '--store',
    store,
  ];
  const rounds: { decidekit: Measured; before: Measured | null; floor: ReturnType<typeof floor> }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const decidekit = measure(process.execPath, exportArgs(join(tmp, 'decidekit.parquet')));
    const before =
      values.before === undefined
        ? null
        : measure(process.execPath, exportArgs(join(tmp, 'before.parquet'), values.before));
    const f = floor(jsonl, join(tmp, 'floor.parquet'));
    rounds.push({ decidekit, before, floor: f });
    process.stderr.write(
      `round ${round + 1}: decidekit ${decidekit.seconds.toFixed(2)} s (CPU ${decidekit.cpuSeconds.toFixed(2)})${before === null ? '' : `, before ${before.seconds.toFixed(2)} s`}, DuckDB COPY ${f.seconds.toFixed(2)} s (CPU ${f.cpuSeconds.toFixed(2)}), load ${oneMinuteLoad()}\n`,
    );
  }
  const decisions = rounds[0]!.floor.rows;
  const row = (name: string, m: (r: (typeof rounds)[number]) => Measured | null) =>
    `| ${name} | ${median(rounds.map((r) => m(r)!.seconds)).toFixed(2)} | ${median(rounds.map((r) => m(r)!.cpuSeconds)).toFixed(2)} | ${median(rounds.map((r) => m(r)!.maxRssMb)).toFixed(0)} | **${median(rounds.map((r) => m(r)!.seconds / r.floor.seconds)).toFixed(2)}** | ${median(rounds.map((r) => m(r)!.cpuSeconds / r.floor.cpuSeconds)).toFixed(2)} |`;
  process.stdout.write(
    [
      `### \`runs export --format parquet\` of a ${CASES.toLocaleString('en-US')}-case run (${decisions.toLocaleString('en-US')} decisions) against DuckDB's \`COPY … TO parquet\``,
      '',
      `Command: \`npm run build && npx tsx bench/export-parquet.bench.ts --cases ${CASES} --rounds ${ROUNDS}${values.before === undefined ? '' : ' --before <older build>/cli/main.js'}\`. ${machineLine(HAS_TIME)}. Load average ${oneMinuteLoad()} at the end; ${ROUNDS} rounds; medians; ratios within each round. decidekit's file ${(statSync(join(tmp, 'decidekit.parquet')).size / 1e6).toFixed(1)} MB, DuckDB's ${(statSync(join(tmp, 'floor.parquet')).size / 1e6).toFixed(1)} MB.`,
      '',
      '| what | wall (s) | CPU (s) | peak RSS (MB) | wall / floor | CPU / floor |',
      '|---|---:|---:|---:|---:|---:|',
      row(
        "`decidekit runs export --format parquet` (whole process: the store's text of the run, DuckDB's `COPY`)",
        (r) => r.decidekit,
      ),
      ...(values.before === undefined ? [] : [row('the same, older build', (r) => r.before)]),
      `| DuckDB \`COPY t TO 'x.parquet'\` of the same rows from a table (the floor; its own process, the COPY alone) | ${median(rounds.map((r) => r.floor.seconds)).toFixed(2)} | ${median(rounds.map((r) => r.floor.cpuSeconds)).toFixed(2)} | — | 1.00 | 1.00 |`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
