/**
 * The per-decision export schema: one row per decision of a stored run, the table that
 * `runs export` writes (JSONL, CSV, Parquet) and that the printed scoring SQL reads.
 * Documented in docs/file-formats.md ("Decision table"). One definition, shared by the
 * exporters and the SQL generator: a column is added here or nowhere.
 *
 * Version rule: `DECISION_SCHEMA_VERSION` is bumped when a column is renamed or removed or
 * changes type or meaning; adding a column at the end does not bump it.
 */
import type { BenchRun, RunConfig } from '../bench/run.js';
import type { CaseResult } from '../typed-decisions/case-result.js';
import { logLoss } from '../decision-score.js';

export const DECISION_SCHEMA_VERSION = 1;

/**
 * Column types, chosen so every engine has them: `integer` is a 64-bit integer (BIGINT),
 * `double` an IEEE double (DOUBLE PRECISION), `boolean`, `string` UTF-8 text (VARCHAR/TEXT).
 */
export type DecisionColumnType = 'integer' | 'double' | 'boolean' | 'string';

/**
 * One decision as a flat record: every value a string, number, boolean or null, so a
 * spreadsheet or SQL engine reads it without unnesting. Distributions are JSON text of
 * arrays aligned with `answers` (objects keyed by answer would reorder numeric-looking
 * option names).
 */
export interface DecisionRow {
  readonly schema_version: number;
  readonly run_id: string;
  readonly fingerprint: string;
  readonly model: string | null;
  readonly dataset_id: string;
  readonly dataset_revision: string | null;
  readonly dataset_split: string;
  readonly case_id: string;
  readonly workflow: string;
  readonly question_id: string;
  readonly question_key: string;
  readonly question_index: number;
  readonly type: string;
  readonly status: 'answered' | 'failed';
  readonly gold_label: string;
  readonly predicted: string | null;
  readonly gold_level: number | null;
  readonly predicted_level: number | null;
  readonly correct: boolean;
  readonly confidence: number | null;
  readonly kl: number | null;
  readonly brier: number | null;
  readonly log_loss: number | null;
  readonly answers: string;
  readonly gold_distribution: string;
  readonly predicted_distribution: string | null;
  readonly latency_ms: number | null;
  readonly input_tokens: number | null;
  readonly cost_usd: number | null;
  readonly error_kind: string | null;
  readonly error_message: string | null;
}

export type DecisionColumnName = keyof DecisionRow;

export interface DecisionColumn {
  readonly name: DecisionColumnName;
  readonly type: DecisionColumnType;
  readonly nullable: boolean;
  /** One line: what the value means. */
  readonly meaning: string;
}

/** The columns in export order (the order of JSONL keys, CSV headers and Parquet columns). */
export const DECISION_COLUMNS: readonly DecisionColumn[] = [
  col('schema_version', 'integer', false, `version of this schema (${DECISION_SCHEMA_VERSION})`),
  col('run_id', 'string', false, 'the stored run'),
  col(
    'fingerprint',
    'string',
    false,
    'short hash of dataset, cases, questions, model and endpoint: equal runs compare',
  ),
  col(
    'model',
    'string',
    true,
    'the model asked for (the built-in model for the embedded server); null when none was named',
  ),
  col('dataset_id', 'string', false, 'dataset id, e.g. LocalLLaMA/typed-decisions or the synthetic sample'),
  col('dataset_revision', 'string', true, 'dataset revision; null for a file without one'),
  col('dataset_split', 'string', false, 'dataset split, e.g. test'),
  col('case_id', 'string', false, 'the case (one request)'),
  col('workflow', 'string', false, "the case's workflow"),
  col('question_id', 'string', false, 'the question within the case'),
  col(
    'question_key',
    'string',
    false,
    '`workflow/question_id`, the per-question breakdown key (question ids repeat across workflows)',
  ),
  col(
    'question_index',
    'integer',
    false,
    '0-based position of the question in its case: 0 picks one row per request (for latency and tokens)',
  ),
  col('type', 'string', false, 'question type: noul, choice or score'),
  col('status', 'string', false, 'answered, or failed (every decision of a failed request fails)'),
  col('gold_label', 'string', false, 'the gold answer'),
  col('predicted', 'string', true, 'the most likely answer (a tie goes to the first listed); null when failed'),
  col('gold_level', 'integer', true, '0-based level of the gold answer for score questions, else null'),
  col(
    'predicted_level',
    'integer',
    true,
    '0-based predicted level for answered score questions, else null; MAE = |predicted_level - gold_level|',
  ),
  col('correct', 'boolean', false, 'predicted = gold_label; a failed decision is a miss (false)'),
  col('confidence', 'double', true, 'probability of the predicted answer, as given; null when failed'),
  col('kl', 'double', true, 'KL(gold || predicted) in nats, prediction floored at 1e-12; null when failed'),
  col('brier', 'double', true, 'sum over answers of (p - g)^2 against the gold distribution; null when failed'),
  col('log_loss', 'double', true, '-ln(max(p(gold_label), 1e-15)), every type; null when failed'),
  col('answers', 'string', false, "JSON array of the question's answers in canonical order"),
  col('gold_distribution', 'string', false, 'JSON array of gold probabilities aligned with answers'),
  col(
    'predicted_distribution',
    'string',
    true,
    'JSON array of predicted probabilities aligned with answers; null when failed',
  ),
  col(
    'latency_ms',
    'double',
    true,
    "the request's latency in ms, repeated on each of its decisions; null when unknown",
  ),
  col(
    'input_tokens',
    'integer',
    true,
    "the request's reported input tokens, repeated on each of its decisions; null when not reported or failed",
  ),
  col(
    'cost_usd',
    'double',
    true,
    "this decision's share of the request's cost (tokens x price / 1e6 / decisions of the case; 0 when failed or unreported) when the run was priced, else null",
  ),
  col('error_kind', 'string', true, 'why the request failed (timeout, transport, http, ...); null when answered'),
  col('error_message', 'string', true, 'the failure message, secret-free; null when answered'),
];

