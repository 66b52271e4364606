/**
 * Every number `score` and `compare` show for one model (docs/scoring.md, "Offline: one model").
 * Streaming: results are added one at a time and nothing per result is kept (unless an
 * `OfflineCaseRecord` is given, for intervals: typed arrays, 36 bytes a case), so a results
 * file of any length needs constant memory here. Sums are exact, so the summary does not
 * depend on the order of the results.
 */
import { CalibrationAccumulator, type Calibration, type ReliabilityBin } from '../calibration.js';
import { ExactSum } from '../exact-sum.js';
import type { OfflineCaseRecord } from './case-record.js';
import type { ChoiceDecision, OfflineCase, OfflineResult, ScoreDecision, YesNoDecision } from './case.js';
import {
  choiceBrier,
  DEFAULT_YES_NO_THRESHOLD,
  logLoss as logLossOf,
  predictedChoiceIndex,
  predictYesNo,
  yesNoBrier,
} from './prediction.js';

export interface OfflineCounts {
  /** Cases in the dataset. */
  readonly nCases: number;
  /** Cases with a result, by kind. */
  readonly nScored: { readonly yesNo: number; readonly choice: number; readonly score: number; readonly total: number };
  /** Cases without a result. */
  readonly nMissing: number;
  /** Correct yes_no + choice decisions. */
  readonly nCorrect: number;
  /** Results that carry `cost_usd` / `latency_ms`. */
  readonly nWithCost: number;
  readonly nWithLatency: number;
}

/** Yes/no and choice cases with a result: those accuracy, Brier and log loss are over. */
export function decidedCases(counts: OfflineCounts): number {
  return counts.nScored.yesNo + counts.nScored.choice;
}

/** Why cost per correct decision is absent. */
export type CostPerCorrectReason = 'no_cost' | 'no_correct';

export interface OfflineSummary {
  /** Correct / scored over yes_no and choice results; null with none. */
  readonly accuracy: number | null;
  /** Mean Brier over yes_no and choice (0..2, 0 best); null with none. */
  readonly brier: number | null;
  /** Mean -ln(max(p_true, 1e-15)); null with none. */
  readonly logLoss: number | null;
  /** Expected calibration error (ten equal-width bins, pooled, unless the conventions say otherwise); null with none. */
  readonly ece: number | null;
  /** Mean confidence of the predicted answers; null with none. */
  readonly meanConfidence: number | null;
  /** Non-empty bins, lowest first. */
  readonly reliability: readonly ReliabilityBin[];
  /** Mean abs(value - correct) over score results; null with none. */
  readonly scoreMae: number | null;
  /** Sum of `cost_usd` over all results that carry it; null when none does. */
  readonly totalCostUsd: number | null;
  /** totalCostUsd / correct decisions; null with `costPerCorrectReason` saying why. */
  readonly costPerCorrectUsd: number | null;
  readonly costPerCorrectReason: CostPerCorrectReason | null;
  /** Mean `latency_ms` over results that carry it; null when none does. */
  readonly meanLatencyMs: number | null;
  /** The yes/no threshold used for predictions. */
  readonly threshold: number;
  readonly counts: OfflineCounts;
}

export interface OfflineAccumulatorOptions {
  /** Predicted yes iff p >= threshold. Default 0.5. */
  readonly threshold?: number;
  /**
   * ECE bins of the streaming calibration (equal-width, pooled); default 10. Other
   * conventions need every decision: record them and use `withCalibration`.
   */
  readonly eceBins?: number;
  /** When given, each yes_no / choice decision is also recorded here by its case index. */
  readonly record?: OfflineCaseRecord;
}

export interface OfflineAccumulator {
  /** Adds one result for its case (the decision must be of the case's kind). */
  add(c: OfflineCase, r: OfflineResult, caseIndex?: number): void;
  /**
   * The same as `add`, on bare values (for loaders that stream millions of results without
   * making objects). `costUsd` / `latencyMs` are NaN when the result has none.
   */
  addYesNo(correct: boolean, probability: number, costUsd: number, latencyMs: number, caseIndex?: number): void;
  /** `probabilities` aligned with the options; `pickedIndex` -1 when none was given. */
  addChoice(
    correctIndex: number,
    probabilities: readonly number[],
    pickedIndex: number,
    costUsd: number,
    latencyMs: number,
    caseIndex?: number,
  ): void;
  addScore(correct: number, value: number, costUsd: number, latencyMs: number): void;
  /** The summary so far; `nCases` is the size of the dataset (for the missing count). */
  summarize(nCases: number): OfflineSummary;
}

