/**
 * A digest of one stored case: sha256 over the canonical JSON of its `cases` row and its
 * `decisions` rows, exactly as written. `runs check` recomputes it from the rows as read, so
 * a change to any stored byte of a case (an answer that is neither gold nor predicted, an
 * error message, a latency) is found, not only changes that move a score.
 */
import { hash } from 'node:crypto';
import { BATCH_CASE_SLOTS, BATCH_DECISION_SLOTS, batchValue, type PackedCaseBatch } from './case-batch.js';
import { PACKED_CASE_VALUES, PACKED_DECISION_VALUES, type PackedCaseRows } from './case-rows.js';

/**
 * The columns of a `cases` row the digest covers: every one but the digest and the position
 * (the run's case set, `run_cases`, holds that; a save may take it there inside SQL).
 */
export const CASE_DIGEST_COLUMNS = [
  'run_id',
  'case_id',
  'workflow',
  'request_status',
  'latency_ms',
  'input_tokens',
  'error_kind',
  'error_message',
  'answered_model',
] as const;

/**
 * The replica that answered a case: covered only when the case has one, so the digest of a
 * case saved before replicas (or by a run on one server) stays what it was.
 */
export const CASE_REPLICA_COLUMN = 'replica';

/** The columns of a `decisions` row the digest covers: all of them. */
export const DECISION_DIGEST_COLUMNS = [
  'run_id',
  'case_id',
  'position',
  'question_id',
  'type',
  'answers_json',
  'gold_label',
  'gold_probabilities_json',
  'status',
  'predicted',
  'correct',
  'confidence',
  'kl',
  'brier',
  'probabilities_json',
  'error_kind',
  'error_message',
] as const;

type Row = Readonly<Record<string, unknown>>;

/** sha256 (hex) of the case row and its decision rows (in position order), by the columns above. */
export function caseDigest(caseRow: Row, decisionRows: readonly Row[]): string {
  const pick = (row: Row, columns: readonly string[]) => columns.map((c) => row[c] ?? null);
  const own = pick(caseRow, CASE_DIGEST_COLUMNS);
  const replica = caseRow[CASE_REPLICA_COLUMN];
  if (replica !== null && replica !== undefined) own.push(replica);
  const record = [own, ...decisionRows.map((d) => pick(d, DECISION_DIGEST_COLUMNS))];
  // The record is arrays of strings, numbers and nulls: its canonical JSON is JSON.stringify's
  // (no object keys to sort), so the digest is computed without copying the record first.
  return hash('sha256', JSON.stringify(record), 'hex');
}

/**
 * `caseDigest` of the case that starts at `at` in a packed batch (`packCaseRows`) with
 * `count` decisions, for the run `runId`: the same record (the packed values are in the
 * digest's column order), taken from the packed values instead of from row objects.
 */
export function packedCaseDigest(runId: string, packed: PackedCaseRows, at: number, count: number): string {
  const caseId = packed[at]!;
  const caseRecord: unknown[] = [runId];
  // The packed case ends with its replica (covered only when it has one) and its decision count.
  for (let k = at; k < at + PACKED_CASE_VALUES - 2; k++) caseRecord.push(packed[k]);
  const replica = packed[at + PACKED_CASE_VALUES - 2];
  if (replica !== null && replica !== undefined) caseRecord.push(replica);
  const record: unknown[][] = [caseRecord];
  let k = at + PACKED_CASE_VALUES;
  for (let position = 0; position < count; position++) {
    const decision: unknown[] = [runId, caseId, position];
    for (const end = k + PACKED_DECISION_VALUES; k < end; k++) decision.push(packed[k]);
    record.push(decision);
  }
  return hash('sha256', JSON.stringify(record), 'hex');
}

/**
 * `caseDigest` of the case that starts at `at` of a batch (`packCaseBatch`) with `count`
 * decisions, for the run `runId`: the same record, from the batch's slots.
 */
export function batchCaseDigest(runId: string, batch: PackedCaseBatch, at: number, count: number): string {
  const caseId = batchValue(batch, at);
  const caseRecord: unknown[] = [runId];
  // The case ends with its replica (covered only when it has one) and its decision count.
  for (let k = at; k < at + BATCH_CASE_SLOTS - 2; k++) caseRecord.push(batchValue(batch, k));
  const replica = batchValue(batch, at + BATCH_CASE_SLOTS - 2);
  if (replica !== null) caseRecord.push(replica);
  const record: unknown[][] = [caseRecord];
  let k = at + BATCH_CASE_SLOTS;
  for (let position = 0; position < count; position++) {
    const decision: unknown[] = [runId, caseId, position];
    for (const end = k + BATCH_DECISION_SLOTS; k < end; k++) decision.push(batchValue(batch, k));
    record.push(decision);
  }
  return hash('sha256', JSON.stringify(record), 'hex');
}
