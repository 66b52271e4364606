/**
 * The decision table's rows as lines of text (JSONL, CSV), made by one template of the table's
 * columns with the text that repeats made once: what `decision-jsonl.ts` and
 * `decision-csv.ts` render a whole export with. Each format says how a value is written and
 * what stands before each column; the line is the same text as the format's plain renderer
 * makes of the row alone (their tests hold them to it on arbitrary rows).
 */
import { DECISION_COLUMNS, type DecisionColumnName, type DecisionRow } from '../../core/export/decision-row.js';

/** How a format writes a line: its values, and the text before each column and after the last. */
export interface DecisionLineFormat {
  readonly text: (value: string) => string;
  readonly nullableText: (value: string | null) => string;
  readonly number: (value: number | null) => string;
  readonly boolean: (value: boolean) => string;
  /** What stands before the column's value (the first column's includes the line's start). */
  readonly before: (name: DecisionColumnName, first: boolean) => string;
  readonly end: string;
}

/** Workflows whose questions' text is kept; past this many the memory starts again. */
const KEPT_WORKFLOWS = 4096;
/** Question positions whose text is kept (a case seldom asks more). */
const KEPT_POSITIONS = 64;

/**
 * The text of one question's columns at one position of a workflow's cases, each part with
 * the values it was made of: the question's own (its id, key and type; its answers) and the
 * last gold and predicted labels seen there.
 */
interface QuestionText {
  readonly questionId: string;
  readonly questionKey: string;
  readonly type: string;
  /** From the workflow to the type. */
  readonly head: string;
  answers: string;
  answersText: string;
  goldLabel: string;
  goldText: string;
  predicted: string | null;
  predictedText: string;
}

/**
 * A renderer for the rows of one export: the columns' texts joined in one template, and text
 * that repeats made once and reused while its values stay the same (compared, never assumed):
 * the run's columns, a case's id, its request's columns, and a question's columns at each
 * position of its workflow's cases.
 */
export function createDecisionLineRenderer(format: DecisionLineFormat): (row: DecisionRow) => string {
  const { text, nullableText, number } = format;
  const key = Object.fromEntries(DECISION_COLUMNS.map((c, i) => [c.name, format.before(c.name, i === 0)])) as Record<
    DecisionColumnName,
    string
  >;
  const runTextOf = (row: DecisionRow): string =>
    `${key.schema_version}${number(row.schema_version)}${key.run_id}${text(row.run_id)}${key.fingerprint}${text(row.fingerprint)}${key.model}${nullableText(row.model)}${key.dataset_id}${text(row.dataset_id)}${key.dataset_revision}${nullableText(row.dataset_revision)}${key.dataset_split}${text(row.dataset_split)}${key.case_id}`;
  const questionTextOf = (row: DecisionRow): QuestionText => ({
    questionId: row.question_id,
    questionKey: row.question_key,
    type: row.type,
    head: `${key.workflow}${text(row.workflow)}${key.question_id}${text(row.question_id)}${key.question_key}${text(row.question_key)}${key.question_index}${number(row.question_index)}${key.type}${text(row.type)}`,
    answers: row.answers,
    answersText: `${key.answers}${text(row.answers)}${key.gold_distribution}`,
    goldLabel: row.gold_label,
    goldText: `${key.gold_label}${text(row.gold_label)}${key.predicted}`,
    predicted: row.predicted,
    predictedText: nullableText(row.predicted),
  });
  const tailTextOf = (row: DecisionRow): string =>
    `${key.latency_ms}${number(row.latency_ms)}${key.input_tokens}${number(row.input_tokens)}${key.cost_usd}${number(row.cost_usd)}${key.error_kind}${nullableText(row.error_kind)}${key.error_message}${nullableText(row.error_message)}${format.end}`;
  const answeredText = `${key.status}${text('answered')}`;
  const [trueText, falseText] = [format.boolean(true), format.boolean(false)];

  let run: readonly unknown[] = [];
  let runText = '';
  let caseId: string | null = null;
  let caseText = '';
  let workflow: string | null = null;
  let questions: (QuestionText | undefined)[] = [];
  const byWorkflow = new Map<string, (QuestionText | undefined)[]>();
  let tail: readonly unknown[] = [];
  let tailText = '';
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
      const { schema_version, run_id, fingerprint, model, dataset_id, dataset_revision, dataset_split } = row;
      run = [schema_version, run_id, fingerprint, model, dataset_id, dataset_revision, dataset_split];
      runText = runTextOf(row);
    }
    if (row.case_id !== caseId) {
      caseId = row.case_id;
      caseText = text(caseId);
    }
    if (row.workflow !== workflow) {
      workflow = row.workflow;
      let kept = byWorkflow.get(workflow);
      if (kept === undefined) {
        if (byWorkflow.size >= KEPT_WORKFLOWS) byWorkflow.clear();
        kept = [];
        byWorkflow.set(workflow, kept);
      }
      questions = kept;
    }
    const i = row.question_index;
    let question = questions[i];
    if (
      question === undefined ||
      question.questionId !== row.question_id ||
      question.type !== row.type ||
      question.questionKey !== row.question_key
    ) {
      question = questionTextOf(row);
      if (i < KEPT_POSITIONS && Number.isInteger(i) && i >= 0) questions[i] = question;
    }
    if (row.answers !== question.answers) {
      question.answers = row.answers;
      question.answersText = `${key.answers}${text(row.answers)}${key.gold_distribution}`;
    }
    if (row.gold_label !== question.goldLabel) {
      question.goldLabel = row.gold_label;
      question.goldText = `${key.gold_label}${text(row.gold_label)}${key.predicted}`;
    }
    if (row.predicted !== question.predicted) {
      question.predicted = row.predicted;
      question.predictedText = nullableText(row.predicted);
    }
    if (
      row.latency_ms !== tail[0] ||
      row.input_tokens !== tail[1] ||
      row.cost_usd !== tail[2] ||
      row.error_kind !== tail[3] ||
      row.error_message !== tail[4]
    ) {
      tail = [row.latency_ms, row.input_tokens, row.cost_usd, row.error_kind, row.error_message];
      tailText = tailTextOf(row);
    }
    const status = row.status === 'answered' ? answeredText : `${key.status}${text(row.status)}`;
    return `${runText}${caseText}${question.head}${status}${question.goldText}${question.predictedText}${key.gold_level}${number(row.gold_level)}${key.predicted_level}${number(row.predicted_level)}${key.correct}${row.correct ? trueText : falseText}${key.confidence}${number(row.confidence)}${key.kl}${number(row.kl)}${key.brier}${number(row.brier)}${key.log_loss}${number(row.log_loss)}${question.answersText}${text(row.gold_distribution)}${key.predicted_distribution}${nullableText(row.predicted_distribution)}${tailText}`;
  };
}
