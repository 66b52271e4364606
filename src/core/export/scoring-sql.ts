/**
 * The benchmark's scoring as one SQL query over the decision table (`runs export`, schema in
 * decision-row.ts), so a team scores its logs where they live (`decidekit sql`). One
 * definition, rendered per dialect: only type names and null-safe equality differ between
 * the engines we test (DuckDB, PostgreSQL), and nothing else in the query is engine-specific
 * (no FILTER, no arrays or JSON, no LN: per-decision Brier, log loss and confidence are
 * columns of the table, computed by the core).
 *
 * The definitions are the core's (docs/scoring.md): accuracy counts failed decisions as
 * misses; Brier, log loss, confidence and ECE are means over answered decisions; the ECE
 * bins are `min(floor(c * 10), 9)` in double precision (the default convention of
 * core/calibration.ts); latency is a mean over answered *requests* (one row per request:
 * `question_index = 0`); cost per correct = total cost / correct decisions.
 */
import { OptionError } from '../errors.js';
import { optionMention, words } from '../message-words.js';
import { CALIBRATION_BINS } from '../calibration.js';
import { quoteIdentifier } from '../sql-text.js';
import { assertNever } from '../question.js';
import { DECISION_COLUMNS as EXPORT_COLUMNS, type DecisionColumnType } from './decision-row.js';

export type SqlDialect = 'duckdb' | 'postgres';

export const SQL_DIALECTS: readonly SqlDialect[] = ['duckdb', 'postgres'];

/** The table the query reads when none is named. */
export const DEFAULT_DECISION_TABLE = 'decisions';

/** The decision-table columns the query reads (all in the export schema, version 1). */
export const SCORING_SQL_COLUMNS = [
  'model',
  'type',
  'status',
  'correct',
  'confidence',
  'brier',
  'log_loss',
  'gold_level',
  'predicted_level',
  'cost_usd',
  'latency_ms',
  'question_index',
] as const;

/**
 * The result columns, in order. One row per scope and bin: `bin` null is the summary row of
 * the scope (every metric), `bin` 0..9 a non-empty reliability bin (its n in `answered`,
 * hits in `correct`, `accuracy`, `mean_confidence` and `gap`; the rest null).
 */
export const SCORING_SQL_RESULT_COLUMNS = [
  'scope',
  'model',
  'bin',
  'bin_lower',
  'bin_upper',
  'decisions',
  'answered',
  'correct',
  'accuracy',
  'mean_confidence',
  'gap',
  'brier',
  'log_loss',
  'ece',
  'score_mae',
  'total_cost_usd',
  'cost_per_correct_usd',
  'mean_latency_ms',
] as const;

interface DialectRules {
  readonly double: string;
  readonly bigint: string;
  readonly text: string;
  readonly boolean: string;
  /** `a` equals `b`, nulls equal to each other (the model column may be null). */
  nullSafeEquals(a: string, b: string): string;
}

const DIALECTS: Readonly<Record<SqlDialect, DialectRules>> = {
  duckdb: {
    double: 'DOUBLE',
    bigint: 'BIGINT',
    text: 'VARCHAR',
    boolean: 'BOOLEAN',
    nullSafeEquals: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  },
  postgres: {
    double: 'DOUBLE PRECISION',
    bigint: 'BIGINT',
    text: 'TEXT',
    boolean: 'BOOLEAN',
    nullSafeEquals: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  },
};

