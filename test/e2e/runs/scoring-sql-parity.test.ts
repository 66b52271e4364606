/**
 * The printed scoring SQL (`decidekit sql`) run on DuckDB in process and on a real
 * PostgreSQL cluster started here, against decision tables exported from stored runs: the
 * bundled sample run through the embedded reference server (via the real CLI), and generated
 * runs with edge cases (ties, hard zeros, confidences on and next to bin edges, failed
 * requests, score questions, costs, a null model). Every number equals the core's to 1e-9.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchRun } from '../../../src/core/bench/run.js';
import { summarizeBenchmark } from '../../../src/core/bench/summary.js';
import { createRun, securityCase, type FixtureCase } from '../../../src/core/bench/test-support/bench-run-fixture.js';
import { binOf } from '../../../src/core/calibration.js';
import { ExactSum } from '../../../src/core/exact-sum.js';
import { decisionRowsOfRun, type DecisionRow } from '../../../src/core/export/decision-row.js';
import { parseTableName, renderScoringSql, type SqlDialect } from '../../../src/core/export/scoring-sql.js';
import { logLoss } from '../../../src/core/offline/prediction.js';
import { createSeededRandom } from '../../../src/core/seeded-random.js';
import { openStore } from '../../../src/store/index.js';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { loadDuckDb, loadPostgres, queryDuckDb, queryPostgres, type ScoringRow } from '../../support/decision-table.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-sql-parity-');
let duck: DuckDBConnection;
let postgres: PostgresCluster;
let sampleRuns: BenchRun[];
let sampleRows: DecisionRow[];
const edgeRuns = createEdgeRuns();
const edgeRows = edgeRuns.flatMap((run) => [...decisionRowsOfRun(run)]);

async function cli(args: string[]): Promise<string> {
  const r = await runCliInProcess(args, inFolder(dir));
  if (r.code !== 0) throw new Error(`decidekit ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  const store = join(dir, 'runs.sqlite');
  // The bundled sample through the embedded reference server: one priced model, one with ties everywhere.
  await cli(['bench', '--model', 'heuristic', '--price-per-mtok', '2.5', '--store', store]);
  await cli(['bench', '--model', 'uniform', '--store', store]);
  const opened = openStore(store);
  try {
    sampleRuns = opened.runs.list().map((head) => opened.runs.get(head.id)!);
  } finally {
    opened.close();
  }
  expect(sampleRuns).toHaveLength(2);
  let jsonl = '';
  for (const run of sampleRuns) jsonl += await cli(['runs', 'export', run.id, '--format', 'jsonl', '--store', store]);
  writeFileSync(join(dir, 'sample.jsonl'), jsonl);
  for (const run of sampleRuns)
    await cli([
      'runs',
      'export',
      run.id,
      '--format',
      'parquet',
      '--out',
      join(dir, `${run.id}.parquet`),
      '--store',
      store,
    ]);
  sampleRows = jsonl
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as DecisionRow);
  writeFileSync(join(dir, 'edge.jsonl'), edgeRows.map((row) => `${JSON.stringify(row)}\n`).join(''));

  const instance = await DuckDBInstance.create(':memory:');
  duck = await instance.connect();
  await duck.run('CREATE SCHEMA logs');
  await loadDuckDb(duck, 'logs.sample', join(dir, 'sample.jsonl'));
  await loadDuckDb(duck, 'edge', join(dir, 'edge.jsonl'));
  // As the README shows: a view straight over the Parquet exports, types as written.
  const parquets = sampleRuns.map((run) => `'${join(dir, `${run.id}.parquet`)}'`).join(', ');
  await duck.run(`CREATE VIEW sample_parquet AS SELECT * FROM read_parquet([${parquets}])`);

  postgres = await startPostgresCluster();
  await postgres.client.query('CREATE SCHEMA logs');
  await loadPostgres(postgres.client, 'logs.sample', sampleRows);
  await loadPostgres(postgres.client, 'edge', edgeRows);
}, 120_000);

afterAll(async () => {
  duck?.closeSync();
  await postgres?.stop();
});

function query(dialect: SqlDialect, table: string): string {
  return renderScoringSql({ dialect, table: parseTableName(table) });
}

describe('decidekit sql on DuckDB and PostgreSQL', () => {
  it('prints the same query as the core renders', async () => {
    const out = await cli(['sql', '--dialect', 'postgres', '--table', 'logs.sample']);
    expect(out).toBe(query('postgres', 'logs.sample'));
    expect(out).toContain('FROM "logs"."sample"');
  });

  it('refuses a missing dialect and a table name that is not an identifier (exit 2)', async () => {
    const none = await runCliInProcess(['sql'], inFolder(dir));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--dialect is required');
    const bad = await runCliInProcess(['sql', '--dialect', 'duckdb', '--table', 'x; DROP TABLE y'], inFolder(dir));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not an identifier');
    expect(bad.stdout).toBe('');
  });

  it('gives the core numbers on the bundled sample run (DuckDB)', async () => {
    expectParity(await queryDuckDb(duck, query('duckdb', 'logs.sample')), expectedRows(sampleRuns));
  });

  it('gives the core numbers on the Parquet export of the sample runs (DuckDB view)', async () => {
    expectParity(await queryDuckDb(duck, query('duckdb', 'sample_parquet')), expectedRows(sampleRuns));
  });

  it('gives the core numbers on the bundled sample run (PostgreSQL)', async () => {
    expectParity(await queryPostgres(postgres.client, query('postgres', 'logs.sample')), expectedRows(sampleRuns));
  });

  it('gives the core numbers on edge cases (DuckDB)', async () => {
    expectParity(await queryDuckDb(duck, query('duckdb', 'edge')), expectedRows(edgeRuns));
  });

  it('gives the core numbers on edge cases (PostgreSQL)', async () => {
    expectParity(await queryPostgres(postgres.client, query('postgres', 'edge')), expectedRows(edgeRuns));
  });

  it('prints a CREATE TABLE that a CSV export loads into with psql, as the help shows', async () => {
    const store = join(dir, 'runs.sqlite');
    const csv = join(dir, 'sample.csv');
    let rows = '';
    for (const [i, run] of sampleRuns.entries()) {
      const one = await cli(['runs', 'export', run.id, '--format', 'csv', '--store', store]);
      rows += i === 0 ? one : one.slice(one.indexOf('\n') + 1);
    }
    writeFileSync(csv, rows);
    const create = await cli(['sql', '--dialect', 'postgres', '--table', 'from_csv', '--create']);
    expect(create).toMatch(/^CREATE TABLE "from_csv" \(\n  "schema_version" BIGINT NOT NULL,\n/);
    const psql = join(postgresBinDir(), 'psql');
    const connection = ['-h', '127.0.0.1', '-p', String(postgres.port), '-U', 'postgres', '-d', 'postgres'];
    execFileSync(
      psql,
      [...connection, '-v', 'ON_ERROR_STOP=1', '-c', create, '-c', `\\copy from_csv FROM '${csv}' CSV HEADER`],
      { stdio: 'pipe' },
    );
    const scoring = await cli(['sql', '--dialect', 'postgres', '--table', 'from_csv']);
    expectParity(await queryPostgres(postgres.client, scoring), expectedRows(sampleRuns));
    // The table is made once: a second CREATE says so rather than replacing what was loaded.
    expect(() => execFileSync(psql, [...connection, '-v', 'ON_ERROR_STOP=1', '-c', create], { stdio: 'pipe' })).toThrow(
      /already exists/,
    );
  });

  it('prints the same columns and types in DuckDB, where a CSV export loads too', async () => {
    const create = await cli(['sql', '--dialect', 'duckdb', '--table', 'from_csv', '--create']);
    await duck.run(create);
    await duck.run(`INSERT INTO from_csv SELECT * FROM read_csv('${join(dir, 'sample.csv')}', header = true)`);
    expectParity(
      await queryDuckDb(duck, await cli(['sql', '--dialect', 'duckdb', '--table', 'from_csv'])),
      expectedRows(sampleRuns),
    );
  });

  it('runs on PostgreSQL 15 or later', () => {
    expect(Number(postgres.version.split('.')[0])).toBeGreaterThanOrEqual(15);
  });

  it('exercises the edges it claims to', () => {
    const answered = edgeRows.filter((r) => r.status === 'answered');
    expect(edgeRows.some((r) => r.status === 'failed')).toBe(true);
    expect(edgeRows.some((r) => r.model === null)).toBe(true);
    expect(answered.some((r) => r.confidence === 1)).toBe(true);
    // The double just below 0.9: c * 10 rounds to 9 in double precision, so binOf puts it in bin 9.
    expect(answered.some((r) => r.confidence! < 0.9 && binOf(r.confidence!) === 9)).toBe(true);
    expect(answered.some((r) => r.log_loss! > 34)).toBe(true);
    expect(answered.some((r) => r.type === 'score' && r.predicted_level !== r.gold_level)).toBe(true);
    expect(edgeRows.some((r) => r.cost_usd !== null && r.cost_usd > 0)).toBe(true);
    expect(answered.some((r) => r.predicted_distribution === '[0.5,0.5]')).toBe(true);
  });
});

/** The scoring query's rows as the core computes them: overall, then each model, summary row before its bins. */
function expectedRows(runs: readonly BenchRun[]): ScoringRow[] {
  const byModel = new Map<string | null, BenchRun[]>();
  for (const run of runs) {
    const model = run.config.embeddedServer?.model ?? run.config.model;
    byModel.set(model, [...(byModel.get(model) ?? []), run]);
  }
  const models = [...byModel.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0));
  return [
    ...scopeRows('overall', null, runs),
    ...models.flatMap((model) => scopeRows('model', model, byModel.get(model)!)),
  ];
}

