import type { CaseResult, Decision } from '../../core/typed-decisions/case-result.js';
import { appliedCalibrationOf, type ReportedRun } from '../../core/bench/run.js';
import { assertNever } from '../../core/question.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import { calibrationJson, datasetJson } from '../json-shapes.js';
import { benchSummaryJson, runConfigJson, runStatisticsJson } from './bench-json-shapes.js';
import { setAsideJson } from './replica-latency.js';

/**
 * Bumped when a key is renamed or removed (adding keys does not bump it). Version 2 renamed
 * every camelCase key to snake_case (docs/file-formats.md lists them).
 */
export const BENCH_JSON_VERSION = 2;

/**
 * One decision as a flat row. Distributions are arrays aligned with `answers` (objects
 * keyed by answer would reorder numeric-looking option names). A failed decision has
 * `status: 'failed'`, `correct: false` (it counts as a miss), null prediction and metrics,
 * and `error`.
 */
export interface BenchDecisionRow {
  readonly case_id: string;
  readonly workflow: string;
  readonly question_id: string;
  readonly type: Decision['type'];
  readonly answers: readonly string[];
  readonly gold_label: string;
  readonly gold_probabilities: readonly number[];
  readonly status: 'answered' | 'failed';
  readonly predicted: string | null;
  readonly correct: boolean;
  readonly confidence: number | null;
  readonly kl: number | null;
  readonly brier: number | null;
  readonly probabilities: readonly number[] | null;
  /** The request's latency (shared by the case's decisions); null when unknown. */
  readonly latency_ms: number | null;
  /** The request's input tokens; null when not reported or failed. */
  readonly input_tokens: number | null;
  readonly error: { readonly kind: string; readonly message: string } | null;
}

/**
 * The whole run as one JSON document (with a trailing newline): id, created_at, duration_ms,
 * fingerprint, label, config, dataset, summary, decisions. Keys are snake_case in a fixed
 * order, numbers unrounded, absent metrics null.
 */
/** The statistics to put beside the summary (`<metric>_ci`, noise floor, conventions). */
export interface BenchJsonOptions {
  readonly statistics?: RunStatistics | null;
  /** Show the server's host as `<redacted>` (`--redact`); default false. */
  readonly redactHost?: boolean;
}

export function renderBenchJson(run: ReportedRun, options: BenchJsonOptions = {}): string {
  return [...renderBenchJsonChunks(run, options)].join('');
}

/** Stands in for the decisions while the rest of the document is rendered. */
const DECISIONS_MARK = '\u0000decisions';

/**
 * `renderBenchJson` in pieces, the same text: the document up to its decisions, then one
 * decision row at a time, so a run of any size is written without the whole text (or
 * every case) in memory. `decisions`: the rows rendered ahead (`BenchJsonDecisionRenderer`,
 * in the pass that gathered the run's numbers), and then no case is read.
 */
export function* renderBenchJsonChunks(
  run: ReportedRun,
  options: BenchJsonOptions = {},
  decisions?: RenderedJsonDecisions,
): Generator<string> {
  const recalibrated = appliedCalibrationOf(run);
  const document = {
    format: 'decidekit.bench',
    version: BENCH_JSON_VERSION,
    id: run.id,
    created_at: run.createdAt,
    duration_ms: run.durationMs,
    fingerprint: run.fingerprint,
    label: run.label,
    // Present only when the numbers score recalibrated answers.
    ...(recalibrated === null ? {} : { calibration: calibrationJson(recalibrated) }),
    config: runConfigJson(run.config, options.redactHost === true),
    ...setAsideJson(run, options.redactHost === true),
    dataset: datasetJson(run.config.dataset),
    summary: {
      ...benchSummaryJson(run.summary, options.redactHost === true, run.config.replicas),
      ...runStatisticsJson(options.statistics ?? null),
    },
    decisions: DECISIONS_MARK,
  };
  const text = JSON.stringify(document, null, 2);
  const mark = JSON.stringify(DECISIONS_MARK);
  const at = text.lastIndexOf(mark);
  // Pretty-printed as JSON.stringify(..., null, 2) prints an array of objects two levels down.
  yield `${text.slice(0, at)}[`;
  let rows = 0;
  if (decisions === undefined) {
    const renderer = new BenchJsonDecisionRenderer();
    for (const c of run.cases) yield renderer.piece(c);
    rows = renderer.rows;
  } else {
    yield* decisions.pieces;
    rows = decisions.rows;
  }
  yield `${rows === 0 ? ']' : '\n  ]'}${text.slice(at + mark.length)}\n`;
}

/** The document's decision rows rendered ahead: their text in run order and how many there are. */
export interface RenderedJsonDecisions {
  readonly rows: number;
  readonly pieces: Iterable<string>;
}

/** Renders the document's decision rows one case at a time, in run order: each `piece` is the case's rows. */
export class BenchJsonDecisionRenderer {
  #rows = 0;

  get rows(): number {
    return this.#rows;
  }

  piece(c: CaseResult): string {
    let text = '';
    for (const row of decisionRows(c)) {
      text += `${this.#rows === 0 ? '' : ','}\n    ${JSON.stringify(row, null, 2).replace(/\n/g, '\n    ')}`;
      this.#rows++;
    }
    return text;
  }
}

function decisionRows(c: CaseResult): BenchDecisionRow[] {
  const latencyMs = c.request.latencyMs;
  const inputTokens = c.request.status === 'answered' ? c.request.inputTokens : null;
  // One object literal a row, no `{...base, ...}`: rows built by spreading survived young
  // collections in V8 (~3 MB promoted per scavenge while writing a large run, measured),
  // piling up old-generation garbage.
  return c.decisions.map((d): BenchDecisionRow => {
    const o = d.outcome;
    let answered: Extract<typeof o, { status: 'answered' }> | null = null;
    let error: BenchDecisionRow['error'] = null;
    switch (o.status) {
      case 'answered':
        answered = o;
        break;
      case 'failed':
        error = { kind: o.failure.kind, message: o.failure.message };
        break;
      default:
        return assertNever(o);
    }
    return {
      case_id: c.caseId,
      workflow: c.workflow,
      question_id: d.questionId,
      type: d.type,
      answers: [...d.answers],
      gold_label: d.gold.label,
      gold_probabilities: [...d.gold.probabilities],
      status: o.status,
      predicted: answered === null ? null : answered.predicted,
      correct: answered === null ? false : answered.correct,
      confidence: answered === null ? null : answered.confidence,
      kl: answered === null ? null : answered.kl,
      brier: answered === null ? null : answered.brier,
      probabilities: answered === null ? null : [...answered.probabilities],
      latency_ms: latencyMs,
      input_tokens: inputTokens,
      error,
    };
  });
}
