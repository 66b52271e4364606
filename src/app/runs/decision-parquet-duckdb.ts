/**
 * The decision table as Parquet written by DuckDB (the optional package @duckdb/node-api):
 * `COPY (SELECT … FROM dk_decision_rows()) TO … (FORMAT parquet)`, where `dk_decision_rows`
 * is a table function that hands DuckDB the rows a chunk of 2,048 at a time as DuckDB asks
 * for them. Nothing is stored on the way (no table, no temp file of rows): the rows stream
 * from the store into DuckDB's Parquet writer, in run order. The columns every row of a run
 * repeats (`RUN_LEVEL_COLUMNS`) are literals of the `COPY`, not values handed over a row at
 * a time; a missing number goes as NaN (no stored number is NaN) and the `COPY` makes it null.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBDataChunk, DuckDBType } from '@duckdb/node-api';
import { DecidekitError } from '../../core/errors.js';
import {
  DECISION_COLUMNS,
  RUN_LEVEL_COLUMNS,
  type DecisionColumnType,
  type DecisionRow,
} from '../../core/export/decision-row.js';
import { quoteIdentifier, sqlString } from '../../core/sql-text.js';
import { dropTempFolder, makeTempFolder } from '../../store/temp-folders.js';
import { checkedParquetInteger, PARQUET_ROW_GROUP, type ParquetKeyValue } from './decision-parquet-rules.js';

export type DuckDbModule = typeof import('@duckdb/node-api');

/** Rows a chunk: DuckDB's vector size, the most one data chunk holds. */
const CHUNK_ROWS = 2048;

/** DuckDB's memory while it writes (a row group of columns at a time). */
const MEMORY_LIMIT = '256MB';

/**
 * The in-memory DuckDB an export writes its Parquet file with: spilling into the export's temp
 * folder, under its memory limit, on one thread. One thread because the rows (or the log loss)
 * come from callbacks on the JavaScript thread, and DuckDB's other threads spent their time
 * waiting on them (up to 4 s more CPU on a 100,000-case run).
 */
export function exportInstance(duckdb: DuckDbModule, folder: string) {
  return duckdb.DuckDBInstance.create(':memory:', {
    temp_directory: join(folder, 'spill'),
    memory_limit: MEMORY_LIMIT,
    threads: '1',
  });
}

/**
 * The temp folder of one export (DuckDB's file, its spill, the pipes), kept track of so a
 * process ending at once removes it too.
 */
export const makeExportFolder = (): string => makeTempFolder('decidekit-export-');

/** The error of an export stopped by its signal (Ctrl+C): nothing was written. */
export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new DecidekitError('aborted', 'the export was interrupted; nothing was written');
}

/**
 * Interrupts the connection's query when `signal` aborts (the query then fails, and the
 * export with it); returns what stops watching. Without it a Ctrl+C during DuckDB's write
 * would wait for the whole write.
 */
export function interruptOnAbort(connection: DuckDBConnection, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => undefined;
  const interrupt = (): void => connection.interrupt();
  signal.addEventListener('abort', interrupt, { once: true });
  return () => signal.removeEventListener('abort', interrupt);
}

const runLevel: ReadonlySet<string> = new Set(RUN_LEVEL_COLUMNS);
/** The columns handed over a row at a time. */
const FED = DECISION_COLUMNS.filter((c) => !runLevel.has(c.name));

/**
 * Writes the rows as Parquet into `fd` (DuckDB writes its file in a temp folder, copied into
 * `fd`); `signal` aborted stops the write with an `aborted` error.
 */
export async function writeDecisionParquetWithDuckDb(
  duckdb: DuckDbModule,
  fd: number,
  rows: Iterable<DecisionRow>,
  metadata: readonly ParquetKeyValue[],
  signal?: AbortSignal,
): Promise<void> {
  throwIfStopped(signal);
  const folder = makeExportFolder();
  try {
    const out = join(folder, 'decisions.parquet');
    const instance = await exportInstance(duckdb, folder);
    const connection = await instance.connect();
    const unwatch = interruptOnAbort(connection, signal);
    try {
      const source = rows[Symbol.iterator]();
      const first = source.next();
      const scan = createScan(duckdb, source, first.done === true ? null : first.value);
      connection.registerTableFunction(
        duckdb.DuckDBTableFunction.create({
          name: 'dk_decision_rows',
          bindFunction: (info) => FED.forEach((_, i) => info.addResultColumn(`c${i}`, scan.types[i]!)),
          initFunction: () => undefined,
          mainFunction: (_info, output) => scan.fill(output),
        }),
      );
      const sql = copySql(first.done === true ? null : first.value, out, metadata);
      await connection.run(sql).catch((err: unknown) => {
        throwIfStopped(signal);
        const failure = scan.failure();
        if (failure !== null) throw failure;
        throw err;
      });
      // An error while reading the rows ends the scan early, and the file with it: it is the error.
      const failure = scan.failure();
      if (failure !== null) throw failure;
    } finally {
      unwatch();
      connection.closeSync();
      instance.closeSync();
    }
    throwIfStopped(signal);
    copyFileInto(out, fd);
  } finally {
    dropTempFolder(folder);
  }
}

