/**
 * `decidekit/statistics`: the numbers behind every report, pure and seeded. Scoring one
 * decision (KL, Brier), calibration (ECE and the reliability table), summaries of a
 * benchmark, an offline results file and a live window, the bootstrap intervals and paired
 * comparisons, the ECE noise floor, McNemar's exact test, threshold tuning on collected
 * points, Cohen's kappa, exact sums and percentiles, and the conventions each number states.
 */
export type {
  ChoiceQuestion,
  NoulQuestion,
  Question,
  QuestionSet,
  QuestionType,
  ScoreQuestion,
} from '../core/question.js';
export { answersOf } from '../core/question.js';
export {
  argmaxFirst,
  brierScore,
  KL_FLOOR,
  klDivergence,
  scoreDecision,
  type GoldAnswer,
  type ScoredDecision,
} from '../core/decision-score.js';
export {
  calibrate,
  CalibrationAccumulator,
  DEFAULT_CALIBRATION,
  type Calibration,
  type CalibrationOptions,
  type EceAverage,
  type EceBinning,
  type ReliabilityBin,
} from '../core/calibration.js';
export {
  conventionsJson,
  conventionsText,
  DEFAULT_CONVENTIONS,
  describeConventions,
  parseConventions,
  withConventions,
  type ConventionChoice,
  type Conventions,
} from '../core/stats/conventions.js';
export { CaseSampleBuilder, type CaseSample, type CaseStats } from '../core/stats/case-sample.js';
export {
  bootstrapIntervals,
  pairedBootstrap,
  verdictOf,
  type BootstrapResult,
  type Interval,
  type MetricComparison,
  type PairedComparison,
  type StatMetric,
  type Verdict,
} from '../core/stats/bootstrap.js';
export { wilsonInterval } from '../core/stats/wilson.js';
export { mcnemarExact, type McNemarResult } from '../core/stats/mcnemar.js';
export { eceNoiseFloor, eceWithinNoise, type EceNoise, type EceNoiseFloor } from '../core/stats/noise-floor.js';
export { percentile, summarizeLatency, type LatencySummary } from '../core/percentile.js';
export { ExactSum, exactMean, exactSum } from '../core/exact-sum.js';
export { rate, type Rating } from '../core/bench/rating.js';
export { scoreCase, type PredictedAnswers, type RequestOutcome } from '../core/typed-decisions/case-result.js';
export { summarizeBenchmark, type BenchSummary, type CostSummary, type MetricGroup } from '../core/bench/summary.js';
export { caseSampleOfRun, statisticsOfRun, type RunStatistics } from '../core/bench/run-statistics.js';
export { isSameWork, workDifferences } from '../core/bench/run-work.js';
export type { OfflineCase, OfflineDecision, OfflineKind, OfflineResult } from '../core/offline/case.js';
export { createOfflineAccumulator, summarizeOffline, type OfflineSummary } from '../core/offline/summary.js';
export { DEFAULT_YES_NO_THRESHOLD, predictChoice, predictYesNo } from '../core/offline/prediction.js';
export {
  thresholdCurve,
  tunePoints,
  tuneThreshold as tuneThresholdOf,
  type TuneOptions,
  type TunePoint,
  type TuneReport,
} from '../core/offline/threshold-tuning.js';
export {
  actionCost,
  applyRules,
  compareActionModels,
  evaluateActions,
  type ActionComparison,
  type ActionEvaluation,
  type ActionSpec,
} from '../core/offline/composed-actions.js';
export { summarizeWindow, type WindowDecision, type WindowSummary } from '../core/live/window-summary.js';
export { cohenKappa, type Kappa } from '../core/audit/agreement.js';
export { compareWithLabel, parseJudgeAnswer, type AuditOutcome, type JudgeAnswer } from '../core/audit/verdict.js';
export { summarizeAudit, type AuditSummary, type CheckAgreement, type OrderSwapFlips } from '../core/audit/summary.js';
export {
  CONFORMANCE_CHECKS,
  summarizeConformance,
  type ConformanceCheckId,
  type ConformanceSummary,
} from '../core/probe/conformance.js';
export {
  ROBUSTNESS_PROBES,
  summarizeRobustness,
  type DecisionPair,
  type RobustnessProbeId,
  type RobustnessSummary,
} from '../core/probe/robustness.js';
