/**
 * The store port: one object for everything decidekit keeps (bench runs and their cases,
 * answer audits, server probes), in four parts, plus the calls that span them (an id of
 * any kind resolved, the whole store checked, closing). `sqlite/` is its adapter (one file,
 * WAL, a versioned schema); `contract/store-contract.ts` is the suite every adapter passes.
 *
 * The port is synchronous, on purpose. The reports read a run's cases as a `CaseSource`,
 * a plain iterable walked once or twice while rendering and never held whole; the bench's
 * resume, `runs check` and the summaries read cases the same way. An async port would turn
 * every renderer and summary into async code for no gain with SQLite, whose driver is
 * synchronous. Only the bench's hot path is asynchronous, and it already has its own
 * asynchronous part: `cases.startWriter()` commits batches off the calling thread.
 *
 * An adapter over an asynchronous driver (PostgreSQL's `pg`) implements the same port with
 * its driver on a worker thread, as `writer/` already does for SQLite: each call posts a
 * request to the worker and waits for the reply on `Atomics.wait` (reading it with
 * `receiveMessageOnPort`), and `cases.iterate` fetches a page of cases per round trip from
 * a cursor the worker holds. Blocking the calling thread for one round trip is what the
 * SQLite adapter does for one read today; the per-case writes, the only calls made while
 * requests are in flight, stay asynchronous through `startWriter`. The contract suite is
 * written against this port only, so such an adapter passes it unchanged.
 */
import type { RunStatus, StoredStatus } from '../core/run-status.js';
import type { AuditConfig, AuditItem, AuditRecord, AuditRun } from '../core/audit/run.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import type { BenchRun, CaseSource, ReplicaSetAside, RunConfig } from '../core/bench/run.js';
import type { RunListings } from '../core/bench/run-listings.js';
import type { RunStatistics } from '../core/bench/run-statistics.js';
import type { ProbeRun } from '../core/probe/run.js';
import type { AskedBy, RecordKind } from './record-kind.js';
import type { AuditHead } from './stored-audit.js';
import type { DecisionCsvOptions } from './decision-csv.js';
import type { ProbeHead } from './stored-probe.js';
import type {
  FinishRunInput,
  RunCheck,
  SaveProgress,
  StoreCheck,
  StoredDecisionValues,
  StoredRunHead,
  StoredRunInfo,
} from './stored-run.js';

/**
 * Where decidekit keeps what it records. Every write is committed before its call returns,
 * so a process killed outright loses only writes that had not returned.
 */
export interface Store {
  /** Where the store is (its file), for messages and for the claim file beside it. */
  readonly path: string;
  /**
   * The temp copy of the file this store reads, when it cannot read `path` in place (a store
   * of an older schema, read through an upgraded copy; one in a read-only folder, through a
   * snapshot); absent when it reads `path` itself. Another reader of the same run (a worker
   * thread) opens this one rather than copying the file again. Removed when the store closes.
   */
  readonly copyPath?: string;
  readonly runs: StoreRuns;
  readonly cases: StoreCases;
  readonly audits: StoreAudits;
  readonly probes: StoreProbes;
  /**
   * Who sends a run now, kept by the store itself (a database shared by several machines);
   * absent, a claim is a file beside the store (`run-claim.ts`).
   */
  readonly claims?: StoreClaims;
  /**
   * The full id of the one record of `kind` whose id starts with `prefix`. Throws
   * `unknown_run` (naming an id of another kind as such, and the command `askedBy`) or
   * `ambiguous_run`. Audit and probe ids may be given with or without `audit-` / `probe-`.
   */
  resolveId(prefix: string, kind: RecordKind, askedBy?: AskedBy): string;
  /** The store's own integrity check and `runs.check` for every stored run (or only `runIds`). */
  check(options?: { readonly runIds?: readonly string[] }): StoreCheck;
  /** Closes the store; closing it again does nothing. What `cases.source` gave stays readable. */
  close(): void;
}

