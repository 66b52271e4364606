/**
 * A batch of finished cases as the store's save receives it: every value of its `cases` and
 * `decisions` rows (`packCaseRows`'s values, in its order) in three flat parts that reach the
 * writer thread without a copy a value. `kinds` (an `Int32Array`, one slot a value) names
 * each value: a string of `strings`, null, or the number at the same slot of `numbers` (a
 * `Float64Array`, so -0, infinities and NaN cross as they were). `strings` holds each string
 * that repeats in a batch (a question's id and answers, a gold label and distribution) once:
 * only the distinct strings are cloned to the thread, and the typed arrays' buffers are
 * transferred (`transferables`) instead of one value at a time, as a plain array's are.
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { PACKED_CASE_VALUES, PACKED_DECISION_VALUES } from './case-rows.js';

/** A batch packed by `packCaseBatch`. */
export interface PackedCaseBatch {
  readonly strings: readonly string[];
  readonly kinds: Int32Array;
  readonly numbers: Float64Array;
}

/** A slot of `kinds` holding null. */
export const NULL_SLOT = -1;
/** A slot of `kinds` whose value is the number at the same index of `numbers`. */
export const NUMBER_SLOT = -2;
/** Slots of one case before its decisions: its 9 row values and its decision count. */
export const BATCH_CASE_SLOTS = PACKED_CASE_VALUES;
/** Slots of one decision. */
export const BATCH_DECISION_SLOTS = PACKED_DECISION_VALUES;

/** The batch's buffers, to hand to `postMessage` as its transfer list. */
export function transferables(batch: PackedCaseBatch): ArrayBuffer[] {
  return [batch.kinds.buffer as ArrayBuffer, batch.numbers.buffer as ArrayBuffer];
}

/** JSON of arrays many decisions share (a question's answers), made once per array. */
const sharedJson = new WeakMap<readonly unknown[], string>();
function jsonOfShared(array: readonly unknown[]): string {
  let text = sharedJson.get(array);
  if (text === undefined) sharedJson.set(array, (text = JSON.stringify(array)));
  return text;
}

type Value = string | number | null;

/**
 * The rows of `results` as one batch: `packCaseRows`'s values in its order, made here without
 * its intermediate array.
 */
export function packCaseBatch(results: readonly CaseResult[]): PackedCaseBatch {
  let size = 0;
  for (const result of results) size += BATCH_CASE_SLOTS + result.decisions.length * BATCH_DECISION_SLOTS;
  const kinds = new Int32Array(size);
  const numbers = new Float64Array(size);
  const strings: string[] = [];
  const index = new Map<string, number>();
  let slot = 0;
  /** A value; a string that may repeat in the batch (`shared`) is kept once. */
  const put = (v: Value, shared: boolean) => {
    if (typeof v === 'string') {
      let k = shared ? index.get(v) : undefined;
      if (k === undefined) {
        k = strings.push(v) - 1;
        if (shared) index.set(v, k);
      }
      kinds[slot++] = k;
    } else if (typeof v === 'number') {
      kinds[slot] = NUMBER_SLOT;
      numbers[slot++] = v;
    } else kinds[slot++] = NULL_SLOT;
  };
  for (const result of results) {
    const r = result.request;
    const answered = r.status === 'answered';
    put(result.caseId, false);
    put(result.workflow, true);
    put(r.status, true);
    put(r.latencyMs, false);
    put(answered ? r.inputTokens : null, false);
    put(answered ? null : r.failure.kind, true);
    put(answered ? null : r.failure.message, false);
    put(answered ? (r.model ?? null) : null, true);
    put(r.replica ?? null, true);
    put(result.decisions.length, false);
    // Shared: a question's id, type, answers, gold label and distribution, the status and the
    // label predicted; each decision's own: its probabilities and an error's message.
    for (const d of result.decisions) {
      const o = d.outcome;
      put(d.questionId, true);
      put(d.type, true);
      put(jsonOfShared(d.answers), true);
      put(d.gold.label, true);
      put(JSON.stringify(d.gold.probabilities), true);
      put(o.status, true);
      if (o.status === 'answered') {
        put(o.predicted, true);
        put(o.correct ? 1 : 0, false);
        put(o.confidence, false);
        put(o.kl, false);
        put(o.brier, false);
        put(JSON.stringify(o.probabilities), false);
        put(null, false);
        put(null, false);
      } else {
        for (let k = 0; k < 6; k++) put(null, false);
        put(o.failure.kind, true);
        put(o.failure.message, false);
      }
    }
  }
  return { strings, kinds, numbers };
}

/**
 * Calls `each` with where each case of a batch starts and its decision count (its decisions
 * follow its `BATCH_CASE_SLOTS` slots), in order. Throws on a batch of another shape.
 */
export function forEachBatchCase(batch: PackedCaseBatch, each: (at: number, count: number) => void): void {
  const { kinds, numbers } = batch;
  let at = 0;
  while (at < kinds.length) {
    const count = numbers[at + BATCH_CASE_SLOTS - 1]!;
    const end = at + BATCH_CASE_SLOTS + count * BATCH_DECISION_SLOTS;
    if (kinds[at + BATCH_CASE_SLOTS - 1] !== NUMBER_SLOT || !Number.isInteger(count) || count < 0 || end > kinds.length)
      throw new Error('a packed case batch ends in the middle of a case');
    each(at, count);
    at = end;
  }
}

/** The value at `slot` of a batch. */
export function batchValue(batch: PackedCaseBatch, slot: number): string | number | null {
  const kind = batch.kinds[slot]!;
  if (kind >= 0) return batch.strings[kind]!;
  return kind === NULL_SLOT ? null : batch.numbers[slot]!;
}
