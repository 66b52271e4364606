/**
 * A run's decisions as CSV text for a bulk reader (`StoreCases.decisionCsv`): what
 * `runs export --format parquet` hands DuckDB so the rows never become JavaScript values one
 * at a time. One line a decision, in run order, fields in `DECISION_CSV_COLUMNS` order,
 * separated by commas. A text field is wrapped in `CSV_QUOTE` (a quote inside it doubled);
 * an empty field is null; a wrapped empty field is the empty text. The fields are the values
 * as stored, checked as `decisionValues` checks them: the reader applies what the decision's
 * status implies (a failed decision has no scores, an answered one no failure).
 *
 * A real number is two integer fields, `m` and `e`, its value m·2⁻ᵉ exactly, so that it is
 * written without formatting it as decimal (SQLite's decimal text is slow, and not exact at
 * every magnitude); both empty is null. Every double has such a form with m below 2⁶³ (a
 * double is a 53-bit whole number times a power of two), and each step of making it and of
 * reading it back (a multiply by a power of two, a cast) is exact.
 */
import type { StoredDecisionValues } from './stored-run.js';

/** Wraps a text field: the record separator, which no text the store keeps is expected to hold. */
export const CSV_QUOTE = '\x1e';

export type DecisionCsvKind = 'text' | 'integer' | 'real';

/** What `decisionCsv` is asked for. */
export interface DecisionCsvOptions {
  /** Each case's count of decisions in `case_decisions` (counting costs the SQLite store a fifth more); default true. */
  readonly caseDecisions?: boolean;
}

/** The fields of a line; a `real` column is two fields (`<name>_m`, `<name>_e`). */
export const DECISION_CSV_COLUMNS: readonly { readonly name: string; readonly kind: DecisionCsvKind }[] = [
  { name: 'case_id', kind: 'text' },
  { name: 'workflow', kind: 'text' },
  { name: 'question_id', kind: 'text' },
  /** 0-based place of the decision in its case. */
  { name: 'question_index', kind: 'integer' },
  { name: 'type', kind: 'text' },
  { name: 'status', kind: 'text' },
  { name: 'gold_label', kind: 'text' },
  { name: 'predicted', kind: 'text' },
  /** 1 when the stored value is 1, null when none is stored, else 0. */
  { name: 'correct', kind: 'integer' },
  { name: 'confidence', kind: 'real' },
  { name: 'kl', kind: 'real' },
  { name: 'brier', kind: 'real' },
  /** The stored JSON texts. */
  { name: 'predicted_distribution', kind: 'text' },
  { name: 'answers', kind: 'text' },
  { name: 'gold_distribution', kind: 'text' },
  { name: 'latency_ms', kind: 'real' },
  /** The request's input tokens; null unless the request was answered. */
  { name: 'input_tokens', kind: 'integer' },
  /** 1 when the request was answered, else 0. */
  { name: 'request_answered', kind: 'integer' },
  /** How many decisions the case has (a priced run shares the request's cost among them); empty unless asked for. */
  { name: 'case_decisions', kind: 'integer' },
  /** The decision's failure kind and message. */
  { name: 'error_kind', kind: 'text' },
  { name: 'error_message', kind: 'text' },
];

/** The field names of a line in order, a real column's three fields each. */
export const DECISION_CSV_FIELDS: readonly string[] = DECISION_CSV_COLUMNS.flatMap((c) =>
  c.kind === 'real' ? [`${c.name}_m`, `${c.name}_e`] : [c.name],
);

const text = (v: string | null): string =>
  v === null
    ? ''
    : `${CSV_QUOTE}${v.includes(CSV_QUOTE) ? v.replaceAll(CSV_QUOTE, CSV_QUOTE + CSV_QUOTE) : v}${CSV_QUOTE}`;
const integer = (v: number | null): string => (v === null ? '' : String(v));
/** A double's two fields: m·2⁻ᵉ with e = 53 − ⌊log₂|v|⌋ (at most 1074), m a whole number below 2⁵⁶. */
function real(v: number | null): string {
  if (v === null) return ',';
  // Negative zero as a value that rounds to it: −1·2⁻¹¹⁰⁰.
  if (v === 0) return Object.is(v, -0) ? '-1,1100' : '0,0';
  const e = Math.min(53 - Math.floor(Math.log2(Math.abs(v))), 1074);
  const half = Math.trunc(e / 2);
  return `${BigInt(v * 2 ** half * 2 ** (e - half))},${e}`;
}

/** The lines of checked decision values (`decisionValues`), a piece of about `pieceChars` characters at a time. */
export function* decisionCsvOfValues(
  values: Iterable<StoredDecisionValues>,
  options: DecisionCsvOptions = {},
  pieceChars = 1 << 20,
): Generator<string> {
  let caseRows: StoredDecisionValues[] = [];
  let piece = '';
  const flush = (): void => {
    caseRows.forEach((v, i) => {
      piece += lineOf(v, i, options.caseDecisions === false ? null : caseRows.length);
    });
    caseRows = [];
  };
  for (const v of values) {
    if (caseRows.length > 0 && caseRows[0]![0] !== v[0]) {
      flush();
      if (piece.length >= pieceChars) {
        yield piece;
        piece = '';
      }
    }
    caseRows.push(v);
  }
  flush();
  if (piece.length > 0) yield piece;
}

function lineOf(v: StoredDecisionValues, questionIndex: number, caseDecisions: number | null): string {
  const [caseId, workflow, requestStatus, latencyMs, inputTokens, , questionId, type, answersJson, goldLabel] = v;
  const [, , , , , , , , , , goldJson, status, predicted, correct, confidence, kl, brier, probabilitiesJson] = v;
  const [, , , , , , , , , , , , , , , , , , errorKind, errorMessage] = v;
  const requestAnswered = requestStatus === 'answered';
  return (
    [
      text(caseId),
      text(workflow),
      text(questionId),
      integer(questionIndex),
      text(type),
      text(status),
      text(goldLabel),
      text(predicted),
      correct === null ? '' : correct === 1 ? '1' : '0',
      real(confidence),
      real(kl),
      real(brier),
      text(probabilitiesJson),
      text(answersJson),
      text(goldJson),
      real(latencyMs),
      integer(requestAnswered ? inputTokens : null),
      requestAnswered ? '1' : '0',
      integer(caseDecisions),
      text(errorKind),
      text(errorMessage),
    ].join(',') + '\n'
  );
}