function scopeRows(scope: string, model: string | null, runs: readonly BenchRun[]): ScoringRow[] {
  const s = summarizeBenchmark(runs.flatMap((run) => run.cases));
  const logLosses = new ExactSum();
  const levelErrors = new ExactSum();
  for (const run of runs)
    for (const c of run.cases)
      for (const d of c.decisions) {
        if (d.outcome.status !== 'answered') continue;
        const gold = d.answers.indexOf(d.gold.label);
        logLosses.add(logLoss(d.outcome.probabilities[gold]!));
        if (d.type === 'score') levelErrors.add(Math.abs(d.answers.indexOf(d.outcome.predicted) - gold));
      }
  const priced = runs.filter((run) => run.config.pricePerMtokUsd !== null);
  const totalCostUsd =
    priced.length === 0
      ? null
      : priced.reduce(
          (sum, run) =>
            sum + summarizeBenchmark(run.cases, { pricePerMtokUsd: run.config.pricePerMtokUsd! }).cost!.totalUsd,
          0,
        );
  const none = { bin_lower: null, bin_upper: null, gap: null };
  const summary: ScoringRow = {
    scope,
    model,
    bin: null,
    ...none,
    decisions: s.total,
    answered: s.answered,
    correct: s.correct,
    accuracy: s.accuracy,
    mean_confidence: s.meanConfidence,
    brier: s.brier,
    log_loss: logLosses.mean(),
    ece: s.ece,
    score_mae: levelErrors.mean(),
    total_cost_usd: totalCostUsd,
    cost_per_correct_usd: totalCostUsd === null || s.correct === 0 ? null : totalCostUsd / s.correct,
    mean_latency_ms: s.latencyMs.mean,
  };
  const bins = s.reliability.map((b): ScoringRow => ({
    scope,
    model,
    bin: b.index,
    bin_lower: b.lower,
    bin_upper: b.upper,
    decisions: null,
    answered: b.n,
    correct: Math.round(b.accuracy * b.n),
    accuracy: b.accuracy,
    mean_confidence: b.meanConfidence,
    gap: b.gap,
    brier: null,
    log_loss: null,
    ece: null,
    score_mae: null,
    total_cost_usd: null,
    cost_per_correct_usd: null,
    mean_latency_ms: null,
  }));
  return [summary, ...bins];
}

