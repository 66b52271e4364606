/**
 * The decision table as Parquet from the store's CSV text of the run (`StoreCases.decisionCsv`,
 * format in `store/decision-csv.ts`), written by DuckDB: one `COPY (SELECT … FROM read_csv(…))
 * TO … (FORMAT parquet)` makes every column from the text, so no value passes through
 * JavaScript one at a time. The text goes through named pipes, made by a worker thread while
 * DuckDB reads them (`decision-text-pipes.ts`), or, where pipes cannot be made, into temp
 * files first. What the store's text leaves
 * to its reader is checked here with the flat read's rules: a status or failure kind no saved
 * case has, and JSON texts that are not arrays of numbers (distributions) or of strings
 * (answers), written as `JSON.stringify` writes them. The log loss is computed by JavaScript's
 * own `Math.log` (`logLoss`), handed DuckDB as a function over whole vectors: DuckDB's `ln`
 * differs from it in the last bit for about one value in twenty.
 *
 * Anything this path cannot write as the flat read would (the store declining its text, a row
 * failing a check, DuckDB refusing the text) makes it return false having written nothing:
 * the caller then writes the run from the flat read, which names any damage.
 */
import { openSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBDoubleVector } from '@duckdb/node-api';
import { given } from '../../core/given.js';
import { logLoss } from '../../core/decision-score.js';
import { DECISION_COLUMNS, runLevelValuesOf, type DecisionRowContext } from '../../core/export/decision-row.js';
import { FAILURE_KINDS } from '../../core/typed-decisions/case-result.js';
import { quoteIdentifier, sqlString } from '../../core/sql-text.js';
import { isPostgresUrl } from '../../core/store-url.js';
import { CSV_QUOTE, DECISION_CSV_COLUMNS } from '../../store/decision-csv.js';
import type { Store } from '../../store/store.js';
import { PARQUET_ROW_GROUP, type ParquetKeyValue } from './decision-parquet-rules.js';
import { dropTempFolder } from '../../store/temp-folders.js';
import {
  copyFileInto,
  exportInstance,
  interruptOnAbort,
  literalOf,
  makeExportFolder,
  throwIfStopped,
  type DuckDbModule,
} from './decision-parquet-duckdb.js';
import { pipeDecisionText, type PipedDecisionText } from './decision-text-pipes.js';
import { textSplitter } from './decision-text-format.js';

/** The text goes into pipes (or files) of about this many bytes, read one after the other. */
const FILE_BYTES = 16 << 20;

const NUMBER = String.raw`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`;
/** A JSON array of numbers with no white space, as `JSON.stringify` writes one. */
const NUMBER_ARRAY = String.raw`\[(${NUMBER}(,${NUMBER})*)?\]`;
const STRING = String.raw`"([^"\\\x00-\x1f]|\\["\\/bfnrt])*"`;
/** A JSON array of strings (no `\u` escapes: those go the flat read's way). */
const STRING_ARRAY = String.raw`\[(${STRING}(,${STRING})*)?\]`;

const CSV_TYPES = { text: 'VARCHAR', integer: 'BIGINT' } as const;

/** `read_csv`'s columns: a real's two fields as integers. */
function csvColumns(): string {
  const fields = DECISION_CSV_COLUMNS.flatMap((c) =>
    c.kind === 'real' ? [`${c.name}_m: 'BIGINT'`, `${c.name}_e: 'BIGINT'`] : [`${c.name}: '${CSV_TYPES[c.kind]}'`],
  );
  return `{${fields.join(', ')}}`;
}

/** A real column read back: m·2⁻ᵉ, scaled in two steps (each exact: the result is the double the store holds). */
const real = (name: string): string =>
  `${name}_m::DOUBLE * pow(2.0, -(${name}_e // 2)) * pow(2.0, -(${name}_e - ${name}_e // 2))`;

