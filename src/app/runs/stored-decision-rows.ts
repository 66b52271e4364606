/**
 * The decision table's rows straight from a stored run's flat decision values
 * (`StoreCases.decisionValues`): the rows `decisionRowsOfCase` makes of the run's cases, made
 * without the case objects in between. The stored JSON texts are the table's own (the store
 * wrote them with `JSON.stringify`), so they pass through unparsed.
 */
import { logLoss } from '../../core/decision-score.js';
import {
  decisionCostShare,
  runLevelValuesOf,
  type DecisionRow,
  type DecisionRowContext,
} from '../../core/export/decision-row.js';
import type { StoredDecisionValues } from '../../store/stored-run.js';

/** Every decision of the run, in the order read; a case's rows are held until its last is read. */
export function* decisionRowsOfStored(
  context: DecisionRowContext,
  values: Iterable<StoredDecisionValues>,
): Generator<DecisionRow> {
  let caseRows: StoredDecisionValues[] = [];
  for (const v of values) {
    if (caseRows.length > 0 && caseRows[0]![0] !== v[0]) {
      const made = rowsOfCase(context, caseRows);
      for (let i = 0; i < made.length; i++) yield made[i]!;
      caseRows = [];
    }
    caseRows.push(v);
  }
  if (caseRows.length > 0) yield* rowsOfCase(context, caseRows);
}

function rowsOfCase(context: DecisionRowContext, caseRows: readonly StoredDecisionValues[]): DecisionRow[] {
  const run = runLevelValuesOf(context);
  const first = caseRows[0]!;
  const caseId = first[0];
  const workflow = first[1];
  const requestStatus = first[2];
  const latencyMs = first[3];
  const tokens = requestStatus === 'answered' ? first[4] : null;
  const costShare = decisionCostShare(
    context.config.pricePerMtokUsd,
    requestStatus === 'answered',
    tokens,
    caseRows.length,
  );
  const rows: DecisionRow[] = new Array<DecisionRow>(caseRows.length);
  // Each value by its place (not by destructuring the tuple): this runs for every decision.
  for (let questionIndex = 0; questionIndex < caseRows.length; questionIndex++) {
    const v = caseRows[questionIndex]!;
    const questionId = v[6];
    const type = v[7];
    const goldLabel = v[9];
    const status = v[11];
    const predicted = v[12];
    const answers = v[20];
    const answered = status === 'answered';
    const goldIndex = answers.indexOf(goldLabel);
    const isScore = type === 'score';
    // The run's columns are set one by one, not spread from `run`: a row object that starts
    // as a spread made a JSONL export about five times slower.
    rows[questionIndex] = {
      schema_version: run.schema_version,
      run_id: run.run_id,
      fingerprint: run.fingerprint,
      model: run.model,
      dataset_id: run.dataset_id,
      dataset_revision: run.dataset_revision,
      dataset_split: run.dataset_split,
      case_id: caseId,
      workflow,
      question_id: questionId,
      question_key: `${workflow}/${questionId}`,
      question_index: questionIndex,
      type,
      status,
      gold_label: goldLabel,
      predicted: answered ? predicted : null,
      gold_level: isScore ? goldIndex : null,
      predicted_level: isScore && answered ? answers.indexOf(predicted!) : null,
      correct: answered && v[13] === 1,
      confidence: answered ? v[14] : null,
      kl: answered ? v[15] : null,
      brier: answered ? v[16] : null,
      log_loss: answered ? logLoss(v[21]![goldIndex] ?? 0) : null,
      answers: v[8],
      gold_distribution: v[10],
      predicted_distribution: answered ? v[17] : null,
      latency_ms: latencyMs,
      input_tokens: tokens,
      cost_usd: costShare,
      error_kind: answered ? null : v[18],
      error_message: answered ? null : (v[19] ?? ''),
    };
  }
  return rows;
}
