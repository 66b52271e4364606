/** What both Parquet writers of the decision table share: its row groups, metadata and integer rule. */
import { DecidekitError } from '../../core/errors.js';
import { DECISION_SCHEMA_VERSION, type DecisionRow } from '../../core/export/decision-row.js';

/** Rows per row group: bounds the memory of the writer (one group of columns at a time). */
export const PARQUET_ROW_GROUP = 10_000;

/** One key-value pair of the file's metadata. */
export interface ParquetKeyValue {
  readonly key: string;
  readonly value: string;
}

/** The file's key-value metadata: the table's schema version and the run. */
export function parquetMetadataOf(runId: string): ParquetKeyValue[] {
  return [
    { key: 'decidekit.decision_schema_version', value: String(DECISION_SCHEMA_VERSION) },
    { key: 'decidekit.run_id', value: runId },
  ];
}

/** An integer column's value as a 64-bit integer takes it; anything else is refused, naming the case. */
export function checkedParquetInteger(row: DecisionRow, name: string, v: number): number {
  if (!Number.isSafeInteger(v))
    throw new DecidekitError(
      'invalid_input',
      `cannot export run ${row.run_id} as parquet: case ${row.case_id} has ${name} ${v}, not an integer (jsonl and csv keep it as it is)`,
    );
  return v;
}