/** The `SELECT` making every decision-table column from the text's fields (`r`), checked. */
function selectSql(files: readonly string[], context: DecisionRowContext): string {
  const { config } = context;
  const kinds = FAILURE_KINDS.map(sqlString).join(', ');
  const answered = `status = 'answered'`;
  const price = config.pricePerMtokUsd;
  const run: Record<string, unknown> = runLevelValuesOf(context);
  const ok = `(status = 'failed' AND error_kind IN (${kinds})
      OR ${answered} AND predicted IS NOT NULL AND regexp_full_match(predicted_distribution, ${sqlString(NUMBER_ARRAY)}))
    AND status IS NOT NULL AND regexp_full_match(answers, ${sqlString(STRING_ARRAY)})
    AND regexp_full_match(gold_distribution, ${sqlString(NUMBER_ARRAY)})`;
  const columns: Record<string, string> = {
    case_id: 'case_id',
    workflow: 'workflow',
    question_id: 'question_id',
    question_key: `workflow || '/' || question_id`,
    question_index: 'question_index',
    type: 'type',
    // A row failing a check stops the COPY (the caller then reads the run the flat way).
    status: `CASE WHEN ${ok} THEN status ELSE error('decidekit: a decision the flat read refuses') END`,
    gold_label: 'gold_label',
    predicted: `CASE WHEN ${answered} THEN predicted END`,
    gold_level: `CASE WHEN type = 'score' THEN coalesce(list_position(answer_list, gold_label), 0)::BIGINT - 1 END`,
    predicted_level: `CASE WHEN type = 'score' AND ${answered} THEN coalesce(list_position(answer_list, predicted), 0)::BIGINT - 1 END`,
    correct: `coalesce(${answered} AND correct = 1, false)`,
    confidence: `CASE WHEN ${answered} THEN ${real('confidence')} END`,
    kl: `CASE WHEN ${answered} THEN ${real('kl')} END`,
    brier: `CASE WHEN ${answered} THEN ${real('brier')} END`,
    log_loss: `CASE WHEN ${answered} THEN dk_log_loss(coalesce(list_extract(from_json(predicted_distribution, '["DOUBLE"]'), list_position(answer_list, gold_label)), 0)) END`,
    answers: 'answers',
    gold_distribution: 'gold_distribution',
    predicted_distribution: `CASE WHEN ${answered} THEN predicted_distribution END`,
    latency_ms: real('latency_ms'),
    input_tokens: `CASE WHEN request_answered = 1 THEN input_tokens END`,
    cost_usd:
      price === null
        ? 'CAST(NULL AS DOUBLE)'
        : `CASE WHEN request_answered = 1 THEN ((coalesce(input_tokens, 0)::DOUBLE * ${literalOf('double', price)}) / 1000000.0) / case_decisions ELSE 0.0 END`,
    error_kind: `CASE WHEN ${answered} THEN NULL ELSE error_kind END`,
    error_message: `CASE WHEN ${answered} THEN NULL ELSE coalesce(error_message, '') END`,
  };
  const select = DECISION_COLUMNS.map((column) => {
    const name = quoteIdentifier(column.name);
    if (column.name in run) return `${literalOf(column.type, run[column.name] as never)} AS ${name}`;
    return `${columns[column.name]!} AS ${name}`;
  });
  const quote = sqlString(CSV_QUOTE);
  const source = `read_csv([${files.map(sqlString).join(', ')}], columns = ${csvColumns()}, header = false, auto_detect = false,
    delim = ',', quote = ${quote}, escape = ${quote}, allow_quoted_nulls = false, parallel = false)`;
  return `SELECT ${select.join(',\n  ')}
    FROM (SELECT *, from_json(answers, '["VARCHAR"]') AS answer_list FROM ${source})`;
}

/** Cases a pipe is made for: about `FILE_BYTES` of text at five decisions a case (the last pipe takes any more). */
const CASES_PER_PIPE = 8000;

/** How the text reaches DuckDB, and what stops the write. */
export interface FromCsvOptions {
  /** Through named pipes made by a worker thread (default true), or temp files made first. */
  readonly pipes?: boolean;
  /** Aborted (Ctrl+C): DuckDB's `COPY` is interrupted, the worker let go, and the export fails as `aborted`. */
  readonly signal?: AbortSignal;
  /**
   * The text format the worker is asked for (default these sources', `decisionTextFormat()`);
   * another makes it refuse, as a compiled worker older than the sources does.
   */
  readonly textFormat?: string;
}

/**
 * Writes the stored run's decision table as Parquet into `fd` through the store's CSV text;
 * the number of decisions, or null (nothing written) when the run is to be written the flat way.
 */