/** Claims of runs kept by the store: one process at a time sends a run's cases. */
export interface StoreClaims {
  /**
   * Claims `runId` for `holder` until released or until the holder's process ends. Throws
   * `run_busy` naming the holder when another process holds it, ending with `advice`.
   */
  claim(runId: string, holder: ClaimHolder, advice: string): { release(): void };
  /** The process that holds `runId` now, or null. */
  holder(runId: string): ClaimHolder | null;
}

/** A process that claims a run: its pid, its host and since when. */
export interface ClaimHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** Bench runs: their configuration, status and summary (their cases are `StoreCases`). */
export interface StoreRuns {
  /** Starts a run in status `running`. `createdAt` is ISO 8601 and also dates the id. */
  create(input: {
    readonly config: RunConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): StoredRunHead;
  /** Stores the final summary and status (its `summary.status` must equal `status`). */
  finish(runId: string, input: FinishRunInput): void;
  /**
   * Marks a run left `running` (its process died) as interrupted, with a summary of the
   * cases it saved. A run in any other status is left as it is.
   */
  markInterrupted(runId: string): void;
  /** Puts a stored run back in status `running` (what saving a case does implicitly). */
  reopen(runId: string): void;
  /** Removes a run with its cases; false when there was no such run. */
  delete(runId: string): boolean;
  head(id: string): StoredRunHead | null;
  /**
   * The run with its saved cases in `config.caseIds` order. The summary is the one stored
   * by `finish`/`markInterrupted`; a run still `running` gets one computed from its cases.
   */
  get(id: string): BenchRun | null;
  /**
   * The run without its cases: configuration and summary (the stored one, or for a run
   * still `running` one computed case by case without holding them).
   */
  info(id: string): StoredRunInfo | null;
  /** `info` and `statistics` read together, from one snapshot of the store. */
  infoWithStatistics(id: string): { readonly info: StoredRunInfo; readonly statistics: RunStatistics | null } | null;
  /**
   * Keeps the intervals and ECE noise floor of a finished run beside its summary; a run
   * with no stored summary keeps none. Writing the summary again drops them.
   */
  saveStatistics(id: string, statistics: RunStatistics): void;
  /**
   * Keeps the note of a replica set aside while the run is sent, after the run's earlier
   * ones (read back as `setAside` of `info` and `get`). Throws for an unknown run.
   */
  noteSetAside(id: string, note: ReplicaSetAside): void;
  /** What `saveStatistics` kept for the run's current summary, or null. Throws for an unknown run. */
  statistics(id: string): RunStatistics | null;
  /**
   * Keeps what a finished run's report lists (failed cases, confusion matrices, latencies,
   * the most confident disagreements) beside its summary, so a report of it reads none of
   * its cases for them; a run with no stored summary keeps none, and writing the summary
   * again (finishing, reopening, saving cases) drops them.
   */
  saveListings(id: string, listings: RunListings): void;
  /** What `saveListings` kept for the run's current summary, or null. Throws for an unknown run. */
  listings(id: string): RunListings | null;
  /** Newest first. */
  list(options?: { readonly limit?: number }): StoredRunHead[];
  /** How many runs the store holds in each status (every run, whatever a list's limit). */
  count(): Readonly<Record<StoredStatus, number>>;
  /**
   * Recomputes the run's summary from its stored decisions (each re-scored from its stored
   * answers, gold and predicted distribution) and compares it and the stored records.
   */
  check(id: string): RunCheck;
}

/** A run's finished cases: saved one batch at a time, read back in run order. */
export interface StoreCases {
  /**
   * Saves finished cases in one transaction, replacing earlier results of the same cases
   * (retries); `progress.durationMs` is stored with them. Saving to a finished run puts it
   * back in `running`. Throws `StoreWriteError` when the write does not reach the store
   * (nothing of the batch is kept).
   */
  save(runId: string, results: readonly CaseResult[], progress?: SaveProgress): void;
  /**
   * A writer that commits batches off the calling thread (what `bench` uses while requests
   * are in flight): each batch's promise resolves once committed, in the order given.
   */
  startWriter(): Promise<CaseWriter>;
  /**
   * The run's saved cases in run order, read one at a time from one snapshot. Finish (or
   * `return()`) the iteration before writing to this store again. `fromPosition`: only the
   * cases at that place in the run's case ids or later, those before not read.
   */
  iterate(runId: string, options?: { readonly fromPosition?: number }): Generator<CaseResult>;
  /**
   * Every saved decision of the run as one flat array with its case's values, in run order
   * (cases in the run's order, questions in each case's), from one snapshot: what
   * `runs export` writes, read without the case objects `iterate` builds. Checked as
   * `iterate` checks its rows. Finish (or `return()`) it before writing to this store again.
   */
  decisionValues(runId: string): Generator<StoredDecisionValues>;
  /**
   * The same decisions as CSV text for a bulk reader (`decision-csv.ts`), handed to `write` in
   * pieces, from one snapshot; checked as `decisionValues` checks its rows, except the JSON
   * texts' shapes, which the reader checks. False, once a row fails a check or cannot be carried
   * exactly, when the run is to be read with `decisionValues` instead (drop what was handed).
   */
  decisionCsv(runId: string, write: (piece: Uint8Array | string) => void, options?: DecisionCsvOptions): boolean;
  /**
   * The run's saved cases as a source read from a fresh connection each time it is iterated:
   * readable after this store is closed, never held whole. `length` is the number saved.
   */
  source(runId: string, length: number): CaseSource;
  /** Ids of cases with a saved answer; with `includeFailed`, also those whose request failed. */
  savedIds(runId: string, options?: { readonly includeFailed?: boolean }): Set<string>;
  /** Ids of the saved cases by their request's outcome, read at once. */
  byOutcome(runId: string): { readonly answered: Set<string>; readonly failed: Set<string> };
}

/** Commits batches of finished cases asynchronously (see `StoreCases.startWriter`). */
export interface CaseWriter {
  /** Commits `results` (and the run's duration so far) in one transaction; resolves once committed. */
  save(runId: string, results: readonly CaseResult[], progress?: SaveProgress): Promise<void>;
  /** Waits for the batches given, then stops. */
  close(): Promise<void>;
}

/** Answer audits: one record per audit run, its verdicts checkpointed one at a time. */
export interface StoreAudits {
  /** Starts an audit run in status `running`; returns its id (`audit-<date>-<time>-<hex>`). */
  create(input: { readonly config: AuditConfig; readonly label: string | null; readonly createdAt: string }): string;
  /** Checkpoints planned audits as pending (replacing any saved verdict of the same transcript and check). */
  savePending(auditId: string, items: readonly { readonly position: number; readonly item: AuditItem }[]): void;
  /** Saves one verdict of a planned audit. */
  saveRecord(auditId: string, record: AuditRecord): void;
  /** Records the config a resumed audit continues with and puts it back in `running`. */
  reopen(auditId: string, config: AuditConfig): void;
  finish(auditId: string, input: { readonly status: RunStatus; readonly durationMs: number | null }): void;
  /** Removes one audit with its verdicts; false when the store holds no such audit. */
  delete(auditId: string): boolean;
  get(id: string): AuditRun | null;
  /** Newest first. */
  list(options?: { readonly limit?: number }): AuditHead[];
  /** How many audits the store holds, by status. */
  count(): Readonly<Record<StoredStatus, number>>;
}

/** Server probes: each kept whole once finished. */
export interface StoreProbes {
  /** Saves a finished probe; returns its id (`probe-<date>-<time>-<hex>`). */
  save(run: Omit<ProbeRun, 'id'>): string;
  get(id: string): ProbeRun | null;
  /** Removes one probe; false when the store holds no such probe. */
  delete(id: string): boolean;
  /** Newest first. */
  list(options?: { readonly limit?: number }): ProbeHead[];
  /** How many probes the store holds. */
  count(): number;
}