/** The table function's state: the next row, and the first error met reading the rows. */
function createScan(duckdb: DuckDbModule, rows: Iterator<DecisionRow>, first: DecisionRow | null) {
  const types: DuckDBType[] = FED.map((c) =>
    c.type === 'string' ? duckdb.VARCHAR : c.type === 'boolean' ? duckdb.BOOLEAN : duckdb.DOUBLE,
  );
  const names = FED.map((c) => c.name);
  const number = FED.map((c) => c.type === 'integer' || c.type === 'double');
  const integer = FED.map((c) => c.type === 'integer');
  const columns: unknown[][] = FED.map(() => new Array<unknown>(CHUNK_ROWS));
  let next = first;
  let failure: Error | null = null;
  const fill = (output: DuckDBDataChunk): void => {
    let n = 0;
    try {
      for (; n < CHUNK_ROWS && next !== null; n++) {
        const row = next;
        if (!sameRun(row, first!)) throw new Error(`run ${row.run_id}: a decision row differs in its run's columns`);
        for (let i = 0; i < names.length; i++) {
          const v = row[names[i]!];
          columns[i]![n] = !number[i]
            ? v
            : v === null
              ? NaN
              : integer[i]
                ? checkedParquetInteger(row, names[i]!, v as number)
                : v;
        }
        const step = rows.next();
        next = step.done === true ? null : step.value;
      }
    } catch (err) {
      // DuckDB would say it as its own error: kept, the scan ends, and the export throws it.
      failure = err instanceof Error ? err : new Error(String(err));
      next = null;
      n = 0;
    }
    output.rowCount = n;
    if (n === 0) return;
    columns.forEach((values, i) =>
      output.setColumnValues(i, (n === CHUNK_ROWS ? values : values.slice(0, n)) as never[]),
    );
  };
  return { types, fill, failure: (): Error | null => failure };
}

function sameRun(row: DecisionRow, first: DecisionRow): boolean {
  for (const name of RUN_LEVEL_COLUMNS) if (row[name] !== first[name]) return false;
  return true;
}

/** The `COPY` of the table function's rows with the run's own columns as literals (`first` gives them). */
function copySql(first: DecisionRow | null, out: string, metadata: readonly ParquetKeyValue[]): string {
  const columns = DECISION_COLUMNS.map((column) => {
    const name = quoteIdentifier(column.name);
    if (runLevel.has(column.name))
      return `${literalOf(column.type, first === null ? null : first[column.name])} AS ${name}`;
    const c = `c${FED.indexOf(column)}`;
    if (column.type === 'integer' || column.type === 'double')
      return `CASE WHEN isnan(${c}) THEN NULL ELSE CAST(${c} AS ${column.type === 'integer' ? 'BIGINT' : 'DOUBLE'}) END AS ${name}`;
    return `${c} AS ${name}`;
  });
  const kv = metadata.map((m) => `${sqlString(m.key)}: ${sqlString(m.value)}`).join(', ');
  // Without ORDER BY, DuckDB keeps the rows in the order the scan gives them (preserve_insertion_order).
  return `COPY (SELECT ${columns.join(', ')} FROM dk_decision_rows())
    TO ${sqlString(out)} (FORMAT parquet, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP}, KV_METADATA {${kv}})`;
}

/** A value as a SQL literal of the column's type (a double as its shortest text, which reads back exactly). */
export function literalOf(columnType: DecisionColumnType, v: DecisionRow[keyof DecisionRow]): string {
  const type = { integer: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN', string: 'VARCHAR' }[columnType];
  if (v === null) return `CAST(NULL AS ${type})`;
  if (typeof v === 'string') return `CAST(${sqlString(v)} AS ${type})`;
  return `CAST(${sqlString(String(v))} AS ${type})`;
}

/** Copies the file DuckDB wrote into the export's own (written beside its place, then renamed). */
export function copyFileInto(path: string, fd: number): void {
  const source = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    for (let read = readSync(source, buffer); read > 0; read = readSync(source, buffer)) writeSync(fd, buffer, 0, read);
  } finally {
    closeSync(source);
  }
}
