/**
 * `score --engine duckdb`: scores a results file against a dataset inside DuckDB (the
 * optional package @duckdb/node-api, loaded only here), so files larger than memory stream
 * through DuckDB's readers instead of this process. The checks and the join of results to
 * cases are SQL from core/offline/duckdb-scoring-sql.ts; the rows that pass are streamed into
 * the core's offline accumulator, so the numbers are the in-process scorer's to the last
 * digit, rendered by the same renderers. What the engine checks (and does not) is in docs/file-formats.md.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecidekitError, InvalidInputError, OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { KNOWN_KEYS_BESIDE, misspeltKeyHint } from '../../core/offline/misspelt-key.js';
import {
  CREATE_CASES_SQL,
  CREATE_SCORED_SQL,
  DATASET_CHECK_SQL,
  datasetProblemsSql,
  datasetViewSql,
  firstModelSql,
  MODELS_SQL,
  onePassRowsSql,
  PARQUET_JSON_TEXT_COLUMNS,
  parquetColumnsSql,
  repeatedCaseIdsSql,
  repeatedIdsSql,
  RESULTS_CHECK_SQL,
  RESULTS_VIEW_SQL,
  resultFieldsViewSql,
  resultsProblemsSql,
  SCORED_KIND,
  SCORED_ROWS_SQL,
  type OfflineSqlFile,
} from '../../core/offline/duckdb-scoring-sql.js';
import { DEFAULT_YES_NO_THRESHOLD } from '../../core/offline/prediction.js';
import { PROBABILITY_SUM_TOLERANCE } from '../../core/question.js';
import { DEFAULT_CONVENTIONS, type Conventions } from '../../core/stats/conventions.js';
import { createOfflineAccumulator, type OfflineSummary } from '../../core/offline/summary.js';
import { DEFAULT_PROBLEM_CAP, ProblemList } from '../../core/problem-list.js';
import type { ScoredModel } from '../../core/offline/scored-files.js';
import { startsWithParquetMagic } from '../../datasets/parquet-rows.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { irregularCodeOf } from '../../datasets/input-file.js';
import { isProbability } from '../../core/json-value.js';

/** The version `score --engine duckdb` is tested with (package.json pins it). */
export const DUCKDB_PACKAGE = '@duckdb/node-api@1.5.6-r.1';

/** DuckDB's memory limit for scoring; tables, joins and aggregates beyond it spill to a temp folder. */
export const DUCKDB_MEMORY_LIMIT = '1GB';

/** The database file of one scoring, in its own temp folder (removed afterwards). */
const DATABASE_FILE = 'scoring.duckdb';

type DuckDbModule = typeof import('@duckdb/node-api');
type Connection = Awaited<ReturnType<Awaited<ReturnType<DuckDbModule['DuckDBInstance']['create']>>['connect']>>;

export interface DuckDbScoreOptions {
  /** yes/no cases: predicted yes iff P(yes) >= threshold (default 0.5). */
  readonly threshold?: number;
  /**
   * ECE conventions (default DEFAULT_CONVENTIONS): only equal-width bins pooled over
   * decisions, the convention that streams; the bin count may vary. No intervals.
   */
  readonly conventions?: Conventions;
  /** DuckDB's memory limit (its own syntax: `'1GB'`, `'64MB'`); default DUCKDB_MEMORY_LIMIT. */
  readonly memoryLimit?: string;
  /** The folder its own temp folder (database file and spill files) is made in; default the system's. */
  readonly tempRoot?: string;
  /** How the package is loaded (tests pass one that fails). Default: `require('@duckdb/node-api')`. */
  readonly importDuckDb?: () => Promise<DuckDbModule>;
}

/**
 * The package through require: it is CommonJS, and an ESM import of it first scans each of its
 * 150-odd files for their exports (about 80 ms of CPU at every scoring).
 */
