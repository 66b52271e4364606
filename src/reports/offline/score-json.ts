/**
 * The `--json` shape of offline summaries: stable snake_case keys (as in the file formats),
 * unrounded numbers, null for absent metrics.
 */
import { offlineNullReasons, type OfflineSummary } from '../../core/offline/summary.js';
import { nullReasonsJson } from '../json-shapes.js';

export interface OfflineSummaryJson {
  readonly accuracy: number | null;
  readonly brier: number | null;
  readonly log_loss: number | null;
  readonly ece: number | null;
  readonly mean_confidence: number | null;
  readonly score_mae: number | null;
  readonly total_cost_usd: number | null;
  readonly cost_per_correct_usd: number | null;
  readonly cost_per_correct_reason: string | null;
  readonly mean_latency_ms: number | null;
  /** Why each null metric above is null (snake_case keys); absent when none is. */
  readonly null_reasons?: Readonly<Record<string, string>>;
  readonly threshold: number;
  readonly counts: {
    readonly n_cases: number;
    readonly n_scored: {
      readonly yes_no: number;
      readonly choice: number;
      readonly score: number;
      readonly total: number;
    };
    readonly n_missing: number;
    readonly n_correct: number;
    readonly n_with_cost: number;
    readonly n_with_latency: number;
  };
  readonly reliability: readonly {
    readonly bin: number;
    readonly lower: number;
    readonly upper: number;
    readonly n: number;
    readonly mean_confidence: number;
    readonly accuracy: number;
    readonly gap: number;
  }[];
}

export function offlineSummaryJson(s: OfflineSummary): OfflineSummaryJson {
  const c = s.counts;
  return {
    accuracy: s.accuracy,
    brier: s.brier,
    log_loss: s.logLoss,
    ece: s.ece,
    mean_confidence: s.meanConfidence,
    score_mae: s.scoreMae,
    total_cost_usd: s.totalCostUsd,
    cost_per_correct_usd: s.costPerCorrectUsd,
    cost_per_correct_reason: s.costPerCorrectReason,
    mean_latency_ms: s.meanLatencyMs,
    ...nullReasonsJson(offlineNullReasons(s)),
    threshold: s.threshold,
    counts: {
      n_cases: c.nCases,
      n_scored: { yes_no: c.nScored.yesNo, choice: c.nScored.choice, score: c.nScored.score, total: c.nScored.total },
      n_missing: c.nMissing,
      n_correct: c.nCorrect,
      n_with_cost: c.nWithCost,
      n_with_latency: c.nWithLatency,
    },
    reliability: s.reliability.map((b) => ({
      bin: b.index,
      lower: b.lower,
      upper: b.upper,
      n: b.n,
      mean_confidence: b.meanConfidence,
      accuracy: b.accuracy,
      gap: b.gap,
    })),
  };
}

/** One scored model: which files, which model, every number. */
export interface ScoredModel {
  readonly datasetPath: string;
  readonly resultsPath: string;
  /** Null when the results file has no results. */
  readonly model: string | null;
  readonly summary: OfflineSummary;
}

/** `score --json`. */
export function renderScoreJson(m: ScoredModel): string {
  return `${JSON.stringify({ model: m.model, dataset: m.datasetPath, results: m.resultsPath, ...offlineSummaryJson(m.summary) }, null, 2)}\n`;
}

/** `compare --json`: rows in the order shown. */
export function renderCompareJson(datasetPath: string, models: readonly ScoredModel[], sort: string | null): string {
  const doc = {
    dataset: datasetPath,
    sort,
    models: models.map((m) => ({ model: m.model, results: m.resultsPath, ...offlineSummaryJson(m.summary) })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
