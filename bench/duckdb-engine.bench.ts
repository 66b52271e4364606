/**
 * `score --engine duckdb` against its floor: one typed DuckDB query of the same metrics
 * (read_json with declared column types, the join, the sums; no checks, floating-point
 * sums), run in a plain node process with the same package. Same seeded files as
 * offline-engines.bench.ts. The two alternate within each repetition (engine first on even
 * repetitions, floor first on odd ones); medians of wall time and CPU (user + sys), peak
 * RSS, each run with the 1-minute load average when it started. Outside the timing, the
 * engine's numbers are compared with the floor's (up to --compare-up-to decisions: beyond,
 * the extra pair of runs would double a long measurement).
 *
 *   npm run build && npx tsx bench/duckdb-engine.bench.ts [--runs 3] [--large-runs 1] [--cases 1000000,10000000] [--before CLI]
 *
 * --before names an older build's dist/cli/main.js: its engine runs in the same repetitions
 * (engine, floor, before; the order rotating), so an improvement reads as a same-run ratio.
 *
 * Sizes above 1,000,000 run --large-runs repetitions (a 10M engine run takes minutes on a
 * shared machine).
 */
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HAS_TIME, measure, warmOfflineFiles, type Measured } from './offline-data.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'large-runs': { type: 'string', default: '1' },
    cases: { type: 'string', default: '1000000,10000000' },
    'compare-up-to': { type: 'string', default: '1000000' },
    before: { type: 'string' },
  },
});
const SIZES = values.cases.split(',').map(Number);
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const ENGINE_MEMORY_LIMIT = '1GB';
/** Where the floor spills beyond its memory limit (DuckDB's default is `.tmp` in the working folder). */
const FLOOR_SPILL = join(tmpdir(), 'decidekit-bench-duckdb-floor');

/** The floor: the typed query, as a plain ES module for `node --input-type=module -e` (no loader). */
function floorScript(dataset: string, results: string): string {
  const sql = `
WITH cases AS (
  SELECT id, kind, correct, options FROM read_json(${JSON.stringify(dataset).replaceAll('"', "'")}, format = 'newline_delimited',
    columns = {id: 'VARCHAR', kind: 'VARCHAR', correct: 'JSON', options: 'VARCHAR[]', score_min: 'DOUBLE', score_max: 'DOUBLE'})
), results AS (
  SELECT case_id, decision AS d, cost_usd, latency_ms FROM read_json(${JSON.stringify(results).replaceAll('"', "'")}, format = 'newline_delimited',
    columns = {case_id: 'VARCHAR', model: 'VARCHAR', decision: 'STRUCT(probability DOUBLE, probabilities JSON, picked VARCHAR, value DOUBLE, confidence DOUBLE)', cost_usd: 'DOUBLE', latency_ms: 'DOUBLE'})
), j AS (
  SELECT c.kind, c.correct, c.options, r.d, r.cost_usd, r.latency_ms,
    CASE json_type(r.d.probabilities) WHEN 'ARRAY' THEN CAST(r.d.probabilities AS DOUBLE[])
      WHEN 'OBJECT' THEN list_transform(c.options, lambda o: CAST(json_extract(r.d.probabilities, '$."' || o || '"') AS DOUBLE)) END AS ps
  FROM results r JOIN cases c ON c.id = r.case_id
), s AS (
  SELECT *,
    CASE kind WHEN 'yes_no' THEN (CASE WHEN d.probability >= 0.5 THEN d.probability ELSE 1 - d.probability END)
      WHEN 'choice' THEN ps[coalesce(list_position(options, d.picked), list_position(ps, list_max(ps)))] END AS conf,
    CASE kind WHEN 'yes_no' THEN (d.probability >= 0.5) = CAST(correct AS BOOLEAN)
      WHEN 'choice' THEN coalesce(d.picked, options[list_position(ps, list_max(ps))]) = (correct ->> '$') END AS hit,
    CASE kind WHEN 'yes_no' THEN 2 * pow(d.probability - CAST(CAST(correct AS BOOLEAN) AS INTEGER), 2)
      WHEN 'choice' THEN list_sum(list_transform(ps, lambda x, i: pow(x - CASE WHEN options[i] = (correct ->> '$') THEN 1 ELSE 0 END, 2))) END AS brier,
    CASE kind WHEN 'yes_no' THEN -ln(greatest(CASE WHEN CAST(correct AS BOOLEAN) THEN d.probability ELSE 1 - d.probability END, 1e-15))
      WHEN 'choice' THEN -ln(greatest(ps[list_position(options, correct ->> '$')], 1e-15)) END AS ll,
    CASE WHEN kind = 'score' THEN abs(d.value - CAST(correct AS DOUBLE)) END AS ae
  FROM j
), b AS (
  SELECT least(CAST(floor(conf * 10) AS INTEGER), 9) AS bin, count(*) AS n, sum(conf) AS conf, count(*) FILTER (WHERE hit) AS hits
  FROM s WHERE kind <> 'score' GROUP BY bin
)
SELECT
  (SELECT count(*) FILTER (WHERE hit) / count(*) FILTER (WHERE kind <> 'score') FROM s) AS accuracy,
  (SELECT avg(brier) FROM s) AS brier,
  (SELECT avg(ll) FROM s) AS log_loss,
  (SELECT sum(abs(hits - conf)) / sum(n) FROM b) AS ece,
  (SELECT sum(conf) / sum(n) FROM b) AS mean_confidence,
  (SELECT avg(ae) FROM s) AS score_mae,
  (SELECT sum(cost_usd) FROM s) AS total_cost_usd,
  (SELECT avg(latency_ms) FROM s) AS mean_latency_ms`;
  return `import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(':memory:', { memory_limit: '${ENGINE_MEMORY_LIMIT}', preserve_insertion_order: 'false', temp_directory: ${JSON.stringify(FLOOR_SPILL).replaceAll('"', "'")} });
const connection = await instance.connect();
const rows = (await connection.runAndReadAll(${JSON.stringify(sql)})).getRowObjectsJS();
process.stdout.write(JSON.stringify(rows[0], (k, v) => (typeof v === 'bigint' ? Number(v) : v)));`;
}

