import type { BenchRun, RunConfig } from '../core/bench/run.js';
import type { DatasetInfo } from '../core/typed-decisions/dataset-info.js';
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import type { BenchSummary } from '../core/bench/summary.js';
import type { RunStatus, StoredStatus } from '../core/run-status.js';
import type { RunStatistics } from '../core/bench/run-statistics.js';
import type { AskedBy } from './record-kind.js';

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
  /** ISO 8601, as given to `createRun`. */
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

/** What `checkRun` found for one run: no problems means it reads back as it was saved. */
export interface RunCheck {
  readonly id: string;
  readonly status: StoredStatus | null;
  readonly savedCases: number;
  readonly problems: readonly string[];
}

/** What `checkStore` found: SQLite's own check (empty when it says ok) and every run's. */
export interface StoreCheck {
  readonly path: string;
  readonly integrity: readonly string[];
  readonly runs: readonly RunCheck[];
}

/**
 * Where benchmark runs are kept. Every write is committed durably before the call returns,
 * so a run killed outright loses only cases whose `saveCase` had not returned.
 */
export interface RunStore {
  /** Path of the database file (for messages). */
  readonly path: string;
  /** Starts a run in status `running`. `createdAt` is ISO 8601 and also dates the id. */
  createRun(input: {
    readonly config: RunConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): StoredRunHead;
  /**
   * Saves a finished case, replacing an earlier result of the same case (retries). Saving
   * to a finished run puts it back in status `running` (its stored summary is dropped
   * until `finishRun`).
   */
  saveCase(runId: string, result: CaseResult): void;
  /**
   * `saveCase` for several cases in one transaction (one fsync): durable when it returns.
   * `progress.durationMs` (the run's sending time so far, earlier sessions included) is
   * stored in the same transaction, so a killed run keeps a duration. Throws
   * `StoreWriteError` when the write does not reach the store (nothing of the batch is kept).
   */
  saveCases(runId: string, results: readonly CaseResult[], progress?: SaveProgress): void;
  finishRun(runId: string, input: FinishRunInput): void;
  /**
   * Marks a run left `running` (its process died) as interrupted, with a summary of the
   * cases it saved. A run in any other status is left as it is.
   */
  markInterrupted(runId: string): void;
  /** Removes a run with its cases and decisions; false when there was no such run. */
  deleteRun(runId: string): boolean;
  /** Puts a stored run back in status `running` (what `saveCase` does implicitly). */
  reopenRun(runId: string): void;
  getHead(id: string): StoredRunHead | null;
  /**
   * The run with its saved cases in `config.caseIds` order. The summary is the one stored
   * by `finishRun`/`markInterrupted`; a run still `running` gets one computed from its
   * saved cases.
   */
  getRun(id: string): BenchRun | null;
  /**
   * The run's saved cases in run order, read one at a time from one snapshot, so a run of
   * any size can be rendered or exported without holding it. Finish (or `return()`) the
   * iteration before writing to this store again.
   */
  iterateCases(runId: string): Generator<CaseResult>;
  /**
   * The run without its cases: configuration and summary (the stored one, or for a run
   * still `running` one computed case by case without holding them).
   */
  getRunInfo(id: string): StoredRunInfo | null;
  /**
   * Keeps the intervals and ECE noise floor of a finished run, computed under its own
   * conventions (with its seed), beside its summary; a run with no stored summary keeps
   * none. Writing the summary again (a resume, `markInterrupted`) drops them.
   */
  saveStatistics(id: string, statistics: RunStatistics): void;
  /** What `saveStatistics` kept for the run's current summary, or null (none kept, or an older store's run). */
  getStatistics(id: string): RunStatistics | null;
  /** `getRunInfo` and `getStatistics` read together, in one snapshot of the store. */
  getRunInfoWithStatistics(
    id: string,
  ): { readonly info: StoredRunInfo; readonly statistics: RunStatistics | null } | null;
  /** Ids of cases with a saved answer; with `includeFailed`, also those whose request failed. */
  savedCaseIds(runId: string, options?: { readonly includeFailed?: boolean }): Set<string>;
  /** Ids of the saved cases by their request's outcome, read at once. */
  savedCasesByOutcome(runId: string): { readonly answered: Set<string>; readonly failed: Set<string> };
  /** Newest first. */
  listRuns(options?: { readonly limit?: number }): StoredRunHead[];
  /** How many runs the store holds in each status (every run, whatever a list's limit). */
  countRuns(): Readonly<Record<StoredStatus, number>>;
  /**
   * Recomputes the run's summary from its stored decisions (each decision re-scored from its
   * stored answers, gold and predicted distribution) and compares it with the stored one.
   */
  checkRun(id: string): RunCheck;
  /** `PRAGMA quick_check` and `checkRun` for every stored run (or only `runIds`). */
  checkStore(options?: { readonly runIds?: readonly string[] }): StoreCheck;
  /**
   * The full id of the one run whose id starts with `prefix`; throws `unknown_run` /
   * `ambiguous_run`, naming an audit or probe id as such (and the command `askedBy`).
   */
  resolveId(prefix: string, askedBy?: AskedBy): string;
  close(): void;
}
