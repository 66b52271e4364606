/**
 * The decision table as JSON Lines: one row a line, `JSON.stringify(row)` and a line feed, the
 * keys in schema order (docs/file-formats.md, "JSONL").
 */
import type { DecisionRow } from '../../core/export/decision-row.js';

/** One row, as `JSON.stringify` writes it. */
export function renderDecisionJsonlRow(row: DecisionRow): string {
  return `${JSON.stringify(row)}\n`;
}

/** A character `JSON.stringify` escapes in a string: a quote, a backslash, a control character or a surrogate. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: the text between quotes as it is, unless a character must be escaped. */
function jsonText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function jsonNullableText(text: string | null): string {
  return text === null ? 'null' : jsonText(text);
}

/** A number as JSON: the same shortest text as `String`, and `null` when not finite. */
function jsonNumber(x: number | null): string {
  return x === null || !Number.isFinite(x) ? 'null' : `${x}`;
}

/** Question positions whose answers' text is kept (a case seldom asks more). */
const KEPT_POSITIONS = 64;

/**
 * `renderDecisionJsonlRow` for the rows of one export, the same text made without
 * `JSON.stringify` walking each row: the keys are written once in the template below, the
 * run's columns made into text once per run, a case's id once per case, and the answers'
 * text (a JSON array, escaped) once per question position while it stays the same. A test
 * holds it to `JSON.stringify` on arbitrary rows.
 */
export function createDecisionJsonlRenderer(): (row: DecisionRow) => string {
  let run: readonly unknown[] = [];
  let runText = '';
  let caseId: string | null = null;
  let caseText = '';
  const answers: string[] = [];
  const answersText: string[] = [];
  const runValues = (row: DecisionRow): readonly unknown[] => [
    row.schema_version,
    row.run_id,
    row.fingerprint,
    row.model,
    row.dataset_id,
    row.dataset_revision,
    row.dataset_split,
  ];
  return (row) => {
    if (
      row.run_id !== run[1] ||
      row.schema_version !== run[0] ||
      row.fingerprint !== run[2] ||
      row.model !== run[3] ||
      row.dataset_id !== run[4] ||
      row.dataset_revision !== run[5] ||
      row.dataset_split !== run[6]
    ) {
      run = runValues(row);
      runText = `{"schema_version":${jsonNumber(row.schema_version)},"run_id":${jsonText(row.run_id)},"fingerprint":${jsonText(row.fingerprint)},"model":${jsonNullableText(row.model)},"dataset_id":${jsonText(row.dataset_id)},"dataset_revision":${jsonNullableText(row.dataset_revision)},"dataset_split":${jsonText(row.dataset_split)},"case_id":`;
    }
    if (row.case_id !== caseId) {
      caseId = row.case_id;
      caseText = jsonText(caseId);
    }
    const i = row.question_index;
    let answersJson: string;
    if (i < KEPT_POSITIONS && answers[i] === row.answers) answersJson = answersText[i]!;
    else {
      answersJson = jsonText(row.answers);
      if (i < KEPT_POSITIONS) {
        answers[i] = row.answers;
        answersText[i] = answersJson;
      }
    }
    return `${runText}${caseText},"workflow":${jsonText(row.workflow)},"question_id":${jsonText(row.question_id)},"question_key":${jsonText(row.question_key)},"question_index":${jsonNumber(i)},"type":${jsonText(row.type)},"status":${jsonText(row.status)},"gold_label":${jsonText(row.gold_label)},"predicted":${jsonNullableText(row.predicted)},"gold_level":${jsonNumber(row.gold_level)},"predicted_level":${jsonNumber(row.predicted_level)},"correct":${row.correct ? 'true' : 'false'},"confidence":${jsonNumber(row.confidence)},"kl":${jsonNumber(row.kl)},"brier":${jsonNumber(row.brier)},"log_loss":${jsonNumber(row.log_loss)},"answers":${answersJson},"gold_distribution":${jsonText(row.gold_distribution)},"predicted_distribution":${jsonNullableText(row.predicted_distribution)},"latency_ms":${jsonNumber(row.latency_ms)},"input_tokens":${jsonNumber(row.input_tokens)},"cost_usd":${jsonNumber(row.cost_usd)},"error_kind":${jsonNullableText(row.error_kind)},"error_message":${jsonNullableText(row.error_message)}}\n`;
  };
}
