/**
 * `runs export`: a stored run's decisions as JSONL, CSV or Parquet (the decision table of
 * `core/export/decision-row.ts`). Rows are made one case at a time and written in chunks,
 * so the export never holds the whole table, nor its whole text, beside the run.
 */
import { writeSync } from 'node:fs';
import { writeOutputFile } from '../write-text-file.js';
import { outputFileOf, type OutputPlace } from '../output-file.js';
import type { BenchRun } from '../../core/bench/run.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import {
  DECISION_COLUMNS,
  DECISION_SCHEMA_VERSION,
  decisionRowContextOf,
  decisionRowsOfCase,
  type DecisionColumnType,
  type DecisionRow,
} from '../../core/export/decision-row.js';
import { renderDecisionCsvHeader, renderDecisionCsvRow } from '../../reports/runs/decision-csv.js';
import { openStore } from '../../store/open-store.js';
import { decisionRowsOfStored } from './stored-decision-rows.js';
import type { AskedBy } from '../../store/record-kind.js';
import type { Writer } from 'hyparquet-writer';

export type DecisionExportFormat = 'jsonl' | 'csv' | 'parquet';

/** Where the export goes: a file (written beside it, then renamed into place), or a text stream. */
export type ExportTarget =
  { readonly kind: 'file'; readonly path: string } | { readonly kind: 'text'; readonly write: (text: string) => void };

/**
 * Where a stored run's export goes: an output path checked before the store is read
 * (`prepareOutputPath`; `<run>.<format>` when it names a folder), or a text stream.
 */
export type StoredExportTarget =
  | { readonly kind: 'place'; readonly place: OutputPlace }
  | { readonly kind: 'text'; readonly write: (text: string) => void };

export interface ExportSummary {
  readonly runId: string;
  readonly decisions: number;
  /** The file written (`<run>.<format>` inside a folder given as the target); absent for a text stream. */
  readonly path?: string;
}

/** Text is handed on in pieces of about this many characters. */
const CHUNK_CHARS = 1 << 20;

/**
 * Exports one stored run (by id or unique prefix). Parquet needs a file target; a target
 * that names a folder gets `<run>.jsonl`, `<run>.csv` or `<run>.parquet` inside it.
 */
export async function exportStoredRun(
  storePath: string,
  prefix: string,
  format: DecisionExportFormat,
  target: StoredExportTarget,
  askedBy: AskedBy,
): Promise<ExportSummary> {
  // The cases are read one at a time from the store: a run of any size exports in bounded memory.
  const store = openStore(storePath, { mustExist: true, readOnly: true });
  try {
    const id = store.resolveId(prefix, 'run', askedBy);
    const run = store.runs.info(id);
    if (run === null)
      throw new DecidekitError('unknown_run', `unknown run: ${id} disappeared from ${store.path} while reading`);
    const into: ExportTarget =
      target.kind === 'place' ? { kind: 'file', path: outputFileOf(target.place, `${id}.${format}`) } : target;
    // The flat read: the rows are made from each decision's stored values, not from case objects.
    const rows = decisionRowsOfStored(decisionRowContextOf(run), store.cases.decisionValues(id));
    return await writeDecisionRows(run.id, rows, format, into);
  } finally {
    store.close();
  }
}

/**
 * Exports a run whose cases come from `cases` (the run's own, or pages read from the store),
 * in run order.
 */
export async function exportRun(
  run: Pick<BenchRun, 'id' | 'fingerprint' | 'config'>,
  cases: Iterable<CaseResult>,
  format: DecisionExportFormat,
  target: ExportTarget,
): Promise<ExportSummary> {
  const context = decisionRowContextOf(run);
  function* rows(): Generator<DecisionRow> {
    for (const c of cases) yield* decisionRowsOfCase(context, c);
  }
  return writeDecisionRows(run.id, rows(), format, target);
}

/** Writes the rows of run `runId`, read once, in `format`. */
async function writeDecisionRows(
  runId: string,
  rows: Iterable<DecisionRow>,
  format: DecisionExportFormat,
  target: ExportTarget,
): Promise<ExportSummary> {
  let decisions = 0;
  function* counted(): Generator<DecisionRow> {
    for (const row of rows) {
      decisions++;
      yield row;
    }
  }
  if (format === 'parquet') {
    if (target.kind !== 'file')
      throw new OptionError('target', words`a parquet export needs a file (${option('target', 'FILE')})`);
    await writeOutputFile(target.path, 'export', (file) => writeParquet(file.fd, counted(), runId));
  } else {
    const render = format === 'csv' ? renderDecisionCsvRow : (row: DecisionRow) => `${JSON.stringify(row)}\n`;
    const header = format === 'csv' ? renderDecisionCsvHeader() : '';
    const writeText = (write: (text: string) => void): void => {
      let chunk = header;
      for (const row of counted()) {
        chunk += render(row);
        if (chunk.length >= CHUNK_CHARS) {
          write(chunk);
          chunk = '';
        }
      }
      if (chunk.length > 0) write(chunk);
    };
    if (target.kind === 'text') writeText(target.write);
    else await writeOutputFile(target.path, 'export', async (file) => writeText((text) => writeSync(file.fd, text)));
  }
  return { runId, decisions, ...(target.kind === 'file' ? { path: target.path } : {}) };
}

const PARQUET_TYPES: Record<DecisionColumnType, 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING'> = {
  integer: 'INT64',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  string: 'STRING',
};

/** Rows per row group: bounds the memory of the writer (one group of columns at a time). */
const PARQUET_ROW_GROUP = 10_000;

/**
 * Writes the rows as Parquet, one row group of `PARQUET_ROW_GROUP` rows at a time, straight
 * into one array per column (no copy of each row, no second pass to turn rows into columns):
 * the same schema, groups and bytes as hyparquet-writer's `parquetWriteRows` of the rows.
 */
async function writeParquet(fd: number, rows: Iterable<DecisionRow>, runId: string): Promise<void> {
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
      kvMetadata: [
        { key: 'decidekit.decision_schema_version', value: String(DECISION_SCHEMA_VERSION) },
        { key: 'decidekit.run_id', value: runId },
      ],
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
      columns[i]!.push(integer[i] && v !== null ? parquetInteger(row, names[i]!, v as number) : v);
    }
    if (++groupRows === PARQUET_ROW_GROUP) writeGroup(groupRows);
  }
  // The last group; a run without decisions gets an empty typed table.
  if (groupRows > 0 || parquet === null) writeGroup(groupRows > 0 ? groupRows : PARQUET_ROW_GROUP);
  void parquet!.finish();
}

function parquetInteger(row: DecisionRow, name: string, v: number): bigint {
  if (!Number.isSafeInteger(v))
    throw new DecidekitError(
      'invalid_input',
      `cannot export run ${row.run_id} as parquet: case ${row.case_id} has ${name} ${v}, not an integer (jsonl and csv keep it as it is)`,
    );
  return BigInt(v);
}
