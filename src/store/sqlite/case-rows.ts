/**
 * A finished case as the rows the store writes: one `cases` row and one `decisions` row per
 * question, every value already a string, number or null. The store's in-process save and
 * its writer thread (`writer/`) insert exactly these rows, so both store the same bytes and
 * the same digest. `packCaseRows` flattens a batch into one array of primitives, which a
 * worker thread receives with a cheap structured clone (no nested objects to walk).
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';

/** The `cases` row of one case (without `position` and `digest`: the store adds them). */
export type CaseRow = {
  readonly run_id: string;
  readonly case_id: string;
  readonly workflow: string;
  readonly request_status: 'answered' | 'failed';
  readonly latency_ms: number | null;
  readonly input_tokens: number | null;
  readonly error_kind: string | null;
  readonly error_message: string | null;
  readonly answered_model: string | null;
};

/** One `decisions` row. */
export type DecisionRow = {
  readonly run_id: string;
  readonly case_id: string;
  readonly position: number;
  readonly question_id: string;
  readonly type: string;
  readonly answers_json: string;
  readonly gold_label: string;
  readonly gold_probabilities_json: string;
  readonly status: 'answered' | 'failed';
  readonly predicted: string | null;
  readonly correct: number | null;
  readonly confidence: number | null;
  readonly kl: number | null;
  readonly brier: number | null;
  readonly probabilities_json: string | null;
  readonly error_kind: string | null;
  readonly error_message: string | null;
};

export interface CaseRows {
  readonly caseRow: CaseRow;
  readonly decisionRows: readonly DecisionRow[];
}

/** A batch of cases flattened by `packCaseRows`: strings, numbers and nulls only. */
export type PackedCaseRows = (string | number | null)[];

/** JSON of arrays many decisions share (a question's answers, a common gold distribution), made once. */
const sharedJson = new WeakMap<readonly unknown[], string>();
function jsonOfShared(array: readonly unknown[]): string {
  let text = sharedJson.get(array);
  if (text === undefined) sharedJson.set(array, (text = JSON.stringify(array)));
  return text;
}

/**
 * The rows of `results` as one flat array: per case its 8 own values and its decision
 * count, then 14 values per decision (the run id, case id and position are implied). The
 * one place a case becomes row values: the in-process save unpacks this too.
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
      result.decisions.length,
    );
    for (const d of result.decisions) {
      const o = d.outcome;
      out.push(
        d.questionId,
        d.type,
        jsonOfShared(d.answers),
        d.gold.label,
        jsonOfShared(d.gold.probabilities),
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

/** The rows `packCaseRows` flattened, for the run `runId`; throws on an array of another shape. */
export function unpackCaseRows(runId: string, packed: PackedCaseRows): CaseRows[] {
  const rows: CaseRows[] = [];
  let i = 0;
  const take = () => {
    if (i >= packed.length) throw new Error('packed case rows end in the middle of a case');
    return packed[i++] as never;
  };
  while (i < packed.length) {
    const caseRow: CaseRow = {
      run_id: runId,
      case_id: take(),
      workflow: take(),
      request_status: take(),
      latency_ms: take(),
      input_tokens: take(),
      error_kind: take(),
      error_message: take(),
      answered_model: take(),
    };
    const count: number = take();
    const decisionRows: DecisionRow[] = [];
    for (let position = 0; position < count; position++)
      decisionRows.push({
        run_id: runId,
        case_id: caseRow.case_id,
        position,
        question_id: take(),
        type: take(),
        answers_json: take(),
        gold_label: take(),
        gold_probabilities_json: take(),
        status: take(),
        predicted: take(),
        correct: take(),
        confidence: take(),
        kl: take(),
        brier: take(),
        probabilities_json: take(),
        error_kind: take(),
        error_message: take(),
      });
    rows.push({ caseRow, decisionRows });
  }
  return rows;
}
