/**
 * The decision table's rows straight from a stored run's flat decision values
 * (`StoreCases.decisionValues`): the rows `decisionRowsOfCase` makes of the run's cases, made
 * without the case objects in between. The stored JSON texts are the table's own (the store
 * wrote them with `JSON.stringify`), so they pass through unparsed.
 */
import { logLoss } from '../../core/decision-score.js';
import { DECISION_SCHEMA_VERSION, type DecisionRow, type DecisionRowContext } from '../../core/export/decision-row.js';
import type { StoredDecisionValues } from '../../store/stored-run.js';

/** Every decision of the run, in the order read; a case's rows are held until its last is read. */
export function* decisionRowsOfStored(
  context: DecisionRowContext,
  values: Iterable<StoredDecisionValues>,
): Generator<DecisionRow> {
  let caseRows: StoredDecisionValues[] = [];
  for (const v of values) {
    if (caseRows.length > 0 && caseRows[0]![0] !== v[0]) {
      yield* rowsOfCase(context, caseRows);
      caseRows = [];
    }
    caseRows.push(v);
  }
  if (caseRows.length > 0) yield* rowsOfCase(context, caseRows);
}

function rowsOfCase(context: DecisionRowContext, caseRows: readonly StoredDecisionValues[]): DecisionRow[] {
  const { config } = context;
  const [caseId, workflow, requestStatus, latencyMs, storedTokens] = caseRows[0]!;
  const price = config.pricePerMtokUsd;
  const tokens = requestStatus === 'answered' ? storedTokens : null;
  const costShare =
    price === null ? null : requestStatus === 'answered' ? ((tokens ?? 0) * price) / 1e6 / caseRows.length : 0;
  const model = config.embeddedServer?.model ?? config.model;
  return caseRows.map((v, questionIndex) => {
    const [, , , , , , questionId, type, answersJson, goldLabel, goldJson, status, predicted, correct] = v;
    const [, , , , , , , , , , , , , , confidence, kl, brier, probabilitiesJson, errorKind, errorMessage] = v;
    const answers = v[20];
    const probabilities = v[21];
    const answered = status === 'answered';
    const goldIndex = answers.indexOf(goldLabel);
    const isScore = type === 'score';
    // The run's columns are written out, not spread from runLevelValuesOf: a row object that
    // starts as a spread made a JSONL export about five times slower.
    return {
      schema_version: DECISION_SCHEMA_VERSION,
      run_id: context.runId,
      fingerprint: context.fingerprint,
      model,
      dataset_id: config.dataset.id,
      dataset_revision: config.dataset.revision,
      dataset_split: config.dataset.split,
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
      correct: answered && correct === 1,
      confidence: answered ? confidence : null,
      kl: answered ? kl : null,
      brier: answered ? brier : null,
      log_loss: answered ? logLoss(probabilities![goldIndex] ?? 0) : null,
      answers: answersJson,
      gold_distribution: goldJson,
      predicted_distribution: answered ? probabilitiesJson : null,
      latency_ms: latencyMs,
      input_tokens: tokens,
      cost_usd: costShare,
      error_kind: answered ? null : errorKind,
      error_message: answered ? null : (errorMessage ?? ''),
    };
  });
}
