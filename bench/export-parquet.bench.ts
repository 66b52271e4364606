/**
 * `runs export --format parquet` of a stored run against DuckDB's own `COPY … TO parquet` of
 * the same rows. The run is made first by `bench --store` on a scale dataset (default 100,000
 * cases, 500,000 decisions) with the embedded server, outside the timing. The floor, in its
 * own process: the run's JSONL export loaded into a typed DuckDB table (not timed), then
 * `COPY t TO 'x.parquet' (FORMAT parquet)` timed alone (wall, and CPU of every DuckDB thread).
 * Rounds alternate decidekit and the floor; medians; ratios within each round, then their
 * median. decidekit's file is written by DuckDB here (its optional package is installed for
 * development), from the CSV text SQLite makes of the run (`cases.decisionCsv`) on a worker thread,
 * handed DuckDB through named pipes while its one `COPY` reads them.
 *
 * A second floor, the one any design with a SQLite store pays: a plain better-sqlite3 read of
 * the run's rows as raw arrays (`.raw()`, the store's own two queries: its cases, then its
 * decisions, in run order), no value checked and no text made, timed alone in its own process.
 * Any export reads the rows and writes Parquet: the read and the `COPY` together are the least
 * it can cost, whatever carries the rows from one to the other.
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

/** The read floor: the run's rows read as raw arrays, no text, no checks; prints {ms, cpuMs, rows}. */
function readScript(runId: string): string {
  return `import Database from 'better-sqlite3';
const db = new Database(${JSON.stringify(store)}, { readonly: true });
const cases = db.prepare(${JSON.stringify(READ_CASES_SQL)}).raw();
const decisions = db.prepare(${JSON.stringify(READ_DECISIONS_SQL)}).raw();
const cpu = process.cpuUsage();
const t0 = performance.now();
let caseRows = 0;
let rows = 0;
db.exec('BEGIN');
for (const c of cases.iterate(${JSON.stringify(runId)})) caseRows += c.length;
for (const d of decisions.iterate(${JSON.stringify(runId)})) rows += d.length > 0 ? 1 : 0;
db.exec('ROLLBACK');
if (caseRows === 0 && rows > 0) throw new Error('no cases read');
const ms = performance.now() - t0;
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, rows }));`;
}

/** The store's own reads of a run's cases and decisions (`decisionValues`), columns as it selects them. */
const READ_CASES_SQL = `SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, position
  FROM cases WHERE run_id = ? ORDER BY position`;
const READ_DECISIONS_SQL = `SELECT case_position, question_id, type, answers_json, gold_label, gold_probabilities_json,
  status, predicted, correct, confidence, kl, brier, probabilities_json, error_kind, error_message
  FROM decisions WHERE run_id = ? ORDER BY case_position, position`;

function floor(jsonl: string, out: string): { seconds: number; cpuSeconds: number; rows: number } {
  return timedScript('the DuckDB floor', floorScript(jsonl, out));
}

function readFloor(runId: string): { seconds: number; cpuSeconds: number; rows: number } {
  return timedScript('the read floor', readScript(runId));
}

function timedScript(what: string, script: string): { seconds: number; cpuSeconds: number; rows: number } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stderr.slice(-800)}`);
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
  type Timed = ReturnType<typeof floor>;
  const rounds: { decidekit: Measured; before: Measured | null; floor: Timed; read: Timed }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const decidekit = measure(process.execPath, exportArgs(join(tmp, 'decidekit.parquet')));
    const before =
      values.before === undefined
        ? null
        : measure(process.execPath, exportArgs(join(tmp, 'before.parquet'), values.before));
    const f = floor(jsonl, join(tmp, 'floor.parquet'));
    const read = readFloor(runId);
    if (read.rows !== f.rows) throw new Error(`the read floor read ${read.rows} decisions, the COPY wrote ${f.rows}`);
    rounds.push({ decidekit, before, floor: f, read });
    process.stderr.write(
      `round ${round + 1}: decidekit ${decidekit.seconds.toFixed(2)} s (CPU ${decidekit.cpuSeconds.toFixed(2)})${before === null ? '' : `, before ${before.seconds.toFixed(2)} s (CPU ${before.cpuSeconds.toFixed(2)})`}, DuckDB COPY ${f.seconds.toFixed(2)} s (CPU ${f.cpuSeconds.toFixed(2)}), plain read ${read.seconds.toFixed(2)} s (CPU ${read.cpuSeconds.toFixed(2)}), load ${oneMinuteLoad()}\n`,
    );
  }
  const decisions = rounds[0]!.floor.rows;
  const ratio = (m: (r: (typeof rounds)[number]) => number, digits = 2) => median(rounds.map(m)).toFixed(digits);
  const row = (name: string, m: (r: (typeof rounds)[number]) => Measured | Timed | null, rss = true) =>
    `| ${name} | ${ratio((r) => m(r)!.seconds)} | ${ratio((r) => m(r)!.cpuSeconds)} | ${rss ? ratio((r) => (m(r) as Measured).maxRssMb, 0) : '—'} | **${ratio((r) => m(r)!.seconds / r.floor.seconds)}** | ${ratio((r) => m(r)!.cpuSeconds / r.floor.cpuSeconds)} | ${ratio((r) => m(r)!.cpuSeconds / (r.floor.cpuSeconds + r.read.cpuSeconds))} |`;
  process.stdout.write(
    [
      `### \`runs export --format parquet\` of a ${CASES.toLocaleString('en-US')}-case run (${decisions.toLocaleString('en-US')} decisions) against DuckDB's \`COPY … TO parquet\``,
      '',
      `Command: \`npm run build && npx tsx bench/export-parquet.bench.ts --cases ${CASES} --rounds ${ROUNDS}${values.before === undefined ? '' : ' --before <older build>/cli/main.js'}\`. ${machineLine(HAS_TIME)}. Load average ${oneMinuteLoad()} at the end; ${ROUNDS} rounds; medians; ratios within each round. decidekit's file ${(statSync(join(tmp, 'decidekit.parquet')).size / 1e6).toFixed(1)} MB, DuckDB's ${(statSync(join(tmp, 'floor.parquet')).size / 1e6).toFixed(1)} MB.`,
      '',
      '| what | wall (s) | CPU (s) | peak RSS (MB) | wall / floor | CPU / floor | CPU / (read + COPY) |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row(
        "`decidekit runs export --format parquet` (whole process: the store's text made on a worker thread, through named pipes into DuckDB's `COPY`)",
        (r) => r.decidekit,
      ),
      ...(values.before === undefined ? [] : [row('the same, older build', (r) => r.before)]),
      row(
        "the run's rows read by plain better-sqlite3 as raw arrays (`.raw()`, the store's two queries; no checks, no text; its own process, the read alone)",
        (r) => r.read,
        false,
      ),
      row(
        "DuckDB `COPY t TO 'x.parquet'` of the same rows from a table (the floor; its own process, the COPY alone)",
        (r) => r.floor,
        false,
      ),
      '',
    ].join('\n'),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