/** The columns every row of a run repeats: they come from the run, not from its decisions. */
export const RUN_LEVEL_COLUMNS: readonly DecisionColumnName[] = [
  'schema_version',
  'run_id',
  'fingerprint',
  'model',
  'dataset_id',
  'dataset_revision',
  'dataset_split',
];

function col(name: DecisionColumnName, type: DecisionColumnType, nullable: boolean, meaning: string): DecisionColumn {
  return { name, type, nullable, meaning };
}

/** The run-level values of every row, computed once per run. */
export interface DecisionRowContext {
  readonly runId: string;
  readonly fingerprint: string;
  readonly config: RunConfig;
}

export function decisionRowContextOf(run: Pick<BenchRun, 'id' | 'fingerprint' | 'config'>): DecisionRowContext {
  return { runId: run.id, fingerprint: run.fingerprint, config: run.config };
}

/** The values of the run-level columns (`RUN_LEVEL_COLUMNS`), the same in every row of the run. */
export function runLevelValuesOf(
  context: DecisionRowContext,
): Pick<
  DecisionRow,
  'schema_version' | 'run_id' | 'fingerprint' | 'model' | 'dataset_id' | 'dataset_revision' | 'dataset_split'
> {
  const { config } = context;
  return {
    schema_version: DECISION_SCHEMA_VERSION,
    run_id: context.runId,
    fingerprint: context.fingerprint,
    model: config.embeddedServer?.model ?? config.model,
    dataset_id: config.dataset.id,
    dataset_revision: config.dataset.revision,
    dataset_split: config.dataset.split,
  };
}

/**
 * A decision's share of its case's cost (`cost_usd`): the case's input tokens at the run's
 * price, split evenly over its decisions; null for a run without a price, 0 for a failed request.
 */
export function decisionCostShare(
  pricePerMtokUsd: number | null,
  answered: boolean,
  inputTokens: number | null,
  decisions: number,
): number | null {
  if (pricePerMtokUsd === null) return null;
  return answered ? ((inputTokens ?? 0) * pricePerMtokUsd) / 1e6 / decisions : 0;
}

/** The rows of one case, one per question, in question order. */
export function decisionRowsOfCase(context: DecisionRowContext, c: CaseResult): DecisionRow[] {
  const run = runLevelValuesOf(context);
  const r = c.request;
  const tokens = r.status === 'answered' ? r.inputTokens : null;
  const costShare = decisionCostShare(
    context.config.pricePerMtokUsd,
    r.status === 'answered',
    tokens,
    c.decisions.length,
  );
  return c.decisions.map((d, questionIndex) => {
    const o = d.outcome;
    const answered = o.status === 'answered';
    const goldIndex = d.answers.indexOf(d.gold.label);
    const isScore = d.type === 'score';
    // The run's columns are set one by one, not spread from `run`: a row object that starts
    // as a spread made a JSONL export about five times slower.
    return {
      schema_version: run.schema_version,
      run_id: run.run_id,
      fingerprint: run.fingerprint,
      model: run.model,
      dataset_id: run.dataset_id,
      dataset_revision: run.dataset_revision,
      dataset_split: run.dataset_split,
      case_id: c.caseId,
      workflow: c.workflow,
      question_id: d.questionId,
      question_key: `${c.workflow}/${d.questionId}`,
      question_index: questionIndex,
      type: d.type,
      status: o.status,
      gold_label: d.gold.label,
      predicted: answered ? o.predicted : null,
      gold_level: isScore ? goldIndex : null,
      predicted_level: isScore && answered ? d.answers.indexOf(o.predicted) : null,
      correct: answered && o.correct,
      confidence: answered ? o.confidence : null,
      kl: answered ? o.kl : null,
      brier: answered ? o.brier : null,
      log_loss: answered ? logLoss(o.probabilities[goldIndex] ?? 0) : null,
      answers: JSON.stringify(d.answers),
      gold_distribution: JSON.stringify(d.gold.probabilities),
      predicted_distribution: answered ? JSON.stringify(o.probabilities) : null,
      latency_ms: r.latencyMs,
      input_tokens: tokens,
      cost_usd: costShare,
      error_kind: o.status === 'failed' ? o.failure.kind : null,
      error_message: o.status === 'failed' ? o.failure.message : null,
    };
  });
}

/** Every decision of the run, in run order. */
export function* decisionRowsOfRun(run: BenchRun): Generator<DecisionRow> {
  const context = decisionRowContextOf(run);
  for (const c of run.cases) yield* decisionRowsOfCase(context, c);
}
