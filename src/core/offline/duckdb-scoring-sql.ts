/**
 * Offline scoring (`score --engine duckdb`) as DuckDB SQL: the checks of the strict loaders
 * (docs/file-formats.md) and each result joined to its case, written once here so the
 * engine reads files of any size without holding them in this process (the scoring of the
 * rows that pass is the core's offline accumulator). Pure: this module only builds SQL text;
 * app/offline/score-with-duckdb.ts runs it.
 *
 * Every row of a file becomes one JSON value `v` (JSONL through read_json_objects, Parquet
 * rows through to_json), so both formats go through the same checks.
 */
import { PROBABILITY_SUM_TOLERANCE } from '../question.js';
import { quoteIdentifier, sqlString } from '../sql-text.js';
import { MAX_RESULT_MEASURE, MAX_SCORE_BOUND, SCORE_BOUND_TEXT } from './case.js';

export type OfflineFileFormat = 'jsonl' | 'parquet';

export interface OfflineSqlFile {
  readonly path: string;
  readonly format: OfflineFileFormat;
  /** Parquet: text columns that hold JSON (e.g. `decision`), parsed before the row becomes JSON. */
  readonly jsonTextColumns?: readonly string[];
  /**
   * Parquet: struct columns. A struct has every field on every row, so its null fields count
   * as absent (as the default engine reads them): they are left out of the row's JSON.
   */
  readonly structColumns?: readonly string[];
}

/**
 * Parquet columns read as JSON when they are text: a nested value (a results row's
 * `decision`, a case's `options`) stored as a JSON string rather than a struct or list.
 */
export const PARQUET_JSON_TEXT_COLUMNS: readonly string[] = ['decision', 'options'];

/** The column names and types of a Parquet file (to find its JSON text columns). */
export function parquetColumnsSql(path: string): string {
  return `DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`;
}

/**
 * The longest JSONL line DuckDB reads. Its JSON reader holds buffers of twice this size per
 * thread, a floor under the memory limit that no spilling lowers: 16 MiB (32 MiB buffers,
 * its smallest) leaves the most of the limit to the tables and the join.
 */
const MAX_LINE_BYTES = 16 * 2 ** 20;

/** One JSON value `v` per non-blank line (JSONL, gzipped or not) or per row (Parquet). */
export function jsonRowsSql(file: OfflineSqlFile): string {
  return file.format === 'jsonl'
    ? `(SELECT json AS v FROM read_json_objects(${sqlString(file.path)}, format = 'newline_delimited', maximum_object_size = ${MAX_LINE_BYTES}))`
    : `(SELECT to_json(p) AS v FROM (SELECT *${parquetReplace(file.jsonTextColumns ?? [], file.structColumns ?? [])} FROM read_parquet(${sqlString(file.path)})) p)`;
}

/**
 * Whether a JSONL line is JSON as the strict loader reads it. DuckDB's JSON reader also takes
 * a trailing comma (`{"a": 1,}`) and NaN or Infinity (any case, signed) as numbers; the
 * default engine refuses both. One cheap match finds the lines that may hold either (a
 * comma before a closing bracket, or a value starting `na` or `in` in any case: NaN, Inf,
 * Infinity), and only those are matched again with their strings taken out (outside
 * strings, valid JSON has no such letters: true, false and null hold neither pair). A
 * Parquet row is built by to_json, which writes neither.
 */
function jsonSyntaxOkSql(file: OfflineSqlFile): string {
  if (file.format !== 'jsonl') return 'true';
  const text = 'CAST(v AS VARCHAR)';
  const nanOrInf = '[-+]?[NnIi][AaNn]';
  const trailingComma = String.raw`,\s*[}\]]`;
  const suspect = String.raw`^${nanOrInf}|[:\[,]\s*${nanOrInf}|${trailingComma}`;
  const noStrings = String.raw`regexp_replace(${text}, '"(?:[^"\\]|\\.)*"', '""', 'g')`;
  return `CASE WHEN regexp_matches(${text}, '${suspect}')
    THEN NOT regexp_matches(${noStrings}, '[NnIi][AaNn]|${trailingComma}') ELSE true END`;
}

/** A line DuckDB read but the strict loader would not: its only problem, so no other check reads it. */
const NOT_JSON_MESSAGE = `'not valid JSON (a trailing comma, or NaN or Infinity, which JSON does not have)'`;

function parquetReplace(jsonText: readonly string[], structs: readonly string[]): string {
  const replaced = [
    ...jsonText.map((c) => `json(${quoteIdentifier(c)}) AS ${quoteIdentifier(c)}`),
    // A JSON merge patch onto {} drops the null fields of every nested object (RFC 7396).
    ...structs.map((c) => `json_merge_patch('{}', to_json(${quoteIdentifier(c)})) AS ${quoteIdentifier(c)}`),
  ];
  return replaced.length === 0 ? '' : ` REPLACE (${replaced.join(', ')})`;
}

const NUMBER = `('BIGINT', 'UBIGINT', 'DOUBLE')`;
const absent = (t: string): string => `(${t} IS NULL OR ${t} = 'NULL')`;
/**
 * Every rule is written as "bad unless this holds"; a missing key makes its type NULL, and
 * NULL in a condition would make the whole rule NULL (read as not bad). So each condition
 * that must hold is true or false, never NULL: `holds` reads NULL as false.
 */
const holds = (condition: string): string => `coalesce(${condition}, false)`;
const isNumber = (t: string, x: string): string => holds(`${t} IN ${NUMBER} AND isfinite(${x})`);
/** A double as JavaScript writes it when it is a whole number (`10`, not DuckDB's `10.0`). */
const numberText = (x: string): string =>
  `CASE WHEN ${x} = trunc(${x}) AND abs(${x}) < 1e15 THEN CAST(CAST(${x} AS BIGINT) AS VARCHAR) ELSE CAST(${x} AS VARCHAR) END`;
const scoreRange = `'[' || ${numberText('score_min')} || ', ' || ${numberText('score_max')} || ']'`;
/**
 * Whether a list (a column, read again for each value) holds no value twice. A short one:
 * each value is first found at its own place, cheaper than list_distinct's set a row.
 */
const allDistinct = (list: string): string =>
  `CASE WHEN len(${list}) <= 16 THEN list_bool_and(list_transform(${list}, lambda x, i: list_position(${list}, x) = i))
    ELSE len(list_distinct(${list})) = len(${list}) END`;