export async function writeStoredDecisionParquetFromCsv(
  duckdb: DuckDbModule,
  fd: number,
  store: Store,
  context: DecisionRowContext,
  metadata: readonly ParquetKeyValue[],
  { pipes = true, signal, textFormat }: FromCsvOptions = {},
): Promise<number | null> {
  throwIfStopped(signal);
  const folder = makeExportFolder();
  try {
    // Each case's count of decisions only for a priced run's cost.
    const caseDecisions = context.config.pricePerMtokUsd !== null;
    const piped =
      !pipes || isPostgresUrl(store.path)
        ? null
        : pipeDecisionText(folder, Math.ceil(context.config.caseIds.length / CASES_PER_PIPE) + 1, {
            // A store read through a temp copy: the worker reads that copy, not a second one.
            storePath: store.copyPath ?? store.path,
            runId: context.runId,
            pipeBytes: FILE_BYTES,
            caseDecisions,
            ...given({ format: textFormat }),
          });
    const copy = { duckdb, fd, folder, context, metadata, signal };
    if (piped !== null) {
      const written = await copyToParquet(copy, piped.pipes, piped);
      // A compiled worker older than these sources wrote nothing: the text goes into files.
      if (written !== 'stale') return written;
    }
    const files = writeTextFiles(folder, store, context.runId, caseDecisions);
    const written = files === null ? null : await copyToParquet(copy, files, null);
    return written === 'stale' ? null : written;
  } finally {
    dropTempFolder(folder);
  }
}

/** The run's text in temp files of about `FILE_BYTES` (where pipes cannot be used); null when the store declines it. */
function writeTextFiles(folder: string, store: Store, runId: string, caseDecisions: boolean): string[] | null {
  const files: string[] = [];
  // DuckDB holds a file it reads in its memory: a file of a few megabytes at a time bounds it.
  const text = textSplitter(() => {
    // Named apart from the pipes, which a stale worker left in the folder.
    files.push(join(folder, `text-${files.length}.csv`));
    return openSync(files.at(-1)!, 'w');
  }, FILE_BYTES);
  let offered: boolean;
  try {
    offered = store.cases.decisionCsv(runId, text.write, { caseDecisions });
  } finally {
    text.close();
  }
  // An empty run has no text: the flat read writes its empty typed table.
  return offered && files.length > 0 ? files : null;
}

/** What one `COPY` writes, where, and what stops it. */
interface CopyTarget {
  readonly duckdb: DuckDbModule;
  readonly fd: number;
  /** The export's temp folder: DuckDB's file and its spill go there. */
  readonly folder: string;
  readonly context: DecisionRowContext;
  readonly metadata: readonly ParquetKeyValue[];
  readonly signal: AbortSignal | undefined;
}

/**
 * DuckDB's `COPY` of the text in `sources` (files, or pipes `piped` is writing) into `fd`;
 * the number of decisions, or null when DuckDB refused the text, the worker did not write all
 * of it, or there was none; `stale` when the worker wrote nothing for making another text
 * format (the text is then to go into files). An abort of `signal` interrupts the `COPY`; once the worker is let
 * go, the export fails as `aborted`.
 */
async function copyToParquet(
  { duckdb, fd, folder, context, metadata, signal }: CopyTarget,
  sources: readonly string[],
  piped: PipedDecisionText | null,
): Promise<number | null | 'stale'> {
  const out = join(folder, 'decisions.parquet');
  const instance = await exportInstance(duckdb, folder);
  const connection = await instance.connect();
  const unwatch = interruptOnAbort(connection, signal);
  try {
    connection.registerScalarFunction(
      duckdb.DuckDBScalarFunction.create({
        name: 'dk_log_loss',
        returnType: duckdb.DOUBLE,
        parameterTypes: [duckdb.DOUBLE],
        mainFunction: (_info, input, output) => {
          const p = input.getColumnVector(0) as DuckDBDoubleVector;
          const o = output as DuckDBDoubleVector;
          for (let i = 0; i < input.rowCount; i++) {
            const v = p.getItem(i);
            o.setItem(i, v === null ? null : logLoss(v));
          }
          o.flush();
        },
      }),
    );
    const kv = metadata.map((m) => `${sqlString(m.key)}: ${sqlString(m.value)}`).join(', ');
    const copy = connection.run(
      `COPY (${selectSql(sources, context)}) TO ${sqlString(out)} (FORMAT parquet, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP}, KV_METADATA {${kv}})`,
    );
    const end = piped === null ? 'whole' : await piped.finish(copy);
    const result = await copy.catch(() => null);
    // Interrupted: not a text DuckDB refused, so not to be written the flat way.
    throwIfStopped(signal);
    if (end === 'stale') return 'stale';
    // No rows (an empty run): the flat read writes its empty typed table.
    if (end !== 'whole' || result === null || result.rowsChanged === 0) return null;
    copyFileInto(out, fd);
    return result.rowsChanged;
  } finally {
    unwatch();
    connection.closeSync();
    instance.closeSync();
  }
}