function engineArgs(dataset: string, results: string, cli = CLI): string[] {
  return [cli, 'score', '--dataset', dataset, '--results', results, '--json', '--engine', 'duckdb'];
}

function floorArgs(dataset: string, results: string): string[] {
  return ['--input-type=module', '-e', floorScript(dataset, results)];
}

/** Runs once outside the timing and returns its JSON (or why it failed). */
function outputOf(args: readonly string[]): Record<string, unknown> | string {
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    cwd: join(import.meta.dirname, '..'),
  });
  return r.status === 0
    ? (JSON.parse(r.stdout) as Record<string, unknown>)
    : `exit ${r.status}: ${r.stderr.slice(-300)}`;
}

interface Timed extends Measured {
  readonly load: string;
}

function timed(args: readonly string[]): Timed {
  const load = oneMinuteLoad();
  return { ...measure(process.execPath, args), load };
}

const lines: string[] = [
  `Command: \`npx tsx bench/duckdb-engine.bench.ts --runs ${values.runs} --large-runs ${values['large-runs']} --cases ${values.cases}${values.before === undefined ? '' : ' --before <older build>/dist/cli/main.js'}\` (after \`npm run build\`)`,
  `${machineLine(HAS_TIME)}; DuckDB memory limit ${ENGINE_MEMORY_LIMIT} on both sides`,
  '',
  '| decisions | what | median wall (s) | median CPU user+sys (s) | peak RSS (MB) | runs: wall s (CPU s) @ 1-min load |',
  '|---:|---|---:|---:|---:|---|',
];
const notes: string[] = [];
for (const cases of SIZES) {
  const { files, size } = warmOfflineFiles(cases);
  const runs = Number(cases > 1_000_000 ? values['large-runs'] : values.runs);
  const engine: Timed[] = [];
  const floor: Timed[] = [];
  const before: Timed[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const round = [
        () => engine.push(timed(engineArgs(files.dataset, files.results))),
        () => floor.push(timed(floorArgs(files.dataset, files.results))),
        ...(values.before === undefined
          ? []
          : [() => before.push(timed(engineArgs(files.dataset, files.results, values.before)))]),
      ];
      // Each repetition starts one later in the round, so drift in the load falls on all.
      for (let k = 0; k < round.length; k++) round[(i + k) % round.length]!();
    }
  } catch (err) {
    lines.push(`| ${cases.toLocaleString('en-US')} | failed | | | | ${String(err).split('\n')[0]!.slice(0, 160)} |`);
    continue;
  }
  const stats = (all: readonly Timed[]) => ({
    wall: median(all.map((m) => m.seconds)),
    cpu: median(all.map((m) => m.cpuSeconds)),
    rss: Math.max(...all.map((m) => m.maxRssMb)),
  });
  const e = stats(engine);
  const f = stats(floor);
  const rows: [string, readonly Timed[], ReturnType<typeof stats>][] = [
    ['`score --engine duckdb`', engine, e],
    ['typed DuckDB query (floor)', floor, f],
  ];
  if (before.length > 0) rows.push(['`score --engine duckdb`, the build before', before, stats(before)]);
  for (const [what, all, s] of rows)
    lines.push(
      `| ${cases.toLocaleString('en-US')} | ${what} | ${s.wall.toFixed(2)} | ${s.cpu.toFixed(2)} | ${s.rss.toFixed(0)} | ${all.map((m) => `${m.seconds.toFixed(1)} (${m.cpuSeconds.toFixed(1)}) @ ${m.load}`).join(', ')} |`,
    );
  const compare = cases <= Number(values['compare-up-to']);
  const a = compare ? outputOf(engineArgs(files.dataset, files.results)) : 'not run';
  const b = compare ? outputOf(floorArgs(files.dataset, files.results)) : 'not run';
  const compared =
    typeof a === 'object' && typeof b === 'object'
      ? `largest relative difference engine vs floor over ${Object.keys(b).join(', ')}: ${Math.max(
          ...Object.keys(b).map((k) => Math.abs(Number(a[k]) - Number(b[k])) / Math.max(1, Math.abs(Number(b[k])))),
        ).toExponential(1)}`
      : `not compared (${typeof a === 'string' ? `engine ${a}` : ''}${typeof b === 'string' ? ` floor ${b}` : ''})`;
  const old = before.length > 0 ? stats(before) : null;
  const sameAsBefore =
    compare && values.before !== undefined
      ? `; numbers ${JSON.stringify(a) === JSON.stringify(outputOf(engineArgs(files.dataset, files.results, values.before))) ? 'the same as' : 'DIFFERENT from'} the build before's, to the last digit`
      : '';
  notes.push(
    `- ${cases.toLocaleString('en-US')} decisions (${size}): engine / floor wall ${(e.wall / f.wall).toFixed(2)}x, CPU ${(e.cpu / f.cpu).toFixed(2)}x, peak RSS ${(e.rss / f.rss).toFixed(2)}x${old === null ? '' : `; the build before / floor CPU ${(old.cpu / f.cpu).toFixed(2)}x, engine / the build before CPU ${(e.cpu / old.cpu).toFixed(2)}x`}; ${compared}${sameAsBefore}.`,
  );
}
lines.push('', ...notes, '', `Load average after: ${oneMinuteLoad()}`);
process.stdout.write(`${lines.join('\n')}\n`);