/** A list of an object's keys holds one twice (JSON would keep only the last). */
const repeated = (keys: string): string => `coalesce(len(${keys}) <> len(list_distinct(${keys})), false)`;

/**
 * A check: `bad` is a SQL condition true when the row breaks the rule; `message` a SQL text
 * expression; `keys`, for a key that may be missing, a SQL list of the keys of the object it
 * belongs in when it is missing (NULL otherwise), for the engine to add the "did you mean" of
 * a misspelt one (core/offline/misspelt-key.ts) as the default engine does.
 */
interface Check {
  readonly field: string | null;
  readonly bad: string;
  readonly message: string;
  readonly keys?: string;
  /**
   * `bad` on a plain line, when a cheaper condition says the same there (its shape already
   * rules out what `bad` reads the generic columns for, which are null on a plain line).
   */
  readonly plain?: string;
  /**
   * The kind of case the check is about: its `plain` condition holds only for those cases
   * (the engine adds `kind = …`), so a plain line is checked by its own kind's conditions only.
   */
  readonly kind?: (typeof CASE_KINDS)[number];
}

const CASE_KINDS = ['yes_no', 'choice', 'score'] as const;

/** The keys of the line (or of its decision) when the column typed `t` says its key is missing. */
const keysWhenMissing = (t: string, where: 'line' | 'decision'): string =>
  `CASE WHEN ${t} IS NULL THEN json_keys(v${where === 'decision' ? `, '$.decision'` : ''}) END`;

/** What a decision of the case's kind looks like, as the default engine says it. */
const DECISION_SHAPE = `CASE kind WHEN 'yes_no' THEN '{"probability": p}'
      WHEN 'choice' THEN '{"probabilities": ..., "picked": ...}' ELSE '{"value": v}' END`;

/**
 * The typed fast path. A JSONL line in a plain shape — the keys in the order decidekit and
 * the usual writers put them, each value of the type its rule asks for, strings with JSON's
 * escapes only, numbers as JSON writes them, no null, no key twice — is read once by
 * json_transform into typed columns; only the other lines (and Parquet rows) go through
 * the generic per-line reading, which finds whatever the strict loader would refuse. A
 * plain line has nothing the generic reading would see differently: same values, same
 * checks after it.
 */
