/**
 * The fingerprint of the text a Parquet export's worker thread makes (`decision-text-worker.ts`)
 * and its exporter reads: the text's fields (`DECISION_CSV_COLUMNS`' names and kinds), its
 * quote, and the version of the worker's messages. Run from the sources, the exporter starts
 * the worker compiled into `dist/`, which may be older than the sources: the worker compares
 * the exporter's fingerprint with its own and writes nothing when they differ.
 */
import { createHash } from 'node:crypto';
import { CSV_QUOTE, DECISION_CSV_COLUMNS } from '../../store/decision-csv.js';

/** The version of the worker's data and replies: raised with any change to either. */
const WORKER_PROTOCOL = 1;

/** The text format's fingerprint, 16 hex digits. */
export function decisionTextFormat(): string {
  const columns = DECISION_CSV_COLUMNS.map((c) => `${c.name}:${c.kind}`);
  const described = JSON.stringify({ protocol: WORKER_PROTOCOL, quote: CSV_QUOTE, columns });
  return createHash('sha256').update(described).digest('hex').slice(0, 16);
}
