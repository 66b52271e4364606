/**
 * The `--json` shape of offline summaries: stable snake_case keys (as in the file formats),
 * unrounded numbers, null for absent metrics.
 */
import { jsonDocumentText } from '../../core/safe-text.js';
import { decidedCases, offlineNullReasons, type OfflineSummary } from '../../core/offline/summary.js';
import type { MetricComparison } from '../../core/stats/bootstrap.js';
import { calibrationJson, intervalJson, noiseFloorJson, nullReasonsJson, rankingJson } from '../json-shapes.js';
import { conventionsJson, DEFAULT_CONVENTIONS, type Conventions } from '../../core/stats/conventions.js';
import type { ComparedModels, ScoredModel } from '../../core/offline/scored-files.js';
import { NO_CI_FLAG, POOLED_ECE_FLAG } from '../../core/command-hints.js';

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

/** The warning when per-question ECE is degenerate: shown once on stderr and beside the conventions. */
export const PER_QUESTION_DEGENERATE_NOTE = `per-question ECE is degenerate here: every question (prompt) holds one decision, so it is the mean |hit - confidence| whatever the bins (use ${POOLED_ECE_FLAG})`;

/** Notes on the conventions of these models' numbers (each once). */
export function conventionNotes(models: readonly ScoredModel[]): string[] {
  return models.some((m) => m.perQuestionDegenerate === true) ? [PER_QUESTION_DEGENERATE_NOTE] : [];
}

type Pair = [number, number] | null;
const pair = intervalJson;

/** The `_ci` keys, the noise floor and the conventions of one model. */
export function offlineStatsJson(m: ScoredModel): {
  accuracy_ci: Pair;
  brier_ci: Pair;
  log_loss_ci: Pair;
  ece_ci: Pair;
  ece_noise_floor: ReturnType<typeof noiseFloorJson>;
  ece_debiased: number | null;
  ece_debiased_ci: Pair;
  ranking: ReturnType<typeof rankingJson> | null;
  conventions: ReturnType<typeof conventionsJson>;
} {
  const i = m.stats?.intervals;
  const floor = m.stats?.noiseFloor ?? null;
  return {
    accuracy_ci: pair(i?.accuracy),
    brier_ci: pair(i?.brier),
    log_loss_ci: pair(i?.logLoss),
    ece_ci: pair(i?.ece),
    ece_noise_floor: noiseFloorJson(floor),
    ece_debiased: m.stats?.debiasedEce?.debiased ?? null,
    ece_debiased_ci: pair(m.stats?.debiasedEce?.interval),
    ranking: m.stats?.ranking == null ? null : rankingJson(m.stats.ranking),
    conventions: conventionsJson(effectiveConventions(m)),
  };
}

/** The conventions of a model's numbers, resamples 0 when it has no intervals. */
export function effectiveConventions(m: ScoredModel): Conventions {
  const c = m.conventions ?? DEFAULT_CONVENTIONS;
  return m.stats === null || m.stats === undefined ? { ...c, bootstrapResamples: 0 } : c;
}

function modelJson(m: ScoredModel) {
  const { conventions, ...stats } = offlineStatsJson(m);
  const { null_reasons: summaryReasons, ...summary } = offlineSummaryJson(m.summary);
  return {
    model: m.model,
    results: m.resultsPath,
    ...(m.recalibration === undefined ? {} : { calibration: calibrationJson(m.recalibration) }),
    ...summary,
    ...stats,
    conventions,
    ...(m.perQuestionDegenerate === true ? { convention_notes: conventionNotes([m]) } : {}),
    ...nullReasonsJson({ ...summaryReasons, ...statsNullReasons(m, summaryReasons ?? {}) }),
  };
}

export { calibrationJson };

/** A metric whose every resample gives the same value has no interval (docs/scoring.md). */
const NOT_ESTIMABLE = 'no variation across cases (one case, or every case alike): interval not estimable';

