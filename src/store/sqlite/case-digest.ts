/**
 * A digest of one stored case: sha256 over the canonical JSON of its `cases` row and its
 * `decisions` rows, exactly as written. `runs check` recomputes it from the rows as read, so
 * a change to any stored byte of a case (an answer that is neither gold nor predicted, an
 * error message, a latency) is found, not only changes that move a score.
 */
import { hash } from 'node:crypto';
import { BATCH_CASE_SLOTS, BATCH_DECISION_SLOTS, NULL_SLOT, type PackedCaseBatch } from './case-batch.js';
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
 * `caseDigest` of each case of a batch (`packCaseBatch`) for the run `runId`: called with
 * where a case starts and its decision count, it gives the same digest from the batch's
 * slots. Its JSON text is written piece by piece rather than by `JSON.stringify` of a record:
 * each distinct string of the batch (a question's answers, a gold distribution) is quoted once
 * for the whole batch instead of once a case, and no record arrays are made. Numbers are
 * written as `JSON.stringify` writes them (`String` of a finite number, -0 as 0; null
 * otherwise), so the bytes hashed are the record's canonical JSON, unchanged.
 */
export function batchCaseDigests(runId: string, batch: PackedCaseBatch): (at: number, count: number) => string {
  const { kinds, numbers, strings } = batch;
  // Each value's JSON with the comma before it; a string's made once a batch.
  const quoted: (string | undefined)[] = new Array<string | undefined>(strings.length);
  const piece = (slot: number): string => {
    const kind = kinds[slot]!;
    if (kind >= 0) return (quoted[kind] ??= `,${JSON.stringify(strings[kind])}`);
    if (kind === NULL_SLOT) return ',null';
    const n = numbers[slot]!;
    return Number.isFinite(n) ? `,${n}` : ',null';
  };
  const run = JSON.stringify(runId);
  return (at, count) => {
    // [[runId, the case's values…, (its replica)], [runId, caseId, position, the decision's values…]…]
    let text = `[[${run}`;
    for (let k = at; k < at + BATCH_CASE_SLOTS - 2; k++) text += piece(k);
    // The case ends with its replica (covered only when it has one) and its decision count.
    if (kinds[at + BATCH_CASE_SLOTS - 2] !== NULL_SLOT) text += piece(at + BATCH_CASE_SLOTS - 2);
    text += ']';
    const decisionHead = `,[${run}${piece(at)},`;
    let k = at + BATCH_CASE_SLOTS;
    for (let position = 0; position < count; position++) {
      text += decisionHead + position;
      for (const end = k + BATCH_DECISION_SLOTS; k < end; k++) text += piece(k);
      text += ']';
    }
    return hash('sha256', `${text}]`, 'hex');
  };
}
