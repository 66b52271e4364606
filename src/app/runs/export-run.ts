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
  decisionRowContextOf,
  decisionRowsOfCase,
  type DecisionRow,
  type DecisionRowContext,
} from '../../core/export/decision-row.js';
import { createDecisionCsvRenderer, renderDecisionCsvHeader } from '../../reports/runs/decision-csv.js';
import { createDecisionJsonlRenderer } from '../../reports/runs/decision-jsonl.js';
import { openStore } from '../../store/open-store.js';
import { decisionRowsOfStored } from './stored-decision-rows.js';
import type { AskedBy } from '../../store/record-kind.js';
import type { Store } from '../../store/store.js';
// The Parquet writers (and what they load: DuckDB's glue, a worker thread, pipes) are loaded
// only for a Parquet export.
import type { DecisionParquetOptions } from './decision-parquet.js';
import type { DuckDbModule } from './decision-parquet-duckdb.js';

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

/**
 * Text is handed on in pieces of about this many characters: small enough that a piece's
 * bytes stay in the processor's cache on their way to the file, and that Node's copy of
 * them is not a fresh memory mapping each time (a megabyte a piece cost a JSONL export a
 * third more in its writes).
 */
const CHUNK_CHARS = 1 << 16;

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
  options: DecisionParquetOptions = {},
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
    const context = decisionRowContextOf(run);
    // The flat read: the rows are made from each decision's stored values, not from case objects.
    const rows = (): Iterable<DecisionRow> => decisionRowsOfStored(context, store.cases.decisionValues(id));
    if (format === 'parquet' && into.kind === 'file') {
      const { loadDuckDb } = await import('./decision-parquet.js');
      const duckdb = await loadDuckDb(options);
      if (duckdb !== null) return await exportParquetWithDuckDb(duckdb, store, context, rows, into.path, options);
    }
    return await writeDecisionRows(run.id, rows(), format, into, options);
  } finally {
    store.close();
  }
}

/**
 * A stored run as Parquet written by DuckDB: from the store's text of the run, or, when the
 * store declines it (a row the flat read refuses, or one the text cannot carry), from the
 * flat read's rows, which names any damage.
 */
async function exportParquetWithDuckDb(
  duckdb: DuckDbModule,
  store: Store,
  context: DecisionRowContext,
  rows: () => Iterable<DecisionRow>,
  path: string,
  options: DecisionParquetOptions,
): Promise<ExportSummary> {
  const [{ parquetMetadataOf }, { writeStoredDecisionParquetFromCsv }, { writeDecisionParquetWithDuckDb }] =
    await Promise.all([
      import('./decision-parquet-rules.js'),
      import('./decision-parquet-csv.js'),
      import('./decision-parquet-duckdb.js'),
    ]);
  let decisions = 0;
  const metadata = parquetMetadataOf(context.runId);
  await writeOutputFile(path, 'export', async (file) => {
    const fromText = await writeStoredDecisionParquetFromCsv(duckdb, file.fd, store, context, metadata, options);
    if (fromText !== null) {
      decisions = fromText;
      return;
    }
    function* counted(): Generator<DecisionRow> {
      for (const row of rows()) {
        decisions++;
        yield row;
      }
    }
    await writeDecisionParquetWithDuckDb(duckdb, file.fd, counted(), metadata, options.signal);
  });
  return { runId: context.runId, decisions, path };
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
  options: DecisionParquetOptions = {},
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
    const { writeDecisionParquet } = await import('./decision-parquet.js');
    await writeOutputFile(target.path, 'export', (file) => writeDecisionParquet(file.fd, counted(), runId, options));
  } else {
    const render = format === 'csv' ? createDecisionCsvRenderer() : createDecisionJsonlRenderer();
    const header = format === 'csv' ? renderDecisionCsvHeader() : '';
    const writeText = (write: (text: string) => void): void => {
      let chunk = header;
      for (const row of rows) {
        decisions++;
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