/** Why a `_ci` key or the noise floor is null: intervals off, the metric itself absent, or no variation. */
function statsNullReasons(m: ScoredModel, summaryReasons: Readonly<Record<string, string>>): Record<string, string> {
  const stats = offlineStatsJson(m);
  const off = `no intervals computed (${NO_CI_FLAG})`;
  const out: Record<string, string> = {};
  for (const metric of ['accuracy', 'brier', 'log_loss', 'ece'] as const) {
    if (stats[`${metric}_ci`] !== null) continue;
    out[`${metric}_ci`] = m.stats == null ? off : (summaryReasons[metric] ?? NOT_ESTIMABLE);
  }
  if (stats.ece_noise_floor === null)
    out['ece_noise_floor'] = m.stats == null ? off : (summaryReasons['ece'] ?? 'too few cases for a noise floor');
  if (stats.ece_debiased === null)
    out['ece_debiased'] = out['ece_debiased_ci'] =
      m.stats == null ? `needs every decision: ${off}` : (summaryReasons['ece'] ?? 'no decisions');
  else if (stats.ece_debiased_ci === null) out['ece_debiased_ci'] = NOT_ESTIMABLE;
  if (stats.ranking === null)
    out['ranking'] = m.stats == null ? `needs every yes/no decision: ${off}` : 'no yes_no case has a result';
  else if (stats.ranking.roc_auc === null) out['roc_auc'] = 'needs yes_no cases of both correct answers (yes and no)';
  return out;
}

/** `score --json`. */
export function renderScoreJson(m: ScoredModel): string {
  const { model, results, ...rest } = modelJson(m);
  return `${jsonDocumentText({ model, dataset: m.datasetPath, results, ...rest })}\n`;
}

function differenceJson(d: MetricComparison) {
  return {
    baseline: d.first,
    model: d.second,
    difference: d.difference,
    difference_ci: pair(d.interval),
    verdict: d.verdict,
  };
}

/**
 * `compare --json`: `models` in the order shown, the
 * `leaderboard` by accuracy, and `comparisons` of each model with the baseline (the first
 * file given), paired on the cases both decided.
 */
export function renderCompareJson(c: ComparedModels, shown: readonly ScoredModel[], sort: string | null): string {
  const baseline = c.scored[0]!;
  const doc = {
    dataset: c.datasetPath,
    sort,
    conventions: conventionsJson(effectiveConventions(baseline)),
    ...(conventionNotes(c.scored).length > 0 ? { convention_notes: conventionNotes(c.scored) } : {}),
    models: shown.map((m) => {
      const { conventions: _, ...rest } = modelJson(m);
      return rest;
    }),
    leaderboard: c.leaderboard.map((r) => ({
      rank: r.rank,
      model: r.row.model,
      results: r.row.resultsPath,
      accuracy: r.row.summary.accuracy,
      accuracy_ci: pair(r.row.stats?.intervals.accuracy),
      tied_with_leader: r.tiedWithLeader,
      decided_cases: decidedCases(r.row.summary.counts),
      same_cases_as_leader: r.sameCasesAsLeader,
    })),
    baseline: { model: baseline.model, results: baseline.resultsPath },
    comparisons: c.pairings.map(({ index, pairing }) => {
      const m = c.scored[index]!;
      const p = pairing.paired;
      return {
        model: m.model,
        results: m.resultsPath,
        cases: p.cases,
        only_baseline: p.onlyFirst,
        only_model: p.onlySecond,
        accuracy: differenceJson(p.metrics.accuracy),
        brier: differenceJson(p.metrics.brier),
        log_loss: differenceJson(p.metrics.logLoss),
        ece: differenceJson(p.metrics.ece),
        roc_auc: pairing.ranking == null ? null : differenceJson(pairing.ranking.auc),
        average_precision: pairing.ranking == null ? null : differenceJson(pairing.ranking.averagePrecision),
        mcnemar: {
          only_baseline_correct: pairing.mcnemar.onlyFirstCorrect,
          only_model_correct: pairing.mcnemar.onlySecondCorrect,
          p_value: pairing.mcnemar.pValue,
        },
      };
    }),
  };
  return `${jsonDocumentText(doc)}\n`;
}
