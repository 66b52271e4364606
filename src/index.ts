/**
 * decidekit's library entry, shaped by the tasks a caller has: benchmark a server, score and
 * compare saved answers, tune a threshold, compose actions, audit, probe, start the reference
 * server, open the store; with their results and errors. The pieces under those tasks have
 * their own entries: `decidekit/statistics` (the numbers), `decidekit/system-one` (the
 * client and the wire format), `decidekit/reports` (the renderers), `decidekit/live` (the
 * live monitor) and `decidekit/datasets` (the loaders). Modules exported nowhere are internal.
 */

// Errors: every error decidekit throws is a DecidekitError with a `code`; a wrong option of
// a call is an OptionError naming the option as the call spells it.
export { DecidekitError, InvalidInputError, OptionError, type ErrorCode, type InputProblem } from './core/errors.js';
export type { CallOption, MessageWords, OptionMention, Said } from './core/message-words.js';
export { spellForLibrary } from './core/message-words.js';
export { SystemOneError } from './protocol/client/errors.js';
export { DatasetFetchError, DatasetIntegrityError } from './datasets/typed-decisions/dataset-errors.js';
export { StoreDamagedError, StoreNeedsUpgradeError, StoreWriteError, UnknownRunError } from './store/store-errors.js';
export { TOOL_VERSION } from './core/tool-version.js';
export type { WorkReporter } from './app/work-reporter.js';
export type { UseCaseWiring } from './app/use-case-wiring.js';

// Benchmark a server: plan, then execute (the embedded reference server unless a baseUrl
// is given, the store unless storePath is null); or run the cases yourself with runBenchmark.
export { planBench, type BenchRequest, type BenchPlan } from './app/bench/plan-bench.js';
export {
  executeBench,
  planBenchFromStore,
  type BenchOutcome,
  type BenchReporter,
  type ExecuteBenchOptions,
} from './app/bench/execute-bench.js';
export type { DatasetChoice } from './app/dataset-choice.js';
export type { ServerPlan } from './app/server-plan.js';
export {
  runBenchmark,
  type CaseQueue,
  type DecisionClient,
  type RunBenchmarkOptions,
  type RunnerEvent,
  type RunOutcome,
  type StopReason,
} from './runner/run-benchmark.js';
export type { RunProgress } from './core/bench/progress.js';
export { loadBenchDataset, type DatasetSource, type LoadedBenchDataset } from './datasets/typed-decisions/index.js';
export { summarizeBenchmark, type BenchSummary, type SummarizeOptions } from './core/bench/summary.js';
export type {
  CaseResult,
  Decision,
  DecisionOutcome,
  Failure,
  FailureKind,
  TypedDecisionsCase,
} from './core/typed-decisions/case-result.js';
export type { BenchRun, RunConfig } from './core/bench/run.js';
export type { RunStatus } from './core/run-status.js';

// Compare stored runs and gate a build on them.
export { compareRuns, type RunComparison } from './core/bench/run-diff.js';
export { gateRuns, type GateResult } from './core/bench/run-gate.js';
export { rankRuns, type LeaderboardRow } from './core/bench/leaderboard.js';

// Score, compare and validate saved answers (results files) against a dataset.
export {
  compareResultsFiles,
  scoreResultsFiles,
  type OfflineComparison,
  type ScoreFilesOptions,
} from './app/offline/score-files.js';
export { validateFiles } from './app/offline/validate-files.js';
export type { ComparedModels, FileCheck, ScoredModel } from './core/offline/scored-files.js';
export type { OfflineSummary } from './core/offline/summary.js';

// Tune a yes/no threshold, cross-validated; compose field decisions into priced actions.
export { tuneThreshold } from './app/offline/tune-threshold.js';
export type { TuneOptions, TuneReport } from './core/offline/threshold-tuning.js';
export { composeActions, type ComposeActionsInput } from './app/offline/compose-actions.js';
export type { ActionComparison, ActionEvaluation, ActionSpec } from './core/offline/composed-actions.js';

// Audit agents' answers with a decision-model judge.
export { planAudit, type AuditRequest, type AuditPlan } from './app/audit/plan-audit.js';
export {
  executeAudit,
  planAuditFromStore,
  type AuditEvent,
  type AuditOutcomeData,
  type AuditReporter,
  type ExecuteAuditOptions,
} from './app/audit/execute-audit.js';
export type { AuditRun } from './core/audit/run.js';
export type { AuditSummary } from './core/audit/summary.js';

// Probe a server: wire conformance and robustness.
export { planProbe, type ProbePlan, type ProbeRequest } from './app/probe/plan-probe.js';
export {
  executeProbe,
  type ExecuteProbeOptions,
  type ProbeOutcome,
  type ProbeReporter,
} from './app/probe/execute-probe.js';
export { isConformant, type ProbeConfig, type ProbeRun } from './core/probe/run.js';

// Start the reference server (built-in models, seeded faults).
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './protocol/server/server.js';
export type { FaultAction, FaultOptions } from './protocol/server/faults.js';

// Open the store: runs and their cases, audits, probes, behind one port.
export { openStore, type OpenStoreOptions } from './store/open-store-with-postgres.js';
export { defaultStorePath } from './store/default-store-path.js';
export type {
  ClaimHolder,
  Store,
  StoreAudits,
  StoreCases,
  StoreClaims,
  StoreProbes,
  StoreRuns,
} from './store/store.js';