/** A checked table name: one to three identifiers (`table`, `schema.table`, `catalog.schema.table`). */
export interface TableName {
  readonly parts: readonly string[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** PostgreSQL's identifier limit (NAMEDATALEN - 1 bytes); DuckDB has none lower. */
const MAX_IDENTIFIER_LENGTH = 63;

/**
 * Parses `--table`: dot-separated identifiers of letters, digits and underscores, not
 * starting with a digit. Each part is quoted in the query, so its case is kept as typed.
 */
export function parseTableName(text: string): TableName {
  const parts = text.split('.');
  const table = optionMention('table');
  const hint = 'expected NAME, SCHEMA.NAME or CATALOG.SCHEMA.NAME of letters, digits and _';
  if (parts.length > 3)
    throw new OptionError('table', words`${table} ${JSON.stringify(text)}: too many dots (${hint})`);
  for (const part of parts) {
    if (!IDENTIFIER.test(part))
      throw new OptionError(
        'table',
        words`${table} ${JSON.stringify(text)}: ${JSON.stringify(part)} is not an identifier (${hint})`,
      );
    if (part.length > MAX_IDENTIFIER_LENGTH)
      throw new OptionError(
        'table',
        words`${table} ${JSON.stringify(text)}: ${part} is longer than ${MAX_IDENTIFIER_LENGTH} characters`,
      );
  }
  return { parts };
}

export interface ScoringSqlOptions {
  readonly dialect: SqlDialect;
  /** Default `decisions`. */
  readonly table?: TableName;
}

/** The column type of a schema type in a dialect (`double` is `DOUBLE PRECISION` in PostgreSQL). */
export function decisionColumnType(dialect: SqlDialect, type: DecisionColumnType): string {
  const d = DIALECTS[dialect];
  switch (type) {
    case 'integer':
      return d.bigint;
    case 'double':
      return d.double;
    case 'boolean':
      return d.boolean;
    case 'string':
      return d.text;
    default:
      return assertNever(type);
  }
}

/**
 * The `CREATE TABLE` of the decision export schema (every column in export order, its type
 * and NOT NULL where the schema has no null), so that an engine can load a CSV export into
 * it by column position: one statement, ending with a semicolon and a newline.
 */
export function renderCreateTableSql(options: ScoringSqlOptions): string {
  const columns = EXPORT_COLUMNS.map(
    (c) =>
      `  ${quoteIdentifier(c.name)} ${decisionColumnType(options.dialect, c.type)}${c.nullable ? '' : ' NOT NULL'}`,
  );
  return `CREATE TABLE ${tableSql(options)} (\n${columns.join(',\n')}\n);\n`;
}

/** The table named in the options (default `decisions`), each part quoted. */
function tableSql(options: ScoringSqlOptions): string {
  return (options.table ?? { parts: [DEFAULT_DECISION_TABLE] }).parts.map(quoteIdentifier).join('.');
}

/** The scoring query: one statement, ending with a semicolon and a newline. */
export function renderScoringSql(options: ScoringSqlOptions): string {
  const d = DIALECTS[options.dialect];
  const table = tableSql(options);
  const sql: SqlWords = {
    d,
    dbl: (x) => `CAST(${x} AS ${d.double})`,
    int: (x) => `CAST(${x} AS ${d.bigint})`,
    nullColumn: (type, name) => `CAST(NULL AS ${type}) AS ${name}`,
  };
  const bins = CALIBRATION_BINS;
  const steps = [
    decisionsStep(sql, table),
    scopedStep(sql),
    totalsStep(sql),
    binsStep(sql),
    calibrationStep(sql),
    resultStep(sql),
  ];
  return `-- decidekit scoring (decision table schema version 1, ${options.dialect}); definitions: docs/scoring.md
-- One row per scope (overall, then each model) with bin NULL: every metric.
-- Then one row per non-empty reliability bin (0..${bins - 1}) of that scope.
WITH ${steps.join(',\n')}
SELECT ${SCORING_SQL_RESULT_COLUMNS.join(', ')}
FROM result
ORDER BY CASE WHEN scope = 'overall' THEN 0 ELSE 1 END, model NULLS FIRST, bin NULLS FIRST;
`;
}

/** The dialect's casts the query is written with. */
interface SqlWords {
  readonly d: DialectRules;
  dbl(x: string): string;
  int(x: string): string;
  nullColumn(type: string, name: string): string;
}

/** The columns every scope carries; `model` is replaced by NULL in the overall scope. */
const SCOPE_COLUMNS = [
  'answered',
  'hit',
  'confidence',
  'brier',
  'log_loss',
  'level_error',
  'cost_usd',
  'request_latency_ms',
  'bin',
];

/** Each decision's numbers, NULL where a failed decision has none, and its reliability bin. */
function decisionsStep({ dbl }: SqlWords, table: string): string {
  const answered = `status = 'answered'`;
  const bins = CALIBRATION_BINS;
  return `decisions AS (
  SELECT
    model,
    CASE WHEN ${answered} THEN 1 ELSE 0 END AS answered,
    CASE WHEN ${answered} AND correct THEN 1 ELSE 0 END AS hit,
    CASE WHEN ${answered} THEN ${dbl('confidence')} END AS confidence,
    CASE WHEN ${answered} THEN ${dbl('brier')} END AS brier,
    CASE WHEN ${answered} THEN ${dbl('log_loss')} END AS log_loss,
    CASE WHEN ${answered} AND type = 'score'
      THEN ABS(${dbl('predicted_level')} - ${dbl('gold_level')}) END AS level_error,
    ${dbl('cost_usd')} AS cost_usd,
    CASE WHEN ${answered} AND question_index = 0 THEN ${dbl('latency_ms')} END AS request_latency_ms,
    CASE WHEN ${answered}
      THEN LEAST(CAST(FLOOR(${dbl('confidence')} * ${bins}) AS INTEGER), ${bins - 1}) END AS bin
  FROM ${table}
)`;
}

/** Every decision twice: in the overall scope and in its model's. */
function scopedStep({ d }: SqlWords): string {
  const decisionColumns = SCOPE_COLUMNS;
  return `scoped AS (
  SELECT 'overall' AS scope, CAST(NULL AS ${d.text}) AS model, ${decisionColumns.join(', ')} FROM decisions
  UNION ALL
  SELECT 'model' AS scope, CAST(model AS ${d.text}) AS model, ${decisionColumns.join(', ')} FROM decisions
)`;
}

/** Counts, means and sums per scope. */
function totalsStep({ int }: SqlWords): string {
  return `totals AS (
  SELECT
    scope,
    model,
    ${int('COUNT(*)')} AS decisions,
    ${int('SUM(answered)')} AS answered,
    ${int('SUM(hit)')} AS correct,
    AVG(confidence) AS mean_confidence,
    AVG(brier) AS brier,
    AVG(log_loss) AS log_loss,
    AVG(level_error) AS score_mae,
    SUM(cost_usd) AS total_cost_usd,
    AVG(request_latency_ms) AS mean_latency_ms
  FROM scoped
  GROUP BY scope, model
)`;
}

/** Answered decisions per scope and reliability bin. */
function binsStep({ int }: SqlWords): string {
  return `bins AS (
  SELECT
    scope,
    model,
    bin,
    ${int('COUNT(*)')} AS n,
    ${int('SUM(hit)')} AS hits,
    SUM(confidence) AS confidence_sum
  FROM scoped
  WHERE answered = 1
  GROUP BY scope, model, bin
)`;
}

/** ECE per scope from its bins. */
function calibrationStep({ d, dbl }: SqlWords): string {
  return `calibration AS (
  SELECT b.scope, b.model, SUM(
    ${dbl('b.n')} * ABS(${dbl('b.hits')} / ${dbl('b.n')} - b.confidence_sum / ${dbl('b.n')}) / ${dbl('t.answered')}
  ) AS ece
  FROM bins b
  JOIN totals t ON t.scope = b.scope AND ${d.nullSafeEquals('t.model', 'b.model')}
  GROUP BY b.scope, b.model
)`;
}

/** A row of every metric per scope, then a row per non-empty bin. */
function resultStep({ d, dbl, nullColumn }: SqlWords): string {
  const bins = CALIBRATION_BINS;
  return `result AS (
  SELECT
    t.scope,
    t.model,
    ${nullColumn('INTEGER', 'bin')},
    ${nullColumn(d.double, 'bin_lower')},
    ${nullColumn(d.double, 'bin_upper')},
    t.decisions,
    t.answered,
    t.correct,
    ${dbl('t.correct')} / ${dbl('t.decisions')} AS accuracy,
    t.mean_confidence,
    ${nullColumn(d.double, 'gap')},
    t.brier,
    t.log_loss,
    c.ece,
    t.score_mae,
    t.total_cost_usd,
    CASE WHEN t.correct > 0 THEN t.total_cost_usd / ${dbl('t.correct')} END AS cost_per_correct_usd,
    t.mean_latency_ms
  FROM totals t
  LEFT JOIN calibration c ON c.scope = t.scope AND ${d.nullSafeEquals('c.model', 't.model')}
  UNION ALL
  SELECT
    scope,
    model,
    bin,
    ${dbl('bin')} / ${bins} AS bin_lower,
    ${dbl('bin + 1')} / ${bins} AS bin_upper,
    ${nullColumn(d.bigint, 'decisions')},
    n AS answered,
    hits AS correct,
    ${dbl('hits')} / ${dbl('n')} AS accuracy,
    confidence_sum / ${dbl('n')} AS mean_confidence,
    ${dbl('hits')} / ${dbl('n')} - confidence_sum / ${dbl('n')} AS gap,
    ${nullColumn(d.double, 'brier')},
    ${nullColumn(d.double, 'log_loss')},
    ${nullColumn(d.double, 'ece')},
    ${nullColumn(d.double, 'score_mae')},
    ${nullColumn(d.double, 'total_cost_usd')},
    ${nullColumn(d.double, 'cost_per_correct_usd')},
    ${nullColumn(d.double, 'mean_latency_ms')}
  FROM bins
)`;
}