export function createOfflineAccumulator(options: OfflineAccumulatorOptions = {}): OfflineAccumulator {
  const threshold = options.threshold ?? DEFAULT_YES_NO_THRESHOLD;
  const brier = new ExactSum();
  const logLoss = new ExactSum();
  const absError = new ExactSum();
  const cost = new ExactSum();
  const latency = new ExactSum();
  const calibration = new CalibrationAccumulator(
    options.eceBins === undefined ? undefined : { bins: options.eceBins, binning: 'equal-width', average: 'pooled' },
  );
  const record = options.record;
  let yesNo = 0;
  let choice = 0;
  let score = 0;
  let correct = 0;

  const extras = (costUsd: number, latencyMs: number): void => {
    if (costUsd === costUsd) cost.add(costUsd);
    if (latencyMs === latencyMs) latency.add(latencyMs);
  };
  const addDecided = (
    hit: boolean,
    confidence: number,
    brierTerm: number,
    logLossTerm: number,
    caseIndex: number | undefined,
  ): void => {
    if (record !== undefined && caseIndex !== undefined)
      record.record(caseIndex, hit, confidence, brierTerm, logLossTerm);
    if (hit) correct++;
    brier.add(brierTerm);
    logLoss.add(logLossTerm);
    calibration.add(confidence, hit);
  };

  const acc: OfflineAccumulator = {
    add(c, r, caseIndex) {
      const d = r.decision;
      if (d.kind !== c.kind) throw new TypeError(`a ${d.kind} decision cannot answer ${c.kind} case ${c.id}`);
      const costUsd = r.costUsd ?? NaN;
      const latencyMs = r.latencyMs ?? NaN;
      if (c.kind === 'yes_no') acc.addYesNo(c.correct, (d as YesNoDecision).probability, costUsd, latencyMs, caseIndex);
      else if (c.kind === 'choice')
        acc.addChoice(
          c.correctIndex,
          (d as ChoiceDecision).probabilities,
          (d as ChoiceDecision).pickedIndex ?? -1,
          costUsd,
          latencyMs,
          caseIndex,
        );
      else acc.addScore(c.correct, (d as ScoreDecision).value, costUsd, latencyMs);
    },

    addYesNo(isYes, p, costUsd, latencyMs, caseIndex) {
      yesNo++;
      const prediction = predictYesNo(p, threshold);
      addDecided(
        prediction.yes === isYes,
        prediction.confidence,
        yesNoBrier(p, isYes),
        logLossOf(isYes ? p : 1 - p),
        caseIndex,
      );
      if (record !== undefined && caseIndex !== undefined) record.recordYesNo(caseIndex, p, isYes);
      extras(costUsd, latencyMs);
    },

    addChoice(correctIndex, probabilities, pickedIndex, costUsd, latencyMs, caseIndex) {
      choice++;
      const index = predictedChoiceIndex(probabilities, pickedIndex);
      addDecided(
        index === correctIndex,
        probabilities[index] as number,
        choiceBrier(probabilities, correctIndex),
        logLossOf(probabilities[correctIndex] as number),
        caseIndex,
      );
      extras(costUsd, latencyMs);
    },

    addScore(correctValue, value, costUsd, latencyMs) {
      score++;
      absError.add(Math.abs(value - correctValue));
      extras(costUsd, latencyMs);
    },

    summarize(nCases) {
      return offlineSummaryOf(
        {
          yesNo,
          choice,
          score,
          correct,
          brierSum: brier.value(),
          logLossSum: logLoss.value(),
          absErrorSum: absError.value(),
          costSum: cost.n === 0 ? null : cost.value(),
          withCost: cost.n,
          latencySum: latency.value(),
          withLatency: latency.n,
        },
        calibration.summarize(),
        threshold,
        nCases,
      );
    },
  };
  return acc;
}

/**
 * The sums an offline summary is made of, however they were gathered: by the accumulator
 * above (exact sums) or by an engine that scores outside this process (`score --engine duckdb`).
 */
