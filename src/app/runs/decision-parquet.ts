/**
 * The decision table as Parquet: written by DuckDB when the optional package @duckdb/node-api
 * is installed (native code, several times less CPU), else by hyparquet-writer. Both write
 * the same columns, types and rows (docs/file-formats.md says what differs: DuckDB marks
 * every column optional, and its row groups are whole chunks of 2,048 rows).
 */
import { writeSync } from 'node:fs';
import type { Writer } from 'hyparquet-writer';
import { DECISION_COLUMNS, type DecisionColumnType, type DecisionRow } from '../../core/export/decision-row.js';
import { writeDecisionParquetWithDuckDb, type DuckDbModule } from './decision-parquet-duckdb.js';
import { checkedParquetInteger, PARQUET_ROW_GROUP, parquetMetadataOf } from './decision-parquet-rules.js';

/** Which writer: DuckDB when it loads (`importDuckDb`, by default the package), else hyparquet-writer. */
export interface DecisionParquetOptions {
  /** How DuckDB is loaded; a module that is not installed makes the export use hyparquet-writer. */
  readonly importDuckDb?: () => Promise<DuckDbModule>;
  /**
   * Whether a stored run's text may reach DuckDB through named pipes, made by a worker thread
   * beside DuckDB's `COPY` (default true; false: through temp files, made first).
   */
  readonly pipes?: boolean;
  /**
   * Aborted (Ctrl+C), it stops DuckDB's write, which then fails with an `aborted` error having
   * written nothing; its temp folder is removed. Default: never aborted.
   */
  readonly signal?: AbortSignal;
}

/** Writes the rows of run `runId` as Parquet into `fd`. */
export async function writeDecisionParquet(
  fd: number,
  rows: Iterable<DecisionRow>,
  runId: string,
  options: DecisionParquetOptions = {},
): Promise<void> {
  const duckdb = await loadDuckDb(options);
  if (duckdb === null) await writeWithHyparquet(fd, rows, runId);
  else await writeDecisionParquetWithDuckDb(duckdb, fd, rows, parquetMetadataOf(runId), options.signal);
}

/** DuckDB as `options` loads it, or null when it is not installed. */
export function loadDuckDb(options: DecisionParquetOptions): Promise<DuckDbModule | null> {
  return loadOptional(options.importDuckDb ?? (() => import('@duckdb/node-api')));
}

/** The module, or null when it is not installed. */
async function loadOptional(load: () => Promise<DuckDbModule>): Promise<DuckDbModule | null> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return null;
    throw err;
  }
}

const PARQUET_TYPES: Record<DecisionColumnType, 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING'> = {
  integer: 'INT64',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  string: 'STRING',
};

/**
 * Writes the rows as Parquet, one row group of `PARQUET_ROW_GROUP` rows at a time, straight
 * into one array per column (no copy of each row, no second pass to turn rows into columns):
 * the same schema, groups and bytes as hyparquet-writer's `parquetWriteRows` of the rows.
 */
async function writeWithHyparquet(fd: number, rows: Iterable<DecisionRow>, runId: string): Promise<void> {
  const { ByteWriter, ParquetWriter, schemaFromColumnData } = await import('hyparquet-writer');
  const bytes = new ByteWriter();
  const writer: Writer = bytes;
  // Flushed to the file after each row group and at the end: the writer's buffer holds one group.
  const flush = (): void => {
    writeSync(fd, new Uint8Array(bytes.buffer, 0, bytes.index));
    bytes.index = 0;
  };
  writer.flush = flush;
  writer.finish = flush;
  const specs = DECISION_COLUMNS.map((c) => ({ name: c.name, type: PARQUET_TYPES[c.type], nullable: c.nullable }));
  const names = DECISION_COLUMNS.map((c) => c.name);
  // INT64 columns take bigints.
  const integer = DECISION_COLUMNS.map((c) => c.type === 'integer');
  let columns: unknown[][] = specs.map(() => []);
  let groupRows = 0;
  let parquet: InstanceType<typeof ParquetWriter> | null = null;
  const writeGroup = (rowGroupSize: number): void => {
    const columnData = specs.map((spec, i) => ({ ...spec, data: columns[i]! }));
    parquet ??= new ParquetWriter({
      writer,
      schema: schemaFromColumnData({ columnData }),
      kvMetadata: parquetMetadataOf(runId),
      createdBy: 'decidekit',
    });
    // A sync writer (flush returns nothing): each write has finished when it returns.
    void parquet.write({ columnData, rowGroupSize });
    columns = specs.map(() => []);
    groupRows = 0;
  };
  for (const row of rows) {
    for (let i = 0; i < names.length; i++) {
      const v = row[names[i]!];
      columns[i]!.push(integer[i] && v !== null ? BigInt(checkedParquetInteger(row, names[i]!, v as number)) : v);
    }
    if (++groupRows === PARQUET_ROW_GROUP) writeGroup(groupRows);
  }
  // The last group; a run without decisions gets an empty typed table.
  if (groupRows > 0 || parquet === null) writeGroup(groupRows > 0 ? groupRows : PARQUET_ROW_GROUP);
  void parquet!.finish();
}