function expectParity(actual: readonly ScoringRow[], expected: readonly ScoringRow[]): void {
  expect(actual.map(keyOf)).toEqual(expected.map(keyOf));
  for (const [i, want] of expected.entries()) {
    const got = actual[i]!;
    for (const [name, value] of Object.entries(want)) {
      const g = got[name as keyof ScoringRow];
      const where = `${keyOf(want)} ${name}`;
      if (typeof value === 'number' && typeof g === 'number')
        expect(Math.abs(g - value), `${where}: ${g} vs ${value}`).toBeLessThanOrEqual(
          1e-9 * Math.max(1, Math.abs(value)),
        );
      else expect(g, where).toEqual(value);
    }
  }
}

function keyOf(row: ScoringRow): string {
  return `${row.scope}/${row.model ?? '(null)'}/${row.bin ?? '-'}`;
}

/** The double next to x, toward +inf (up) or -inf. */
function nextDouble(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (up === x >= 0 ? 1n : -1n));
  return view.getFloat64(0);
}

/**
 * Three seeded runs of security cases (noul, 3-option choice, 4-level score): models
 * `alpha` (priced), `beta` (unpriced, no token counts) and a run with no model name (priced).
 */
function createEdgeRuns(): BenchRun[] {
  const random = createSeededRandom(15);
  const edges: number[] = [0, 1, 0.5];
  for (let k = 1; k < 10; k++) edges.push(k / 10, nextDouble(k / 10, false), nextDouble(k / 10, true));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const level = (): number => (random() < 0.5 ? pick(edges) : random());
  const spread = (top: number, n: number, at: number): number[] =>
    Array.from({ length: n }, (_, i) => (i === at ? top : (1 - top) / (n - 1)));
  const runs: BenchRun[] = [];
  const models: [string | null, number | null][] = [
    ['alpha', 3],
    ['beta', null],
    [null, 0.5],
  ];
  for (const [m, [model, price]] of models.entries()) {
    const items: FixtureCase[] = [];
    for (let n = 1; n <= 150; n++) {
      const gold = [
        { labelIndex: pick([0, 1]), probabilities: [0.5, 0.5] },
        { labelIndex: pick([0, 1, 2]), probabilities: [0.4, 0.4, 0.2] },
        { labelIndex: pick([0, 1, 2, 3]), probabilities: [0.1, 0.2, 0.3, 0.4] },
      ];
      if (n % 11 === 0) {
        items.push({
          benchCase: securityCase(n, gold),
          outcome: {
            status: 'failed',
            failure: { kind: 'timeout', message: 'no answer' },
            latencyMs: n % 2 ? 5000 : null,
          },
        });
        continue;
      }
      const shape = random();
      const choice =
        shape < 0.15 ? [0.4, 0.4, 0.2] : shape < 0.3 ? [0, 0, 1] : spread(level(), 3, Math.floor(random() * 3));
      const score =
        shape < 0.2
          ? [0.25, 0.25, 0.25, 0.25]
          : shape < 0.35
            ? [1, 0, 0, 0]
            : spread(level(), 4, Math.floor(random() * 4));
      const p = level();
      items.push({
        benchCase: securityCase(n, gold),
        outcome: {
          status: 'answered',
          latencyMs: Math.round(random() * 1e6) / 1e3,
          inputTokens: model === 'beta' || n % 7 === 0 ? null : 100 + Math.floor(random() * 2000),
          predicted: [[p, 1 - p], choice, score],
        },
      });
    }
    const run = createRun(items, {
      config: { model, pricePerMtokUsd: price, embeddedServer: null },
    });
    runs.push({ ...run, id: `r-20260101-000${m}` });
  }
  return runs;
}