export interface OfflineTotals {
  readonly yesNo: number;
  readonly choice: number;
  readonly score: number;
  /** Correct yes_no + choice decisions. */
  readonly correct: number;
  /** Sums over yes_no + choice decisions. */
  readonly brierSum: number;
  readonly logLossSum: number;
  /** Sum of abs(value - correct) over score decisions. */
  readonly absErrorSum: number;
  /** Sum of cost_usd over the results that carry one; null when none does. */
  readonly costSum: number | null;
  readonly withCost: number;
  readonly latencySum: number;
  readonly withLatency: number;
}

/** Every number of an offline summary, from its totals and the calibration of its decisions. */
export function offlineSummaryOf(
  t: OfflineTotals,
  cal: Calibration,
  threshold: number,
  nCases: number,
): OfflineSummary {
  const decided = t.yesNo + t.choice;
  const total = decided + t.score;
  const totalCostUsd = t.withCost === 0 ? null : t.costSum;
  const costPerCorrectReason: CostPerCorrectReason | null =
    totalCostUsd === null ? 'no_cost' : t.correct === 0 ? 'no_correct' : null;
  return {
    accuracy: decided === 0 ? null : t.correct / decided,
    brier: decided === 0 ? null : t.brierSum / decided,
    logLoss: decided === 0 ? null : t.logLossSum / decided,
    ece: cal.ece,
    meanConfidence: cal.meanConfidence,
    reliability: cal.bins,
    scoreMae: t.score === 0 ? null : t.absErrorSum / t.score,
    totalCostUsd,
    costPerCorrectUsd: totalCostUsd === null || t.correct === 0 ? null : totalCostUsd / t.correct,
    costPerCorrectReason,
    meanLatencyMs: t.withLatency === 0 ? null : t.latencySum / t.withLatency,
    threshold,
    counts: {
      nCases,
      nScored: { yesNo: t.yesNo, choice: t.choice, score: t.score, total },
      nMissing: Math.max(0, nCases - total),
      nCorrect: t.correct,
      nWithCost: t.withCost,
      nWithLatency: t.withLatency,
    },
  };
}

/** Summary of a list of (case, result) pairs; `nCases` defaults to the number of pairs. */
export function summarizeOffline(
  pairs: Iterable<{ readonly case: OfflineCase; readonly result: OfflineResult }>,
  options: OfflineAccumulatorOptions & { readonly nCases?: number } = {},
): OfflineSummary {
  const acc = createOfflineAccumulator(options);
  let n = 0;
  for (const p of pairs) {
    acc.add(p.case, p.result);
    n++;
  }
  return acc.summarize(options.nCases ?? n);
}

/** The summary with its ECE, mean confidence and reliability table from `calibration` (another convention). */
export function withCalibration(summary: OfflineSummary, calibration: Calibration): OfflineSummary {
  return {
    ...summary,
    ece: calibration.ece,
    meanConfidence: calibration.meanConfidence,
    reliability: calibration.bins,
  };
}

/** Plain-language reason for an absent cost per correct decision. */
export function describeCostPerCorrectReason(reason: CostPerCorrectReason): string {
  return reason === 'no_cost' ? 'no result carries cost_usd' : 'no decision is correct';
}

/** A metric of an offline summary that may be absent. */
export type OfflineMetricName =
  | 'accuracy'
  | 'brier'
  | 'logLoss'
  | 'ece'
  | 'meanConfidence'
  | 'scoreMae'
  | 'totalCostUsd'
  | 'costPerCorrectUsd'
  | 'meanLatencyMs';

/** Why each absent (null) metric of a summary is absent; metrics with a value have no entry. */
export function offlineNullReasons(s: OfflineSummary): Partial<Record<OfflineMetricName, string>> {
  const out: Partial<Record<OfflineMetricName, string>> = {};
  const c = s.counts;
  const noDecisions = c.nScored.total === 0 ? 'no case has a result' : 'no yes_no or choice case has a result';
  for (const k of ['accuracy', 'brier', 'logLoss', 'ece', 'meanConfidence'] as const)
    if (s[k] === null) out[k] = noDecisions;
  if (s.scoreMae === null) out.scoreMae = c.nScored.total === 0 ? 'no case has a result' : 'no score case has a result';
  if (s.totalCostUsd === null) out.totalCostUsd = 'no result carries cost_usd';
  if (s.costPerCorrectUsd === null && s.costPerCorrectReason !== null)
    out.costPerCorrectUsd = describeCostPerCorrectReason(s.costPerCorrectReason);
  if (s.meanLatencyMs === null) out.meanLatencyMs = 'no result carries latency_ms';
  return out;
}