const requireDuckDb = async (): Promise<DuckDbModule> =>
  createRequire(import.meta.url)('@duckdb/node-api') as DuckDbModule;

/** Loads the optional package, or says how to install it (a usage error: exit 2). */
export async function loadDuckDb(importDuckDb: () => Promise<DuckDbModule>): Promise<DuckDbModule> {
  try {
    return await importDuckDb();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new OptionError(
      'engine',
      words`${option('engine', 'duckdb')} needs the optional package @duckdb/node-api, which is not installed (install it beside decidekit: npm install ${DUCKDB_PACKAGE}; or score with the default ${option('engine', 'node')})`,
    );
  }
}

/** Scores one results file against a dataset in DuckDB. Problems of both files throw InvalidInputError. */
export async function scoreWithDuckDb(
  datasetPath: string,
  resultsPath: string,
  options: DuckDbScoreOptions = {},
): Promise<ScoredModel> {
  const threshold = options.threshold ?? DEFAULT_YES_NO_THRESHOLD;
  const conventions = options.conventions ?? DEFAULT_CONVENTIONS;
  if (conventions.eceBinning !== 'equal-width' || conventions.eceAverage !== 'pooled')
    throw new OptionError(
      'engine',
      words`${option('engine', 'duckdb')} computes ECE with equal-width bins pooled over decisions only; ${option('conventions.eceBinning', 'equal-mass')} and ${option('conventions.eceAverage', 'per-question')} need every decision in memory (use ${option('engine', 'node')})`,
    );
  const dataset = await fileOf(datasetPath);
  const results = await fileOf(resultsPath);
  const duckdb = await loadDuckDb(options.importDuckDb ?? requireDuckDb);
  // A database file, not ':memory:': the table a results file with problems is checked from is
  // written out, and DuckDB spills (the cases' temp table too) beyond its memory limit, all in
  // a temp folder of its own (not the user's folder), removed afterwards.
  const folder = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'decidekit-duckdb-'));
  try {
    const instance = await duckdb.DuckDBInstance.create(join(folder, DATABASE_FILE), {
      temp_directory: join(folder, 'spill'),
      // Beyond this, DuckDB spills to the temp folder: memory stays bounded whatever the file size.
      memory_limit: options.memoryLimit ?? DUCKDB_MEMORY_LIMIT,
      preserve_insertion_order: 'false',
    });
    const connection = await instance.connect();
    try {
      const cases = await checkDataset(connection, await withJsonColumns(connection, dataset));
      const resultsFile = await withJsonColumns(connection, results);
      const accumulator = { threshold, eceBins: conventions.eceBins };
      const scored =
        (await scoreInOnePass(connection, resultsFile, accumulator, cases)) ??
        (await scoreAfterChecks(connection, resultsFile, accumulator, cases.rows));
      return { datasetPath, resultsPath, ...scored, conventions, stats: null };
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function fileOf(path: string): Promise<OfflineSqlFile> {
  // DuckDB reads a path with these characters as a glob pattern (several files).
  if (/[*?[\]{}]/.test(path))
    throw new OptionError(
      'engine',
      words`${option('engine', 'duckdb')} cannot read ${path}: rename it without * ? [ ] { } (DuckDB reads those as a pattern)`,
    );
  try {
    const code = irregularCodeOf(await stat(path));
    if (code !== null) throw unreadable(path, fileErrorWords({ code }));
    // As the default engine: a .parquet name, or the Parquet magic bytes under any name.
    return { path, format: /\.parquet$/i.test(path) || (await startsWithParquetMagic(path)) ? 'parquet' : 'jsonl' };
  } catch (err) {
    if (err instanceof DecidekitError) throw err;
    throw unreadable(path, fileErrorWords(err));
  }
}

function unreadable(path: string, hint: string): DecidekitError {
  return new DecidekitError('file_unreadable', `cannot read file: ${path} (${hint})`, { context: { file: path } });
}

/** A Parquet file's text columns that hold JSON (see PARQUET_JSON_TEXT_COLUMNS) and its struct columns. */
async function withJsonColumns(connection: Connection, file: OfflineSqlFile): Promise<OfflineSqlFile> {
  if (file.format !== 'parquet') return file;
  const columns = await reading(file, () => rowsOf(connection, parquetColumnsSql(file.path)));
  const jsonTextColumns = columns
    .filter((c) => PARQUET_JSON_TEXT_COLUMNS.includes(String(c['column_name'])) && c['column_type'] === 'VARCHAR')
    .map((c) => String(c['column_name']));
  const structColumns = columns
    .filter((c) => String(c['column_type']).startsWith('STRUCT('))
    .map((c) => String(c['column_name']));
  return { ...file, jsonTextColumns, structColumns };
}

async function rowsOf(connection: Connection, sql: string): Promise<Record<string, unknown>[]> {
  return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

/** Runs `step`; an error DuckDB raises reading `file` (malformed JSON, not Parquet) is a problem of that file. */
async function reading<T>(file: OfflineSqlFile, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof DecidekitError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    // Only errors about the file's content or access; anything else (a query bug) is not the user's input.
    if (!/^(Invalid Input|IO|Conversion) Error/.test(message)) throw err;
    const first = message.split('\n')[0]!.replace(/^[A-Za-z ]+ Error: /, '');
    throw new InvalidInputError([{ file: file.path, line: null, message: readingProblem(first) }]);
  }
}

/**
 * DuckDB's words for a file it cannot read. A line that is not JSON is said as the default
 * engine says it; DuckDB's "line N" is left out, since it counts JSON lines from 2 (blank
 * lines not counted) and so names the wrong line.
 */
function readingProblem(duckDbMessage: string): string {
  const malformed = /^Malformed JSON in file .*, at byte \d+ in line \d+: (.+?)\.?\s*$/.exec(duckDbMessage);
  if (malformed === null) return `DuckDB cannot read it: ${duckDbMessage}`;
  if (/byte order mark/i.test(malformed[1]!))
    return 'it starts with a byte order mark, which DuckDB does not read (save it as UTF-8 without one, or score with the default engine)';
  return `not valid JSON (${malformed[1]}; the default engine names the line)`;
}

/** The dataset's size: its cases, and the highest row number of dk_cases (-1 with none). */
interface CaseRows {
  readonly rows: number;
  readonly maxRow: number;
}

async function checkDataset(connection: Connection, file: OfflineSqlFile): Promise<CaseRows> {
  return reading(file, async () => {
    await connection.run(datasetViewSql(file));
    await connection.run(CREATE_CASES_SQL);
    const [check] = await rowsOf(connection, DATASET_CHECK_SQL);
    const rows = Number(check!['rows']);
    const problems = new ProblemList();
    if (rows === 0) problems.add({ file: file.path, line: null, message: 'no cases (the dataset is empty)' });
    await addProblems(connection, file, problems, Number(check!['bad_rows']), datasetProblemsSql);
    if (Number(check!['repeated_ids']) > 0)
      for (const r of await rowsOf(connection, repeatedIdsSql(DEFAULT_PROBLEM_CAP)))
        problems.add({
          file: file.path,
          line: null,
          caseId: String(r['id']),
          field: 'id',
          message: `duplicate id ${JSON.stringify(r['id'])} (${Number(r['n'])} cases)`,
        });
    problems.throwIfAny();
    return { rows, maxRow: check!['max_row'] === null ? -1 : Number(check!['max_row']) };
  });
}

async function checkResults(connection: Connection, file: OfflineSqlFile): Promise<string | null> {
  return reading(file, async () => {
    await connection.run(resultFieldsViewSql(file));
    await connection.run(RESULTS_VIEW_SQL);
    await connection.run(CREATE_SCORED_SQL);
    const [check] = await rowsOf(connection, RESULTS_CHECK_SQL);
    const problems = new ProblemList();
    if (Number(check!['rows']) === 0) problems.add({ file: file.path, line: null, message: 'no results in the file' });
    await addProblems(connection, file, problems, Number(check!['bad_rows']), resultsProblemsSql);
    if (Number(check!['repeated_ids']) > 0)
      for (const r of await rowsOf(connection, repeatedCaseIdsSql(DEFAULT_PROBLEM_CAP)))
        problems.add({
          file: file.path,
          line: null,
          caseId: String(r['id']),
          field: 'case_id',
          message: `duplicate result for this case (${Number(r['n'])} results)`,
        });
    if (Number(check!['models']) > 1) {
      const models = (await rowsOf(connection, MODELS_SQL)).map((r) => JSON.stringify(r['model']));
      problems.add({
        file: file.path,
        line: null,
        field: 'model',
        message: `more than one model (${models.join(', ')}${Number(check!['models']) > models.length ? ', …' : ''}): one results file is one model`,
      });
    }
    problems.throwIfAny();
    const model = check!['model'];
    return model === null || model === undefined ? null : String(model);
  });
}

async function addProblems(
  connection: Connection,
  file: OfflineSqlFile,
  problems: ProblemList,
  badRows: number,
  listSql: (limit: number) => string,
): Promise<void> {
  if (badRows === 0) return;
  const listed = await rowsOf(connection, listSql(DEFAULT_PROBLEM_CAP));
  for (const r of listed) {
    const caseId = r['case_id'];
    const field = r['field'];
    problems.add({
      file: file.path,
      line: null,
      // An empty case id is not a case to name (its row's problem says it is empty).
      ...(typeof caseId === 'string' && caseId !== '' ? { caseId } : {}),
      ...(typeof field === 'string' ? { field } : {}),
      message: `${String(r['message'])}${missingKeyHint(field, r['keys'])}`,
    });
  }
  problems.omitted += Math.max(0, Number(listed[0]?.['total'] ?? 0) - listed.length);
}

/** The "did you mean" of a missing `field` when the `keys` of its object hold one that looks like it misspelt. */
function missingKeyHint(field: unknown, keys: unknown): string {
  if (typeof field !== 'string' || !Array.isArray(keys)) return '';
  return misspeltKeyHint(keys.map(String), field, KNOWN_KEYS_BESIDE[field] ?? [field]);
}

interface AccumulatorSettings {
  readonly threshold: number;
  readonly eceBins: number;
}

interface Scored {
  readonly model: string | null;
  readonly summary: OfflineSummary;
}

/**
 * A valid results file in one pass: its rows are checked, joined to their cases and summed as
 * they stream from the file, with no table written. Null when the pass meets anything to
 * report (a row that breaks a rule, a case given twice, a second model, no rows): the caller
 * then checks the file the long way, which names every problem.
 */
async function scoreInOnePass(
  connection: Connection,
  file: OfflineSqlFile,
  settings: AccumulatorSettings,
  cases: CaseRows,
): Promise<Scored | null> {
  return reading(file, async () => {
    const [first] = await rowsOf(connection, firstModelSql(file));
    const model = typeof first?.['model'] === 'string' ? first['model'] : null;
    if (model === null || model === '') return null;
    await connection.run(resultFieldsViewSql(file));
    // One bit a case: a case given twice is a problem, found without a table of case ids.
    const seen = new Uint8Array(Math.floor(cases.maxRow / 8) + 1);
    let rows = 0;
    const summary = await streamScoredRows(connection, onePassRowsSql(model), 2, settings, cases.rows, (chunk, n) => {
      const stop = chunk.getColumnVector(0);
      const caseRow = chunk.getColumnVector(1);
      for (let i = 0; i < n; i++) {
        if (stop.getItem(i) !== false) return false;
        const row = caseRow.getItem(i) as number;
        const byte = Math.floor(row / 8);
        const bit = 1 << (row % 8);
        if ((seen[byte]! & bit) !== 0) return false;
        seen[byte]! |= bit;
      }
      rows += n;
      return true;
    });
    return summary === null || rows === 0 ? null : { model, summary };
  });
}

/** Checks the results the long way (a table of them, every problem listed), then sums the rows that passed. */
async function scoreAfterChecks(
  connection: Connection,
  file: OfflineSqlFile,
  settings: AccumulatorSettings,
  nCases: number,
): Promise<Scored> {
  const model = await checkResults(connection, file);
  const summary = await reading(file, () =>
    streamScoredRows(connection, SCORED_ROWS_SQL, 0, settings, nCases, () => true),
  );
  return { model, summary: summary! };
}

type Chunk = NonNullable<Awaited<ReturnType<Awaited<ReturnType<Connection['stream']>>['fetchChunk']>>>;

/**
 * Sums the rows of `sql` (SCORED_ROWS_SQL's columns from `firstColumn` on) by the
 * core's offline accumulator (the one the in-process engine uses): the same logarithms and
 * exact sums, so the same numbers to the last digit, whatever order DuckDB's threads give the
 * rows in. The rows stream chunk by chunk, column by column: nothing but the running sums
 * stays in this process. `accept` sees each chunk first; when it says no, the sum stops and
 * is null.
 */
async function streamScoredRows(
  connection: Connection,
  sql: string,
  firstColumn: number,
  settings: AccumulatorSettings,
  nCases: number,
  accept: (chunk: Chunk, rowCount: number) => boolean,
): Promise<OfflineSummary | null> {
  const acc = createOfflineAccumulator(settings);
  const probabilities: number[] = [];
  const result = await connection.stream(sql);
  for (let chunk = await result.fetchChunk(); chunk !== null; chunk = await result.fetchChunk()) {
    // rowCount is a call into DuckDB: read once a chunk.
    const n = chunk.rowCount;
    if (n === 0) break;
    if (!accept(chunk, n)) return null;
    const [kind, correctYes, correctIndex, correctNumber, p, aligned, pickedIndex, value, cost, latency] = Array.from(
      { length: 10 },
      (_, i) => chunk!.getColumnVector(firstColumn + i),
    );
    const list = aligned as InstanceType<DuckDbModule['DuckDBListVector']>;
    const listItems = list.childVector;
    for (let i = 0; i < n; i++) {
      const costUsd = (cost!.getItem(i) as number | null) ?? NaN;
      const latencyMs = (latency!.getItem(i) as number | null) ?? NaN;
      const k = kind!.getItem(i) as number;
      // The one-pass query leaves a plain line's probability bounds and the sum here, where
      // the values are read anyway; the long way has checked them already.
      if (k === SCORED_KIND.yes_no) {
        const probability = p!.getItem(i) as number | null;
        if (!isProbability(probability)) return null;
        acc.addYesNo(correctYes!.getItem(i) === true, probability, costUsd, latencyMs);
      } else if (k === SCORED_KIND.choice) {
        const offset = list.getEntryOffset(i);
        const length = list.getEntryLength(i);
        probabilities.length = length;
        // The strict loader's sum: left to right in option order, from 0.
        let sum = 0;
        for (let j = 0; j < length; j++) {
          const probability = listItems.getItem(offset + j) as number | null;
          if (!isProbability(probability)) return null;
          sum += probabilities[j] = probability;
        }
        if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE)) return null;
        acc.addChoice(
          correctIndex!.getItem(i) as number,
          probabilities,
          pickedIndex!.getItem(i) as number,
          costUsd,
          latencyMs,
        );
      } else acc.addScore(correctNumber!.getItem(i) as number, value!.getItem(i) as number, costUsd, latencyMs);
    }
  }
  return acc.summarize(nCases);
}
