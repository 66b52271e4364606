/**
 * decidekit's public library surface. Everything here is stable; modules not exported
 * here are internal.
 */

// Core domain: questions, decisions, metrics and summaries (pure).
export type {
  Question,
  QuestionSet,
  QuestionType,
  NoulQuestion,
  ChoiceQuestion,
  ScoreQuestion,
} from './core/question.js';
export { answersOf } from './core/question.js';
export {
  parseWireQuestion,
  toWireQuestion,
  toWireQuestions,
  type ParsedWireQuestion,
  type WireQuestionOptions,
  type WireQuestionProblem,
} from './core/question-rules.js';
export {
  scoreDecision,
  klDivergence,
  brierScore,
  argmaxFirst,
  KL_FLOOR,
  type GoldAnswer,
  type ScoredDecision,
} from './core/decision-score.js';
export {
  calibrate,
  CalibrationAccumulator,
  DEFAULT_CALIBRATION,
  type Calibration,
  type CalibrationOptions,
  type EceAverage,
  type EceBinning,
  type ReliabilityBin,
} from './core/calibration.js';
export {
  conventionsJson,
  conventionsText,
  DEFAULT_CONVENTIONS,
  describeConventions,
  parseConventions,
  withConventions,
  type Conventions,
} from './core/stats/conventions.js';
export { CaseSampleBuilder, type CaseSample, type CaseStats } from './core/stats/case-sample.js';
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
} from './core/stats/bootstrap.js';
export { mcnemarExact, type McNemarResult } from './core/stats/mcnemar.js';
export { eceNoiseFloor, eceWithinNoise, type EceNoise, type EceNoiseFloor } from './core/stats/noise-floor.js';
export { percentile, summarizeLatency, type LatencySummary } from './core/percentile.js';
export { rate, type Rating } from './core/bench/rating.js';
export { ExactSum, exactSum, exactMean } from './core/exact-sum.js';
export {
  DecidekitError,
  InvalidInputError,
  OptionError,
  UsageError,
  formatProblem,
  type ErrorCode,
  type InputProblem,
} from './core/errors.js';

// Benchmark runs.
export type {
  TypedDecisionsCase,
  CaseResult,
  Decision,
  DecisionOutcome,
  Failure,
  FailureKind,
  PredictedAnswers,
  RequestOutcome,
} from './core/typed-decisions/case-result.js';
export { scoreCase } from './core/typed-decisions/case-result.js';
export {
  summarizeBenchmark,
  type BenchSummary,
  type MetricGroup,
  type SummarizeOptions,
  type CostSummary,
} from './core/bench/summary.js';
export type { RunStatus } from './core/run-status.js';
export type { BenchRun, RunConfig } from './core/bench/run.js';
export type { DatasetInfo } from './core/typed-decisions/dataset-info.js';
export type { EndpointIdentity } from './core/endpoint-identity.js';
export { compareRuns, type RunComparison } from './core/bench/run-diff.js';
export { caseSampleOfRun, statisticsOfRun, type RunStatistics } from './core/bench/run-statistics.js';
export { isSameWork, workDifferences } from './core/bench/run-work.js';
export { rankRuns, type LeaderboardRow } from './core/bench/leaderboard.js';
export { gateRuns, type GateResult } from './core/bench/run-gate.js';

// Offline scoring of saved answers.
export type { OfflineCase, OfflineResult, OfflineDecision, OfflineKind } from './core/offline/case.js';
export { createOfflineAccumulator, summarizeOffline, type OfflineSummary } from './core/offline/summary.js';
export { predictYesNo, predictChoice, DEFAULT_YES_NO_THRESHOLD } from './core/offline/prediction.js';
export { loadOfflineDataset, type OfflineDataset } from './datasets/offline/dataset.js';
export { readResults, loadResults, scoreResults } from './datasets/offline/results.js';
export {
  tuneThreshold,
  tunePoints,
  thresholdCurve,
  type TuneReport,
  type TuneOptions,
} from './core/offline/threshold-tuning.js';
export { renderScoreText, renderCompareMarkdown } from './reports/offline/score-text.js';
export { renderTuneText } from './reports/offline/tuning-text.js';
export { renderActionsText } from './reports/offline/actions-text.js';
export {
  evaluateActions,
  compareActionModels,
  applyRules,
  actionCost,
  type ActionSpec,
  type ActionEvaluation,
  type ActionComparison,
} from './core/offline/composed-actions.js';
export { loadActionSpec, parseActionSpec } from './datasets/offline/action-spec.js';

// The System One protocol: client and reference server.
export {
  createSystemOneClient,
  failureOf,
  isRunStopping,
  type SystemOneClient,
  type SystemOneClientOptions,
  type DecideResult,
} from './protocol/client/client.js';
export { endpointFor, redactUrl, endpointIdentity } from './protocol/wire/endpoint.js';
export { parseWireQuestions, type WireQuestionsProblem } from './protocol/wire/questions-json.js';
export { getHealth, listModels, readMetrics } from './protocol/client/server-gets.js';
export { parsePrometheusText, llamaCppMetricsOf, type LlamaCppMetrics } from './protocol/wire/prometheus-text.js';
export * from './protocol/client/errors.js';
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './protocol/server/server.js';
export type { FaultOptions, FaultAction } from './protocol/server/faults.js';

