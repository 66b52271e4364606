/**
 * A finished case as the rows the store writes: one `cases` row and one `decisions` row per
 * question, every value already a string, number or null. The store's in-process save and
 * its writer thread (`writer/`) insert exactly these rows, so both store the same bytes and
 * the same digest. `packCaseRows` flattens a batch into one array of primitives, which a
 * worker thread receives with a cheap structured clone (no nested objects to walk).
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';

/** A batch of cases flattened by `packCaseRows`: strings, numbers and nulls only. */
export type PackedCaseRows = (string | number | null)[];

/**
 * JSON of arrays many decisions share (a question's answers), made once. A gold distribution
 * is its own array in every case read from a dataset: it is written directly, since caching
 * it would only add a table entry a decision.
 */
const sharedJson = new WeakMap<readonly unknown[], string>();
function jsonOfShared(array: readonly unknown[]): string {
  let text = sharedJson.get(array);
  if (text === undefined) sharedJson.set(array, (text = JSON.stringify(array)));
  return text;
}

/**
 * The rows of `results` as one flat array: per case its 8 own values and its decision
 * count, then 14 values per decision (the run id, case id and position are implied). The
 * one place a case becomes row values: the in-process save reads this too.
 */
export function packCaseRows(results: readonly CaseResult[]): PackedCaseRows {
  const out: PackedCaseRows = [];
  for (const result of results) {
    const r = result.request;
    const answered = r.status === 'answered';
    out.push(
      result.caseId,
      result.workflow,
      r.status,
      r.latencyMs,
      answered ? r.inputTokens : null,
      answered ? null : r.failure.kind,
      answered ? null : r.failure.message,
      answered ? (r.model ?? null) : null,
      r.replica ?? null,
      result.decisions.length,
    );
    for (const d of result.decisions) {
      const o = d.outcome;
      out.push(
        d.questionId,
        d.type,
        jsonOfShared(d.answers),
        d.gold.label,
        JSON.stringify(d.gold.probabilities),
        o.status,
      );
      if (o.status === 'answered')
        out.push(
          o.predicted,
          o.correct ? 1 : 0,
          o.confidence,
          o.kl,
          o.brier,
          JSON.stringify(o.probabilities),
          null,
          null,
        );
      else out.push(null, null, null, null, null, null, o.failure.kind, o.failure.message);
    }
  }
  return out;
}

/** Values of one case in a packed batch before its decisions: its 9 row values and its decision count. */
export const PACKED_CASE_VALUES = 10;
/** Values of one decision in a packed batch. */
export const PACKED_DECISION_VALUES = 14;

/**
 * Calls `each` with where each case of a packed batch starts and its decision count (its
 * decisions follow its `PACKED_CASE_VALUES` values), in order, reading the values where
 * they are: no row objects are made. Throws on an array of another shape.
 */
export function forEachPackedCase(packed: PackedCaseRows, each: (at: number, count: number) => void): void {
  let at = 0;
  while (at < packed.length) {
    const count = packed[at + PACKED_CASE_VALUES - 1];
    const end = at + PACKED_CASE_VALUES + (count as number) * PACKED_DECISION_VALUES;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || end > packed.length)
      throw new Error('packed case rows end in the middle of a case');
    each(at, count);
    at = end;
  }
}
