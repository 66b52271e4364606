import type { BenchRun } from '../../core/bench/run.js';

/**
 * One decision of a stored run as a flat record: every value is a string, number, boolean
 * or null, so a spreadsheet or SQL engine reads it without unnesting. Distributions are
 * JSON text of arrays aligned with `answers` (objects keyed by answer would reorder
 * numeric-looking option names).
 */
export interface RunExportRow {
  readonly run_id: string;
  readonly fingerprint: string;
  readonly model: string | null;
  readonly dataset_id: string;
  readonly dataset_revision: string | null;
  readonly dataset_split: string;
  readonly case_id: string;
  readonly workflow: string;
  readonly question_id: string;
  /** `workflow/question`, the key of the per-question breakdown. */
  readonly question_key: string;
  readonly type: string;
  readonly status: 'answered' | 'failed';
  readonly gold_label: string;
  readonly predicted: string | null;
  /** A failed decision is a miss: false. */
  readonly correct: boolean;
  readonly confidence: number | null;
  readonly kl: number | null;
  readonly brier: number | null;
  readonly answers: string;
  readonly gold_distribution: string;
  readonly predicted_distribution: string | null;
  /** The request's latency, shared by the case's decisions. */
  readonly latency_ms: number | null;
  readonly input_tokens: number | null;
  readonly error_kind: string | null;
  readonly error_message: string | null;
}

/** Every decision of the run, in run order. */
export function runExportRows(run: BenchRun): RunExportRow[] {
  const rows: RunExportRow[] = [];
  for (const c of run.cases) {
    const r = c.request;
    for (const d of c.decisions) {
      const o = d.outcome;
      rows.push({
        run_id: run.id,
        fingerprint: run.fingerprint,
        model: run.config.embeddedServer?.model ?? run.config.model,
        dataset_id: run.config.dataset.id,
        dataset_revision: run.config.dataset.revision,
        dataset_split: run.config.dataset.split,
        case_id: c.caseId,
        workflow: c.workflow,
        question_id: d.questionId,
        question_key: `${c.workflow}/${d.questionId}`,
        type: d.type,
        status: o.status,
        gold_label: d.gold.label,
        predicted: o.status === 'answered' ? o.predicted : null,
        correct: o.status === 'answered' && o.correct,
        confidence: o.status === 'answered' ? o.confidence : null,
        kl: o.status === 'answered' ? o.kl : null,
        brier: o.status === 'answered' ? o.brier : null,
        answers: JSON.stringify(d.answers),
        gold_distribution: JSON.stringify(d.gold.probabilities),
        predicted_distribution: o.status === 'answered' ? JSON.stringify(o.probabilities) : null,
        latency_ms: r.latencyMs,
        input_tokens: r.status === 'answered' ? r.inputTokens : null,
        error_kind: o.status === 'failed' ? o.failure.kind : null,
        error_message: o.status === 'failed' ? o.failure.message : null,
      });
    }
  }
  return rows;
}

/** `runs export --format jsonl`: one decision a line, unrounded numbers. Empty run: empty text. */
export function renderRunExportJsonl(run: BenchRun): string {
  return runExportRows(run)
    .map((row) => `${JSON.stringify(row)}\n`)
    .join('');
}
