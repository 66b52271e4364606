/**
 * decidekit's public library surface. Everything here is stable; modules not exported
 * here are internal.
 */

// Core domain: questions, decisions, metrics and summaries (pure).
export type { Question, QuestionSet, QuestionType, NoulQuestion, ChoiceQuestion, ScoreQuestion } from './core/question.js';
export { answersOf } from './core/question.js';
export { parseWireQuestion, toWireQuestion, toWireQuestions, type ParsedWireQuestion, type WireQuestionOptions, type WireQuestionProblem } from './core/wire-question.js';
export { scoreDecision, klDivergence, brierScore, argmaxFirst, KL_FLOOR, type GoldAnswer, type ScoredDecision } from './core/decision-score.js';
export { calibrate, CalibrationAccumulator, type Calibration, type ReliabilityBin } from './core/calibration.js';
export { percentile, summarizeLatency, type LatencySummary } from './core/percentile.js';
export { rate, type Rating } from './core/rating.js';
export { ExactSum, exactSum, exactMean } from './core/exact-sum.js';
export { DecidekitError, InvalidInputError, UsageError, formatProblem, type InputProblem } from './core/errors.js';

// Benchmark runs.
export type { BenchCase, CaseResult, Decision, DecisionOutcome, Failure, FailureKind, PredictedAnswers, RequestOutcome } from './core/benchmark-case.js';
export { scoreCase } from './core/benchmark-case.js';
export { summarizeBenchmark, type BenchSummary, type MetricGroup, type RunStatus, type SummarizeOptions, type CostSummary } from './core/benchmark-summary.js';
export type { BenchRun, RunConfig, DatasetInfo, EndpointIdentity } from './core/benchmark-run.js';
export { compareRuns, type RunComparison } from './core/run-comparison.js';

// Offline scoring of saved answers.
export type { OfflineCase, OfflineResult, OfflineDecision, OfflineKind } from './core/offline-case.js';
export { createOfflineAccumulator, summarizeOffline, type OfflineSummary } from './core/offline-summary.js';
export { predictYesNo, predictChoice, DEFAULT_YES_NO_THRESHOLD } from './core/offline-prediction.js';
export { loadOfflineDataset, type OfflineDataset } from './datasets/offline-dataset.js';
export { readResults, loadResults, scoreResults } from './datasets/offline-results.js';
export { tuneThreshold, tunePoints, type TuneReport, type TuneOptions } from './core/tune.js';
export { renderScoreText, renderCompareMarkdown } from './reports/offline-text.js';
export { renderTuneText } from './reports/tune-text.js';
export { renderActionsText } from './reports/actions-text.js';
export { evaluateActions, compareActionModels, applyRules, actionCost, type ActionSpec, type ActionEvaluation, type ActionComparison } from './core/actions.js';
export { loadActionSpec, parseActionSpec } from './datasets/action-spec.js';

// The System One protocol: client and reference server.
export { createSystemOneClient, failureOf, isRunStopping, type SystemOneClient, type SystemOneClientOptions, type DecideResult } from './protocol/client.js';
export { endpointFor, redactUrl, endpointIdentity } from './protocol/endpoint.js';
export { parseWireQuestions, type WireQuestionsProblem } from './protocol/wire-question.js';
export { getHealth, listModels, readMetrics } from './protocol/server-probes.js';
export { parsePrometheusText, llamaCppMetricsOf, type LlamaCppMetrics } from './protocol/prometheus-text.js';
export * from './protocol/errors.js';
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './protocol/server.js';
export type { FaultOptions, FaultAction } from './protocol/faults.js';

// Typed Decisions datasets.
export { loadBenchDataset, verifyBenchDataset, questionSetOf, defaultCacheDir, fetchTypedDecisions, DatasetIntegrityError, DatasetFetchError, type DatasetSource, type LoadedBenchDataset } from './datasets/typed-decisions/index.js';

// Running, storing and reporting benchmarks.
export { runBenchmark, type RunBenchmarkOptions, type RunnerEvent, type RunOutcome, type DecisionClient } from './runner/run-benchmark.js';
export { openRunStore, defaultStorePath, fingerprintOf, checkResumable, summarizeRun, type RunStore } from './store/index.js';
export { renderBenchTerminal, type BenchTerminalOptions } from './reports/bench-terminal.js';
export { renderBenchMarkdown, type BenchMarkdownOptions } from './reports/bench-markdown.js';
export { renderBenchJson } from './reports/bench-json.js';
