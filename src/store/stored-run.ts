/** A stored bench run as the store's port reads and writes it (see `store.ts`). */
import type { BenchRun } from '../core/bench/run.js';
import type { DatasetInfo } from '../core/typed-decisions/dataset-info.js';
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import type { BenchSummary } from '../core/bench/summary.js';
import type { RunStatus, StoredStatus } from '../core/run-status.js';
import type { QuestionType } from '../core/question.js';
import type { FailureKind } from '../core/typed-decisions/case-result.js';

/** Headline metrics copied from the run's summary; null while the run has none yet. */
export interface RunHeadline {
  readonly accuracy: number | null;
  readonly kl: number | null;
  readonly brier: number | null;
  readonly ece: number | null;
  readonly meanConfidence: number | null;
  readonly total: number;
  readonly correct: number;
  readonly errors: number;
  readonly latencyP50Ms: number | null;
}

/** One line of `runs list`: what a run is, without its cases. */
export interface StoredRunHead {
  readonly id: string;
  /** ISO 8601, as given to `runs.create`. */
  readonly createdAt: string;
  readonly status: StoredStatus;
  readonly label: string | null;
  readonly fingerprint: string;
  readonly toolVersion: string;
  readonly model: string | null;
  readonly endpoint: EndpointIdentity;
  readonly embeddedServer: { readonly model: string } | null;
  readonly dataset: Pick<DatasetInfo, 'id' | 'revision' | 'split' | 'synthetic'>;
  /** Cases the run meant to send. */
  readonly caseCount: number;
  /** Cases with a saved result (answered or failed). */
  readonly savedCases: number;
  /** `--limit` or `--workflow` was used: never comparable with a full run. */
  readonly filtered: boolean;
  readonly durationMs: number | null;
  readonly headline: RunHeadline | null;
  /**
   * The models the server named in its answers, sorted, for a run that asked for none
   * (`model` null, no embedded server): empty when no answer named one; null for a run that
   * asked for a model (not read).
   */
  readonly answeredModels: readonly string[] | null;
}

export interface FinishRunInput {
  readonly status: RunStatus;
  readonly durationMs: number | null;
  /** Stored verbatim; its `status` must equal `status`. */
  readonly summary: BenchSummary;
}

export interface SaveProgress {
  /** The run's sending time so far (earlier sessions included). */
  readonly durationMs?: number;
}

/** A stored run without its cases. */
export type StoredRunInfo = Omit<BenchRun, 'cases'>;

/** What `runs.check` found for one run: no problems means it reads back as it was saved. */
export interface RunCheck {
  readonly id: string;
  readonly status: StoredStatus | null;
  readonly savedCases: number;
  readonly problems: readonly string[];
}

/** What `Store.check` found: SQLite's own check (empty when it says ok) and every run's. */
export interface StoreCheck {
  readonly path: string;
  readonly integrity: readonly string[];
  readonly runs: readonly RunCheck[];
}

/**
 * One stored decision as `StoreCases.decisionValues` reads it, by position: its case's values,
 * then its own as stored (JSON as its text), then its answers and predicted distribution
 * parsed. Checked as the case iterator checks a case: a status, failure kind or score no
 * saved case has is damage.
 */
export type StoredDecisionValues = readonly [
  caseId: string,
  workflow: string,
  requestStatus: 'answered' | 'failed',
  latencyMs: number | null,
  /** The request's input tokens as stored (none for a failed request). */
  inputTokens: number | null,
  requestErrorKind: string | null,
  questionId: string,
  type: QuestionType,
  answersJson: string,
  goldLabel: string,
  goldProbabilitiesJson: string,
  status: 'answered' | 'failed',
  predicted: string | null,
  /** 1 or 0 for an answered decision, else null. */
  correct: number | null,
  confidence: number | null,
  kl: number | null,
  brier: number | null,
  probabilitiesJson: string | null,
  errorKind: FailureKind | null,
  errorMessage: string | null,
  answers: readonly string[],
  /** The predicted distribution of an answered decision, else null. */
  probabilities: readonly number[] | null,
];