const WS = String.raw`\s*`;
const STR = String.raw`"(?:[^"\\[:cntrl:]]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"`;
const NUM = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]{1,2})?`;
const key = (name: string, value: string): string => `${WS}"${name}"${WS}:${WS}${value}${WS}`;
const comma = (x: string): string => `,${x}`;
const opt = (x: string): string => `(?:${x})?`;
const listOf = (x: string): string => String.raw`\[${WS}${x}(?:${WS},${WS}${x})*${WS}\]`;
/** A key of a probabilities object: any text without escapes. */
const NAME = String.raw`[^"\\[:cntrl:]]+`;
const objectOf = (x: string): string => String.raw`\{${key(NAME, x)}(?:,${key(NAME, x)})*\}`;
const line = (body: string): string => String.raw`^${WS}\{${body}\}${WS}$`;

const PROBABILITIES = `(?:${listOf(NUM)}|${objectOf(NUM)})`;
const PLAIN_DECISION = String.raw`\{(?:${key('probability', NUM)}|${key('value', NUM)}${opt(comma(key('confidence', NUM)))}|${key('picked', STR)},${key('probabilities', PROBABILITIES)}|${key('probabilities', PROBABILITIES)}${opt(comma(key('picked', STR)))})\}`;
const PLAIN_RESULT = line(
  `${key('case_id', STR)},${key('model', STR)},${key('decision', PLAIN_DECISION)}${opt(comma(key('cost_usd', NUM)))}${opt(comma(key('latency_ms', NUM)))}`,
);
const SCORE_BOUNDS = `${key('score_min', NUM)},${key('score_max', NUM)}`;
const CORRECT = key('correct', `(?:true|false|${STR}|${NUM})`);
const PLAIN_CASE = line(
  `${key('id', STR)},${key('kind', STR)}${opt(comma(key('prompt', STR)))}${opt(comma(key('group', STR)))}${opt(comma(key('field', STR)))}` +
    `${opt(comma(key('options', listOf(STR))))}(?:,${SCORE_BOUNDS},${CORRECT}|,${CORRECT}${opt(comma(SCORE_BOUNDS))})`,
);

/** Whether the row is a plain line (always false for Parquet, whose rows take the generic path). */
function plainSql(file: OfflineSqlFile, pattern: string): string {
  return file.format === 'jsonl' ? `regexp_full_match(CAST(v AS VARCHAR), ${sqlString(pattern)})` : 'false';
}

/** `fast` on a plain line, `generic` on the others. */
const either = (fast: string, generic: string): string => `CASE WHEN plain THEN ${fast} ELSE ${generic} END`;
/** The JSON type name of a typed value that a plain line holds when present (it is never null there). */
const typeIfPresent = (x: string, type: string): string => `CASE WHEN ${x} IS NOT NULL THEN '${type}' END`;
/** The generic reading of the whole line, for the lines that are not plain only. */
const generic = (x: string): string => `CASE WHEN NOT plain THEN ${x} END`;

// No prompt: a plain line's is a string by its shape, and nothing else reads it.
const CASE_STRUCTURE = `{"id": "VARCHAR", "kind": "VARCHAR", "group": "VARCHAR", "field": "VARCHAR", "options": ["VARCHAR"], "correct": "JSON", "score_min": "DOUBLE", "score_max": "DOUBLE"}`;

const RESULT_STRUCTURE = `{"case_id": "VARCHAR", "model": "VARCHAR", "decision": {"probability": "DOUBLE", "probabilities": "JSON", "picked": "VARCHAR", "value": "DOUBLE", "confidence": "DOUBLE"}, "cost_usd": "DOUBLE", "latency_ms": "DOUBLE"}`;

/**
 * The JSON type of a plain line's `correct` from its text as json_transform wrote it: its
 * shape allows only true, false, a string or a number there.
 */
const PLAIN_CORRECT_TYPE = `CASE WHEN correct_raw IN ('true', 'false') THEN 'BOOLEAN' WHEN starts_with(correct_raw, '"') THEN 'VARCHAR' ELSE 'DOUBLE' END`;

/** The dataset's rows with the fields its checks and the scoring read. */
export function datasetViewSql(file: OfflineSqlFile): string {
  // A plain line is parsed once, into typed columns. Any other is parsed a few times, not
  // once per field: one json_extract of every field, then small parses of the pieces.
  return `CREATE OR REPLACE VIEW dk_dataset AS
WITH lines AS (
  SELECT v, ${plainSql(file, PLAIN_CASE)} AS plain FROM ${jsonRowsSql(file)}
),
raw AS (
  SELECT
    plain,
    CASE WHEN plain THEN json_transform(v, ${sqlString(CASE_STRUCTURE)}) END AS x,
    ${generic('json_type(v)')} AS t,
    ${generic('json_keys(v)')} AS keys,
    ${generic(`json_extract(v, ['$.id', '$.kind', '$.correct', '$.options', '$.score_min', '$.score_max', '$.prompt', '$.group', '$.field'])`)} AS e,
    left(CAST(v AS VARCHAR), 60) AS line_preview,
    ${either('true', jsonSyntaxOkSql(file))} AS syntax_ok
  FROM lines
),
fields AS (
SELECT
  ${either(`'OBJECT'`, 't')} AS t,
  ${either('false', repeated('keys'))} AS repeated_key,
  ${either(`'VARCHAR'`, 'json_type(e[1])')} AS id_t, ${either('x.id', `e[1] ->> '$'`)} AS id,
  ${either(`'VARCHAR'`, 'json_type(e[2])')} AS kind_t, ${either('x.kind', `e[2] ->> '$'`)} AS kind,
  ${either(PLAIN_CORRECT_TYPE, 'json_type(e[3])')} AS correct_t,
  ${either(`CASE WHEN starts_with(correct_raw, '"') THEN x.correct ->> '$' ELSE correct_raw END`, `e[3] ->> '$'`)} AS correct_text,
  ${either(`CASE WHEN ${PLAIN_CORRECT_TYPE} = 'DOUBLE' THEN TRY_CAST(x.correct AS DOUBLE) END`, 'TRY_CAST(e[3] AS DOUBLE)')} AS correct_number,
  left(CAST(${either('x.correct', 'e[3]')} AS VARCHAR), 40) AS correct_preview,
  ${either(typeIfPresent('x.options', 'ARRAY'), 'json_type(e[4])')} AS options_t,
  ${generic(`json_type(e[4], '$[*]')`)} AS option_types,
  ${either('x.options', `e[4] ->> '$[*]'`)} AS options,
  ${either(typeIfPresent('x.score_min', 'DOUBLE'), 'json_type(e[5])')} AS min_t,
  ${either('x.score_min', 'TRY_CAST(e[5] AS DOUBLE)')} AS score_min,
  ${either(typeIfPresent('x.score_max', 'DOUBLE'), 'json_type(e[6])')} AS max_t,
  ${either('x.score_max', 'TRY_CAST(e[6] AS DOUBLE)')} AS score_max,
  ${generic('json_type(e[7])')} AS prompt_t,
  ${either(typeIfPresent('x."group"', 'VARCHAR'), 'json_type(e[8])')} AS group_t,
  ${either('x."group"', `e[8] ->> '$'`)} AS group_name,
  ${either(typeIfPresent('x.field', 'VARCHAR'), 'json_type(e[9])')} AS field_t,
  ${either('x.field', `e[9] ->> '$'`)} AS field_name,
  line_preview,
  syntax_ok,
  plain
FROM (SELECT *, CAST(x.correct AS VARCHAR) AS correct_raw FROM raw)
)
-- Once a choice case (the options' check and correct's both read it).
SELECT *, CASE WHEN kind = 'choice' THEN ${allDistinct('options')} END AS options_distinct FROM fields`;
}

/** A line that is not JSON to the strict loader: its only problem. */
const NOT_JSON: Check = { field: null, bad: `NOT syntax_ok`, message: NOT_JSON_MESSAGE, plain: 'false' };

/** A line (row) that is not an object: its only problem, so the checks of its fields skip it. */
const NOT_AN_OBJECT: Check = {
  field: null,
  bad: `syntax_ok AND t <> 'OBJECT'`,
  message: `'expected a JSON object, got ' || line_preview`,
  plain: 'false',
};

/**
 * A key twice in one object: the strict loader refuses the line for that alone (its JSON
 * parse stops there), so it is the row's only problem too.
 */
const REPEATED_KEY: Check = {
  field: null,
  bad: `repeated_key`,
  message: `'key repeated in one object (remove one: JSON keeps only the last)'`,
};

/** The checks a line gets only when it is JSON and an object. */
const LINE_CHECKS: readonly Check[] = [NOT_JSON, NOT_AN_OBJECT];

/** A choice case's options are a list of 2 or more distinct non-empty strings (else `correct` is not checked against them). */
const OPTIONS_OK = holds(`options_t = 'ARRAY' AND len(option_types) >= 2
      AND list_bool_and(list_transform(option_types, lambda x: x = 'VARCHAR'))
      AND NOT list_contains(options, '') AND options_distinct`);
/** OPTIONS_OK on a plain line, whose options are strings by its shape. */
const PLAIN_OPTIONS_OK = holds(`options_t = 'ARRAY' AND len(options) >= 2
      AND NOT list_contains(options, '') AND options_distinct`);

const DATASET_CHECKS: readonly Check[] = [
  ...LINE_CHECKS,
  REPEATED_KEY,
  {
    field: 'id',
    bad: `(id_t IS DISTINCT FROM 'VARCHAR' OR id = '')`,
    plain: `id = ''`,
    message: `CASE WHEN id_t IS NULL THEN 'id is missing' ELSE 'id must be a non-empty string' END`,
  },
  {
    field: 'kind',
    bad: `(kind_t IS DISTINCT FROM 'VARCHAR' OR kind NOT IN ('yes_no', 'choice', 'score'))`,
    plain: `kind NOT IN ('yes_no', 'choice', 'score')`,
    message: `CASE WHEN kind_t IS NULL THEN 'kind is missing (yes_no, choice or score)' ELSE 'kind must be yes_no, choice or score' END`,
  },
  {
    field: 'prompt',
    bad: `NOT (${absent('prompt_t')} OR prompt_t = 'VARCHAR')`,
    message: `'prompt must be a string'`,
    plain: 'false',
  },
  {
    field: 'group',
    bad: `NOT (${absent('group_t')} OR (group_t = 'VARCHAR' AND group_name <> ''))`,
    plain: `group_name = ''`,
    message: `'group must be a non-empty string'`,
  },
  {
    field: 'field',
    bad: `NOT (${absent('field_t')} OR (field_t = 'VARCHAR' AND field_name <> ''))`,
    plain: `field_name = ''`,
    message: `'field must be a non-empty string'`,
  },
  {
    field: 'correct',
    bad: `(kind = 'yes_no' AND correct_t IS DISTINCT FROM 'BOOLEAN')`,
    kind: 'yes_no',
    plain: `(correct_t <> 'BOOLEAN')`,
    message: `CASE WHEN correct_t IS NULL THEN 'correct is missing (true or false)' ELSE 'correct must be true or false, got ' || correct_preview END`,
  },
  {
    field: 'options',
    bad: `(kind = 'choice' AND NOT ${OPTIONS_OK})`,
    kind: 'choice',
    plain: `(NOT ${PLAIN_OPTIONS_OK})`,
    message: `CASE WHEN options_t IS NULL THEN 'options is missing (a list of 2 or more names)' ELSE 'options must be a list of 2 or more distinct non-empty strings' END`,
  },
  {
    field: 'correct',
    bad: `(kind = 'choice' AND ${OPTIONS_OK} AND (correct_t IS DISTINCT FROM 'VARCHAR' OR NOT coalesce(list_contains(options, correct_text), false)))`,
    kind: 'choice',
    plain: `(${PLAIN_OPTIONS_OK} AND (correct_t IS DISTINCT FROM 'VARCHAR' OR NOT coalesce(list_contains(options, correct_text), false)))`,
    message: `CASE WHEN correct_t IS NULL THEN 'correct is missing (one of the options)' ELSE 'correct must be one of the options, got ' || correct_preview END`,
  },
  {
    field: 'score_min',
    bad: `(kind = 'score' AND NOT ${isNumber('min_t', 'score_min')})`,
    kind: 'score',
    plain: `(NOT ${holds('isfinite(score_min)')})`,
    message: `CASE WHEN min_t IS NULL THEN 'score_min is missing' ELSE 'score_min must be a finite number' END`,
  },
  {
    field: 'score_max',
    bad: `(kind = 'score' AND NOT ${isNumber('max_t', 'score_max')})`,
    kind: 'score',
    plain: `(NOT ${holds('isfinite(score_max)')})`,
    message: `CASE WHEN max_t IS NULL THEN 'score_max is missing' ELSE 'score_max must be a finite number' END`,
  },
  ...(['score_min', 'score_max'] as const).map((bound): Check => ({
    field: bound,
    bad: `(kind = 'score' AND ${isNumber(bound === 'score_min' ? 'min_t' : 'max_t', bound)} AND abs(${bound}) > ${MAX_SCORE_BOUND})`,
    kind: 'score',
    plain: `(isfinite(${bound}) AND abs(${bound}) > ${MAX_SCORE_BOUND})`,
    message: `'${bound} must be within ±${SCORE_BOUND_TEXT} (a wider range would overflow the error sums), got ' || ${numberText(bound)}`,
  })),
  {
    field: 'correct',
    bad: `(kind = 'score' AND NOT ${isNumber('correct_t', 'correct_number')})`,
    kind: 'score',
    plain: `(NOT ${holds(`correct_t = 'DOUBLE' AND isfinite(correct_number)`)})`,
    message: `CASE WHEN correct_t IS NULL THEN 'correct is missing (a number)' ELSE 'correct must be a finite number, got ' || correct_preview END`,
  },
  {
    field: 'score_min',
    bad: `(kind = 'score' AND ${isNumber('min_t', 'score_min')} AND ${isNumber('max_t', 'score_max')} AND NOT score_min < score_max)`,
    kind: 'score',
    plain: `(isfinite(score_min) AND isfinite(score_max) AND NOT score_min < score_max)`,
    message: `'score_min ' || ${numberText('score_min')} || ' must be below score_max ' || ${numberText('score_max')}`,
  },
  {
    field: 'correct',
    bad: `(kind = 'score' AND ${isNumber('min_t', 'score_min')} AND ${isNumber('max_t', 'score_max')}
      AND ${isNumber('correct_t', 'correct_number')} AND score_min < score_max
      AND (correct_number < score_min OR correct_number > score_max))`,
    kind: 'score',
    plain: `(isfinite(score_min) AND isfinite(score_max)
      AND correct_t = 'DOUBLE' AND isfinite(correct_number) AND score_min < score_max
      AND (correct_number < score_min OR correct_number > score_max))`,
    message: `'correct ' || ${numberText('correct_number')} || ' is outside [' || ${numberText('score_min')} || ', ' || ${numberText('score_max')} || ']'`,
  },
];

/** Kinds as the numbers SCORED_ROWS_SQL gives (its rows are read column by column). */
export const SCORED_KIND = { yes_no: 0, choice: 1, score: 2 } as const;

/** A case's kind as its SCORED_KIND number. */
const scoredKindNumber = (kind: string): string =>
  `CAST(CASE ${kind} WHEN 'yes_no' THEN ${SCORED_KIND.yes_no} WHEN 'choice' THEN ${SCORED_KIND.choice} ELSE ${SCORED_KIND.score} END AS TINYINT)`;
/**
 * The cases as the scoring reads them, in one pass over the file, each with `bad` (it breaks
 * a rule) and `id_ok`: the checks then read this table, not the file, and the scoring runs
 * only when no row is bad and no id repeats. The kind is also kept as its SCORED_KIND number
 * (`kind_code`), which the one-pass query tests and gives the engine rather than the text.
 *
 * A temp table: kept in memory up to the limit and spilled beyond it, never compressed and
 * written to the database file (about 0.3 s of CPU a million cases), since it lives for one
 * scoring only.
 */
export const CREATE_CASES_SQL = `CREATE OR REPLACE TEMP TABLE dk_cases AS
SELECT
  ${anyBad(DATASET_CHECKS)} AS bad,
  id_t = 'VARCHAR' AS id_ok,
  id,
  kind,
  ${scoredKindNumber('kind')} AS kind_code,
  correct_text = 'true' AS correct_yes,
  CASE WHEN kind = 'choice' THEN options END AS options,
  CASE WHEN kind = 'choice' THEN CAST(list_position(options, correct_text) - 1 AS INTEGER) END AS correct_index,
  CASE WHEN kind = 'score' THEN correct_number END AS correct_number,
  score_min,
  score_max
FROM dk_dataset`;

/**
 * The results rows with the fields their checks and the scoring read, before any case is
 * joined (dk_results joins them; the one-pass query checks what needs no case first).
 */
export function resultFieldsViewSql(file: OfflineSqlFile): string {
  const ps = 'ps_json';
  return `CREATE OR REPLACE VIEW dk_result_fields AS
WITH lines AS (
  SELECT v, ${plainSql(file, PLAIN_RESULT)} AS plain FROM ${jsonRowsSql(file)}
),
raw AS (
  SELECT
    v,
    plain,
    CASE WHEN plain THEN json_transform(v, ${sqlString(RESULT_STRUCTURE)}) END AS x,
    ${generic('json_type(v)')} AS t,
    ${generic('json_keys(v)')} AS keys,
    ${generic(`json_extract(v, ['$.case_id', '$.model', '$.decision', '$.cost_usd', '$.latency_ms'])`)} AS e,
    left(CAST(v AS VARCHAR), 60) AS line_preview,
    ${either('true', jsonSyntaxOkSql(file))} AS syntax_ok
  FROM lines
),
parts AS (
  SELECT
    *,
    json_keys(e[3]) AS decision_keys,
    json_extract(e[3], ['$.probability', '$.probabilities', '$.picked', '$.value', '$.confidence']) AS d,
    ${either('x.decision.probabilities', 'd[2]')} AS ${ps},
    -- A plain line's probabilities are a list or an object of numbers, by its shape: read once, typed.
    CASE WHEN plain AND starts_with(CAST(x.decision.probabilities AS VARCHAR), '[')
      THEN json_transform(x.decision.probabilities, '["DOUBLE"]') END AS plain_list,
    CASE WHEN plain AND starts_with(CAST(x.decision.probabilities AS VARCHAR), '{')
      THEN json_transform(x.decision.probabilities, '"MAP(VARCHAR, DOUBLE)"') END AS plain_map
  FROM raw
),
fields AS (
  SELECT
    ${either(`'OBJECT'`, 't')} AS t,
    ${either(repeated('map_keys(plain_map)'), `${repeated('keys')} OR ${repeated('decision_keys')} OR ${repeated(`json_keys(${ps})`)}`)} AS repeated_key,
    ${either(`'VARCHAR'`, 'json_type(e[1])')} AS case_id_t, ${either('x.case_id', `e[1] ->> '$'`)} AS case_id,
    ${either(`'VARCHAR'`, 'json_type(e[2])')} AS model_t, ${either('x.model', `e[2] ->> '$'`)} AS model,
    ${either(`'OBJECT'`, 'json_type(e[3])')} AS decision_t, ${generic('left(CAST(e[3] AS VARCHAR), 40)')} AS decision_preview,
    ${either(typeIfPresent('x.decision.probability', 'DOUBLE'), 'json_type(d[1])')} AS p_t,
    ${either('x.decision.probability', 'TRY_CAST(d[1] AS DOUBLE)')} AS p,
    ${either(`CASE WHEN plain_list IS NOT NULL THEN 'ARRAY' WHEN plain_map IS NOT NULL THEN 'OBJECT' END`, `json_type(${ps})`)} AS ps_t,
    ${generic(`CASE json_type(${ps}) WHEN 'ARRAY' THEN json_type(${ps}, '$[*]') WHEN 'OBJECT' THEN json_type(${ps}, '$.*') END`)} AS ps_types,
    ${either(
      'coalesce(plain_list, map_values(plain_map))',
      `CASE json_type(${ps})
      WHEN 'ARRAY' THEN list_transform(json_extract(${ps}, '$[*]'), lambda x: TRY_CAST(x AS DOUBLE))
      WHEN 'OBJECT' THEN list_transform(json_extract(${ps}, '$.*'), lambda x: TRY_CAST(x AS DOUBLE)) END`,
    )} AS ps_values,
    ${either('map_keys(plain_map)', `json_keys(${ps})`)} AS ps_keys,
    ${either(typeIfPresent('x.decision.picked', 'VARCHAR'), 'json_type(d[3])')} AS picked_t,
    ${either('x.decision.picked', `d[3] ->> '$'`)} AS picked,
    ${either(typeIfPresent('x.decision.value', 'DOUBLE'), 'json_type(d[4])')} AS value_t,
    ${either('x.decision.value', 'TRY_CAST(d[4] AS DOUBLE)')} AS value,
    ${either(typeIfPresent('x.decision.confidence', 'DOUBLE'), 'json_type(d[5])')} AS confidence_t,
    ${either('x.decision.confidence', 'TRY_CAST(d[5] AS DOUBLE)')} AS confidence,
    ${either(typeIfPresent('x.cost_usd', 'DOUBLE'), 'json_type(e[4])')} AS cost_t,
    ${either('x.cost_usd', 'TRY_CAST(e[4] AS DOUBLE)')} AS cost_usd,
    ${either(typeIfPresent('x.latency_ms', 'DOUBLE'), 'json_type(e[5])')} AS latency_t,
    ${either('x.latency_ms', 'TRY_CAST(e[5] AS DOUBLE)')} AS latency_ms,
    line_preview,
    syntax_ok,
    plain,
    v
  FROM parts
)
SELECT * FROM fields`;
}

/** The results rows joined with their cases (LEFT: an unknown case_id is a problem). */
export const RESULTS_VIEW_SQL = `CREATE OR REPLACE VIEW dk_results AS
SELECT
  r.*,
  c.id IS NOT NULL AS known,
  -- A double, which JavaScript reads as a number (a BIGINT would be a BigInt a row).
  CAST(c.rowid AS DOUBLE) AS case_row,
  c.kind,
  c.correct_yes,
  c.options,
  c.correct_index,
  c.correct_number,
  c.score_min,
  c.score_max,
  CASE r.ps_t
    WHEN 'ARRAY' THEN r.ps_values
    WHEN 'OBJECT' THEN list_transform(c.options, lambda o: r.ps_values[list_position(r.ps_keys, o)]) END AS aligned,
  CASE WHEN r.picked_t = 'VARCHAR' THEN CAST(coalesce(list_position(c.options, r.picked), 0) - 1 AS INTEGER) ELSE -1 END AS picked_index
FROM dk_result_fields r
LEFT JOIN dk_cases c ON c.id = r.case_id`;

const isProbabilityList = `(len(ps_types) = len(ps_values)
  AND list_bool_and(list_transform(ps_types, lambda x: x IN ${NUMBER}))
  AND list_bool_and(list_transform(ps_values, lambda x: x >= 0 AND x <= 1)))`;
const measureBad = (t: string, x: string): string =>
  `NOT (${absent(t)} OR (${isNumber(t, x)} AND ${x} >= 0 AND ${x} <= ${MAX_RESULT_MEASURE}))`;
/** A score's confidence on a plain line, where it is a number or absent (null): absent or in [0, 1]. */
const PLAIN_CONFIDENCE_OK = 'confidence IS NULL OR (confidence >= 0 AND confidence <= 1)';
/** measureBad on a plain line, where the value is a number (never NaN) or absent (null). */
const plainMeasureBad = (x: string): string => `NOT (${x} >= 0 AND ${x} <= ${MAX_RESULT_MEASURE})`;
const choiceShapeOk = `(ps_t = 'ARRAY' AND len(ps_types) = len(options) AND ${isProbabilityList})
  OR (ps_t = 'OBJECT' AND ${isProbabilityList} AND len(list_filter(options, lambda o: NOT list_contains(ps_keys, o))) = 0
    AND len(list_filter(ps_keys, lambda k: NOT list_contains(options, k))) = 0)`;
/**
 * choiceShapeOk on a plain line: its probabilities are numbers by its shape, so the bounds
 * are their least and greatest; an object's keys, when none repeats (a repeat is the line's
 * problem anyway), are the options when they are as many and hold every option.
 */
const plainInUnitRange = `list_min(ps_values) >= 0 AND list_max(ps_values) <= 1`;
const plainChoiceShapeOk = `(ps_t = 'ARRAY' AND len(ps_values) = len(options) AND ${plainInUnitRange})
  OR (ps_t = 'OBJECT' AND ${plainInUnitRange} AND len(ps_keys) = len(options) AND list_has_all(ps_keys, options))`;
/**
 * The strict loader's sum: left to right in option order, from 0 (so a list of no values
 * sums to 0 rather than stopping the query: it is refused by its length first).
 */
const alignedSum = `list_reduce(aligned, lambda a, b: a + b, CAST(0 AS DOUBLE))`;

const RESULT_CHECKS: readonly Check[] = [
  ...LINE_CHECKS,
  REPEATED_KEY,
  {
    field: 'case_id',
    bad: `(case_id_t IS DISTINCT FROM 'VARCHAR' OR case_id = '')`,
    plain: `case_id = ''`,
    message: `CASE WHEN case_id_t IS NULL THEN 'case_id is missing' ELSE 'case_id must be a non-empty string' END`,
    keys: keysWhenMissing('case_id_t', 'line'),
  },
  {
    field: 'case_id',
    bad: `(case_id_t = 'VARCHAR' AND case_id <> '' AND NOT known)`,
    plain: `(case_id <> '' AND NOT known)`,
    message: `'case_id ' || to_json(case_id) || ' is not in the dataset'`,
  },
  {
    field: 'model',
    bad: `(model_t IS DISTINCT FROM 'VARCHAR' OR model = '')`,
    plain: `model = ''`,
    message: `CASE WHEN model_t IS NULL THEN 'model is missing' ELSE 'model must be a non-empty string' END`,
    keys: keysWhenMissing('model_t', 'line'),
  },
  {
    field: 'cost_usd',
    bad: measureBad('cost_t', 'cost_usd'),
    plain: plainMeasureBad('cost_usd'),
    message: `'cost_usd must be a finite number >= 0 and <= ${MAX_RESULT_MEASURE}'`,
  },
  {
    field: 'latency_ms',
    bad: measureBad('latency_t', 'latency_ms'),
    plain: plainMeasureBad('latency_ms'),
    message: `'latency_ms must be a finite number >= 0 and <= ${MAX_RESULT_MEASURE}'`,
  },
  {
    field: 'decision',
    bad: `(known AND decision_t IS DISTINCT FROM 'OBJECT')`,
    plain: 'false',
    message: `CASE WHEN decision_t IS NULL THEN 'decision is missing (' || ${DECISION_SHAPE} || ')'
      ELSE 'decision must be an object (' || ${DECISION_SHAPE} || '), got ' || decision_preview END`,
    keys: keysWhenMissing('decision_t', 'line'),
  },
  {
    field: 'probability',
    bad: `(known AND decision_t = 'OBJECT' AND kind = 'yes_no' AND NOT ${holds(`p_t IN ${NUMBER} AND p >= 0 AND p <= 1`)})`,
    kind: 'yes_no',
    plain: `(NOT ${holds('p >= 0 AND p <= 1')})`,
    message: `CASE WHEN p_t IS NULL THEN 'probability is missing (P(yes) in [0, 1])' ELSE 'probability must be a number in [0, 1]' END`,
    keys: keysWhenMissing('p_t', 'decision'),
  },
  {
    field: 'probabilities',
    bad: `(known AND decision_t = 'OBJECT' AND kind = 'choice' AND NOT coalesce(${choiceShapeOk}, false))`,
    kind: 'choice',
    plain: `(NOT coalesce(${plainChoiceShapeOk}, false))`,
    message: `CASE WHEN ps_t IS NULL THEN 'probabilities is missing (an object keyed by option or a list aligned with the options)'
      ELSE 'probabilities must be an object with a number in [0, 1] for every option and no other key, or a list of '
        || len(options) || ' such numbers aligned with the options (' || array_to_string(options, ', ') || ')' END`,
    keys: keysWhenMissing('ps_t', 'decision'),
  },
  {
    field: 'probabilities',
    bad: `(known AND decision_t = 'OBJECT' AND kind = 'choice' AND coalesce(${choiceShapeOk}, false)
      AND NOT abs(${alignedSum} - 1) <= ${PROBABILITY_SUM_TOLERANCE})`,
    kind: 'choice',
    plain: `(coalesce(${plainChoiceShapeOk}, false)
      AND NOT abs(${alignedSum} - 1) <= ${PROBABILITY_SUM_TOLERANCE})`,
    message: `'probabilities sum to ' || round(${alignedSum}, 6) || ', expected 1'`,
  },
  {
    field: 'picked',
    bad: `(known AND decision_t = 'OBJECT' AND kind = 'choice' AND NOT ${absent('picked_t')} AND picked_index < 0)`,
    kind: 'choice',
    plain: `(picked IS NOT NULL AND picked_index < 0)`,
    message: `'picked is not one of the options (' || array_to_string(options, ', ') || ')'`,
  },
  {
    field: 'value',
    bad: `(known AND decision_t = 'OBJECT' AND kind = 'score' AND NOT ${holds(`${isNumber('value_t', 'value')} AND value >= score_min AND value <= score_max`)})`,
    // The case's bounds are finite (the dataset is checked first), so a value within them is too.
    kind: 'score',
    plain: `(NOT ${holds('value >= score_min AND value <= score_max')})`,
    message: `CASE WHEN value_t IS NULL THEN 'value is missing (a number in ' || ${scoreRange} || ')'
      ELSE 'value must be a finite number in ' || ${scoreRange} END`,
    keys: keysWhenMissing('value_t', 'decision'),
  },
  {
    field: 'confidence',
    bad: `(known AND decision_t = 'OBJECT' AND kind = 'score' AND NOT (${absent('confidence_t')}
      OR ${holds(`confidence_t IN ${NUMBER} AND confidence >= 0 AND confidence <= 1`)}))`,
    kind: 'score',
    plain: `(NOT ${holds(PLAIN_CONFIDENCE_OK)})`,
    message: `'confidence must be a number in [0, 1]'`,
  },
];

/**
 * A row breaks one of `checks`: on a plain line by their `plain` conditions (those of one
 * kind read only for cases of that kind: in a projection DuckDB evaluates every term of an
 * OR on every row), on any other by `bad`.
 */
function anyBad(checks: readonly Check[]): string {
  const any = (conditions: readonly string[]): string =>
    conditions.length === 0 ? 'false' : conditions.map((c) => `coalesce(${c}, false)`).join('\n    OR ');
  const common = checks.filter((c) => c.kind === undefined && c.plain !== 'false');
  const byKind = CASE_KINDS.map(
    (kind) => `WHEN '${kind}' THEN ${any(checks.filter((c) => c.kind === kind).map((c) => c.plain ?? c.bad))}`,
  );
  return `CASE WHEN plain THEN ${any(common.map((c) => c.plain ?? c.bad))}
    OR CASE kind ${byKind.join(' ')} ELSE false END
    ELSE ${any(checks.map((c) => c.bad))} END`;
}

/** The check's condition on this row, plain or not. */
function badOf(c: Check): string {
  if (c.plain === undefined) return c.bad;
  const plain = c.kind === undefined ? c.plain : `(kind = '${c.kind}' AND ${c.plain})`;
  return `CASE WHEN plain THEN ${plain} ELSE ${c.bad} END`;
}

/** The row's problems; a row that is not an object has that one problem, not also every missing field. */
function problemsList(checks: readonly Check[]): string {
  const items = checks.map((c) => {
    const bad = LINE_CHECKS.includes(c)
      ? badOf(c)
      : `syntax_ok AND t = 'OBJECT' AND ${c === REPEATED_KEY ? '' : 'NOT coalesce(repeated_key, false) AND '}${badOf(c)}`;
    const field = c.field === null ? 'NULL' : sqlString(c.field);
    return `CASE WHEN coalesce(${bad}, false) THEN {'field': ${field}, 'message': ${c.message}, 'keys': ${c.keys ?? 'NULL'}::VARCHAR[]} END`;
  });
  return `list_filter([\n    ${items.join(',\n    ')}\n  ], lambda x: x IS NOT NULL)`;
}

/** How many rows break a rule, rows in all, ids that repeat, and the highest row number of dk_cases. */
export const DATASET_CHECK_SQL = `SELECT
  count(*) AS rows,
  max(rowid) AS max_row,
  count(*) FILTER (WHERE bad) AS bad_rows,
  count(id) FILTER (WHERE id_ok) - count(DISTINCT id) FILTER (WHERE id_ok) AS repeated_ids
FROM dk_cases`;

/**
 * The first `limit` problems: (case id, field, message, keys: those of the object a missing
 * key belongs in, else null), and the count of all of them.
 */
export function datasetProblemsSql(limit: number): string {
  return `SELECT id AS case_id, p.field, p.message, p.keys, count(*) OVER () AS total FROM (
  SELECT CASE WHEN id_t = 'VARCHAR' THEN id END AS id, unnest(${problemsList(DATASET_CHECKS)}) AS p FROM dk_dataset
) LIMIT ${limit}`;
}

export function repeatedIdsSql(limit: number): string {
  return `SELECT id, count(*) AS n FROM dk_cases WHERE id_ok GROUP BY id HAVING count(*) > 1 ORDER BY id LIMIT ${limit}`;
}

/** Rows that break a rule, repeated case ids, and the distinct models (two at most). */
export const RESULTS_CHECK_SQL = `SELECT
  count(*) AS rows,
  count(*) FILTER (WHERE bad) AS bad_rows,
  count(case_id) FILTER (WHERE id_ok) - count(DISTINCT case_id) FILTER (WHERE id_ok) AS repeated_ids,
  count(DISTINCT model) FILTER (WHERE model <> '') AS models,
  min(model) FILTER (WHERE model <> '') AS model
FROM dk_scored`;

export function resultsProblemsSql(limit: number): string {
  return `SELECT case_id, p.field, p.message, p.keys, count(*) OVER () AS total FROM (
  SELECT CASE WHEN case_id_t = 'VARCHAR' THEN case_id END AS case_id, unnest(${problemsList(RESULT_CHECKS)}) AS p FROM dk_results
) LIMIT ${limit}`;
}

export function repeatedCaseIdsSql(limit: number): string {
  return `SELECT case_id AS id, count(*) AS n FROM dk_scored WHERE id_ok GROUP BY case_id HAVING count(*) > 1 ORDER BY case_id LIMIT ${limit}`;
}

/** The models named (an empty one is a problem of its row, not another model). */
export const MODELS_SQL = `SELECT DISTINCT model FROM dk_scored WHERE model <> '' ORDER BY model LIMIT 5`;

/**
 * One pass over the results file into a table of one row per result: whether it breaks a
 * rule, its case id and model (for the file-wide checks), and what the core's offline
 * accumulator takes for its kind (the case's answer, the decision's numbers). The checks
 * read this table, not the file; the scoring itself (logarithms, sums) is the core's, so
 * both engines give the same numbers to the last digit.
 */
export const CREATE_SCORED_SQL = `CREATE OR REPLACE TABLE dk_scored AS
  SELECT
    ${anyBad(RESULT_CHECKS)} AS bad,
    case_id_t = 'VARCHAR' AS id_ok,
    case_id,
    CASE WHEN model_t = 'VARCHAR' THEN model END AS model,
    kind,
    correct_yes,
    CASE WHEN kind = 'yes_no' THEN p END AS p,
    correct_index,
    CASE WHEN kind = 'choice' THEN aligned END AS aligned,
    picked_index,
    correct_number,
    CASE WHEN kind = 'score' THEN value END AS value,
    cost_usd,
    latency_ms
  FROM dk_results`;

/** What the accumulator takes, in the order the engine reads the columns (see SCORED_ROWS_SQL). */
const SCORED_COLUMNS = `${scoredKindNumber('kind')} AS kind,
  correct_yes, correct_index, correct_number, p, aligned, picked_index, value, cost_usd, latency_ms`;

/**
 * The rows the checks passed, in the order of the columns the engine reads: kind (a
 * SCORED_KIND number), the case's answer (yes_no: correct_yes; choice: correct_index; score:
 * correct_number), the decision (p; aligned probabilities and picked_index, -1 for none;
 * value), cost_usd and latency_ms (null when absent). Run only when the checks found nothing.
 */
export const SCORED_ROWS_SQL = `SELECT
  ${SCORED_COLUMNS}
FROM dk_scored
WHERE NOT bad`;

/** The model named by the first row of the results (null when it names none): the one every row must name. */
export function firstModelSql(file: OfflineSqlFile): string {
  return `SELECT v ->> '$.model' AS model FROM ${jsonRowsSql(file)} LIMIT 1`;
}

/** A result's measure (cost_usd, latency_ms) is absent or a number in range: plain, then generic. */
const plainMeasureOk = (x: string): string => `NOT ${holds(plainMeasureBad(x))}`;
const measureOk = (t: string, x: string): string => `NOT ${measureBad(t, x)}`;

/**
 * What the one-pass query knows of a row before its case is joined: `ok` (it passes every
 * check that needs no case, and names `firstModel`), whether its decision is one a case of
 * each kind takes as far as the case does not matter (`yes_no_ok`, `choice_ok`, `score_ok`),
 * and the few values the checks after the join and the scoring read. Only these enter the
 * join's hash table, not the two dozen columns the checks read.
 */
function caseFreeSql(firstModel: string): string {
  const model = sqlString(firstModel);
  const ok = either(
    `NOT repeated_key AND case_id <> '' AND model = ${model} AND ${plainMeasureOk('cost_usd')} AND ${plainMeasureOk('latency_ms')}`,
    `syntax_ok AND t = 'OBJECT' AND NOT repeated_key AND case_id_t = 'VARCHAR' AND case_id <> ''
      AND model_t = 'VARCHAR' AND model = ${model} AND ${measureOk('cost_t', 'cost_usd')} AND ${measureOk('latency_t', 'latency_ms')}
      AND decision_t = 'OBJECT'`,
  );
  return `SELECT
    case_id,
    ${holds(ok)} AS ok,
    ${holds(either('p IS NOT NULL', `p_t IN ${NUMBER} AND p >= 0 AND p <= 1`))} AS yes_no_ok,
    ${holds(
      either(
        'true',
        `ps_t IN ('ARRAY', 'OBJECT') AND ${isProbabilityList} AND (${absent('picked_t')} OR picked_t = 'VARCHAR')`,
      ),
    )} AS choice_ok,
    ${holds(
      either(
        `value IS NOT NULL AND (${PLAIN_CONFIDENCE_OK})`,
        `${isNumber('value_t', 'value')} AND (${absent('confidence_t')} OR (confidence_t IN ${NUMBER} AND confidence >= 0 AND confidence <= 1))`,
      ),
    )} AS score_ok,
    p,
    ps_values,
    CASE WHEN ps_t = 'OBJECT' THEN ps_keys END AS ps_keys,
    CASE WHEN picked_t = 'VARCHAR' THEN picked END AS picked,
    value,
    cost_usd,
    latency_ms
  FROM dk_result_fields`;
}

/**
 * The results in one pass, straight from the file (no table): SCORED_ROWS_SQL's columns
 * after two of their own, `stop` (the row breaks a rule, or names a model other than
 * `firstModel`) and `case_row` (its case's row in dk_cases, for the engine to find a case
 * given twice). Any `stop` or repeated case means the file has a problem: the engine then
 * builds dk_scored and lists the problems from it, so a valid file is read once and an
 * invalid one gets the same messages as ever. `stop` may be true of a row the long way finds
 * nothing wrong with (a null where a check reads one), never false of one it refuses. On a
 * plain line, three rules are left to the engine, which reads the values anyway: P(yes) and
 * each of a choice's probabilities in [0, 1], and a choice's probabilities summing to 1
 * within PROBABILITY_SUM_TOLERANCE, added left to right in option order.
 */
export function onePassRowsSql(firstModel: string): string {
  const aligned = `CASE WHEN r.ps_keys IS NULL THEN r.ps_values
    ELSE list_transform(c.options, lambda o: r.ps_values[list_position(r.ps_keys, o)]) END`;
  const choiceOk = `r.choice_ok
      AND CASE WHEN r.ps_keys IS NULL THEN len(r.ps_values) = len(c.options)
        ELSE len(r.ps_keys) = len(c.options) AND list_has_all(r.ps_keys, c.options) END
      AND (r.picked IS NULL OR list_contains(c.options, r.picked))`;
  return `WITH r AS (
  ${caseFreeSql(firstModel)}
)
SELECT
  NOT coalesce(r.ok AND c.id IS NOT NULL AND CASE c.kind_code
    WHEN ${SCORED_KIND.yes_no} THEN r.yes_no_ok
    WHEN ${SCORED_KIND.choice} THEN ${choiceOk}
    ELSE r.score_ok AND r.value >= c.score_min AND r.value <= c.score_max END, false) AS stop,
  -- A double, which JavaScript reads as a number (a BIGINT would be a BigInt a row).
  CAST(c.rowid AS DOUBLE) AS case_row,
  c.kind_code AS kind,
  c.correct_yes,
  c.correct_index,
  c.correct_number,
  r.p,
  ${aligned} AS aligned,
  CAST(coalesce(list_position(c.options, r.picked), 0) - 1 AS INTEGER) AS picked_index,
  r.value,
  r.cost_usd,
  r.latency_ms
FROM r
LEFT JOIN dk_cases c ON c.id = r.case_id`;
}