// Typed Decisions datasets.
export {
  loadBenchDataset,
  verifyBenchDataset,
  questionSetOf,
  defaultCacheDir,
  fetchTypedDecisions,
  DatasetIntegrityError,
  DatasetFetchError,
  type DatasetSource,
  type LoadedBenchDataset,
} from './datasets/typed-decisions/index.js';

// Running, storing and reporting benchmarks.
export {
  runBenchmark,
  type RunBenchmarkOptions,
  type RunnerEvent,
  type RunOutcome,
  type DecisionClient,
} from './runner/run-benchmark.js';
export {
  openStore,
  defaultStorePath,
  fingerprintOf,
  checkResumable,
  summarizeRun,
  type Store,
  type StoreRuns,
  type StoreCases,
  type StoreAudits,
  type StoreProbes,
} from './store/index.js';
// The per-decision export table (what `runs export` writes): schema and rows.
export {
  DECISION_SCHEMA_VERSION,
  DECISION_COLUMNS,
  decisionRowsOfRun,
  type DecisionRow,
  type DecisionColumn,
  type DecisionColumnType,
} from './core/export/decision-row.js';
export { renderBenchTerminal, type BenchTerminalOptions } from './reports/bench/bench-terminal.js';
export { renderBenchMarkdown, type BenchMarkdownOptions } from './reports/bench/bench-markdown.js';
export { renderBenchJson } from './reports/bench/bench-json.js';
export { renderBenchHtml, type BenchHtmlOptions } from './reports/bench/bench-html.js';
export { renderRunsCompareHtml } from './reports/runs/runs-compare-html.js';
export {
  renderScoreHtml,
  renderCompareHtml,
  renderTuneHtml,
  renderActionsHtml,
} from './reports/offline/offline-html.js';

// The live monitor: the probe loop, its pure state machine and screen.
export {
  openLive,
  type LiveRequest,
  type LiveSession,
  type LiveHandlers,
  type LivePoll,
  LiveFirstContactError,
} from './app/live/run-live.js';
export {
  createLiveState,
  reduce as reduceLive,
  type LiveState,
  type LiveEvent,
  type LiveInfo,
  type LiveSettings,
} from './monitor/live-state.js';
export { renderLive, type RenderLiveOptions } from './monitor/render-live.js';
export { summarizeWindow, type WindowDecision, type WindowSummary } from './core/live/window-summary.js';

// Answer audits: a decision-model judge against deterministic checks, and the judge's own validation.
export type { AuditCheck, CheckSet, EvidenceScope } from './core/audit/check.js';
export type { Transcript, TranscriptMessage } from './core/audit/transcript.js';
export type { AuditConfig, AuditItem, AuditRecord, AuditRun, OrderSwapResult } from './core/audit/run.js';
export {
  parseJudgeAnswer,
  compareWithLabel,
  type AuditOutcome,
  type JudgeAnswer,
  type UnavailableReason,
} from './core/audit/verdict.js';
export { cohenKappa, type Kappa } from './core/audit/agreement.js';
export { summarizeAudit, type AuditSummary, type CheckAgreement, type OrderSwapFlips } from './core/audit/summary.js';
export { loadChecks } from './datasets/audit/load-checks.js';
export { loadTranscripts, refuseMissingLabels } from './datasets/audit/load-transcripts.js';
export { planAudit, type AuditPlan, type AuditRequest } from './app/audit/plan-audit.js';
export {
  executeAudit,
  planAuditFromStore,
  type ExecuteAuditOptions,
  type AuditOutcomeData,
  type AuditReporter,
  type AuditEvent,
} from './app/audit/execute-audit.js';
export type { WorkReporter } from './app/work-reporter.js';
export { renderAuditMarkdown } from './reports/audit/audit-markdown.js';
export { renderAuditJson } from './reports/audit/audit-json.js';

// Server probes: wire conformance and robustness (determinism, order, names, isolation) of any System One server.
export {
  CONFORMANCE_CHECKS,
  summarizeConformance,
  type ConformanceCheckId,
  type ConformanceSummary,
} from './core/probe/conformance.js';
export {
  ROBUSTNESS_PROBES,
  summarizeRobustness,
  type DecisionPair,
  type RobustnessProbeId,
  type RobustnessSummary,
} from './core/probe/robustness.js';
export { isConformant, type ProbeConfig, type ProbeRun } from './core/probe/run.js';
export { planProbe, type ProbePlan, type ProbeRequest } from './app/probe/plan-probe.js';
export {
  executeProbe,
  type ExecuteProbeOptions,
  type ProbeOutcome,
  type ProbeReporter,
} from './app/probe/execute-probe.js';
export { renderProbeJson } from './reports/probe/probe-json.js';
export { renderProbeMarkdown } from './reports/probe/probe-markdown.js';
export { VIOLATIONS, type Violation } from './protocol/server/violations.js';
