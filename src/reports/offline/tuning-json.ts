/**
 * The `tune --json` document: stable snake_case keys, unrounded numbers, null for absent
 * values. Every number comes from the core TuneReport.
 */
import { jsonDocumentText } from '../../core/safe-text.js';
import type { Spread, ThresholdMetrics, TuneRow } from '../../core/offline/threshold-tuning.js';
import type { TunedModel, TunedRun } from '../../core/offline/tuned-model.js';
import { rankingJson } from '../json-shapes.js';

export type { TunedModel, TunedQuestion, TunedRun } from '../../core/offline/tuned-model.js';

function metricsJson(m: ThresholdMetrics) {
  return {
    threshold: m.threshold,
    n: m.n,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
    accuracy: m.accuracy,
    error_cost_per_call: m.errorCostPerCall,
    meets_floors: m.meetsFloors,
    confusion: { tp: m.confusion.tp, fp: m.confusion.fp, fn: m.confusion.fn, tn: m.confusion.tn },
  };
}

function rowJson(r: TuneRow) {
  return { ...metricsJson(r), cost_per_100_usd: r.costPer100Usd, cost_per_correct_usd: r.costPerCorrectUsd };
}

function spreadJson(s: Spread) {
  return { mean: s.mean, sd: s.sd, min: s.min, max: s.max };
}

/** The JSON object of a tune report (before stringifying). */
export function tuneJson(t: TunedModel) {
  const r = t.report;
  const cv = r.crossValidated;
  return {
    model: t.model,
    dataset: t.datasetPath,
    results: t.resultsPath,
    objective: r.objective,
    costs: r.costs === null ? null : { false_positive: r.costs.falsePositive, false_negative: r.costs.falseNegative },
    floors: { min_precision: r.floors.minPrecision, min_recall: r.floors.minRecall },
    floors_met: r.floorsMet,
    counts: {
      n: r.n,
      positives: r.positives,
      negatives: r.negatives,
      missing: r.missing,
      with_cost: r.withCost,
      candidates: r.candidates,
    },
    total_cost_usd: r.totalCostUsd,
    ranking: t.ranking == null ? null : rankingJson(t.ranking),
    default: rowJson(r.default),
    tuned: rowJson(r.tuned),
    cross_validated:
      cv === null
        ? null
        : {
            k: cv.k,
            seed: cv.seed,
            fold_thresholds: cv.folds.map((f) => f.threshold),
            precision: spreadJson(cv.precision),
            recall: spreadJson(cv.recall),
            f1: spreadJson(cv.f1),
            accuracy: spreadJson(cv.accuracy),
            error_cost_per_call: cv.errorCostPerCall === null ? null : spreadJson(cv.errorCostPerCall),
            correct: cv.correct,
            cost_per_100_usd: cv.costPer100Usd,
            cost_per_correct_usd: cv.costPerCorrectUsd,
            folds: cv.folds.map((f) => ({
              fold: f.index + 1,
              threshold: f.threshold,
              floors_met_on_training: f.floorsMetOnTraining,
              held_out: metricsJson(f.heldOut),
            })),
          },
    cross_validation_skipped: r.crossValidationSkipped,
  };
}

/** `tune --json`: one document. */
export function renderTuneJson(t: TunedModel): string {
  return `${jsonDocumentText(tuneJson(t))}\n`;
}

/** `tune RUN --json`: the run, then one document per yes/no question (or why it was skipped). */
export function renderTunedRunJson(t: TunedRun): string {
  return `${jsonDocumentText({
    run: t.runId,
    model: t.model,
    dataset: t.dataset,
    questions: t.questions.map((q) => {
      if ('skipped' in q) return { question: q.question, skipped: q.skipped };
      const { model: _m, dataset: _d, results: _r, ...rest } = tuneJson(q.tuned);
      return { question: q.question, ...rest };
    }),
  })}\n`;
}
