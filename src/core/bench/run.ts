import type { CaseResult } from '../typed-decisions/case-result.js';
import type { DatasetInfo } from '../typed-decisions/dataset-info.js';
import type { EndpointIdentity, SentCredentials } from '../endpoint-identity.js';
import type { BenchSummary } from './summary.js';
import { listingsOfCases, type RunListings } from './run-listings.js';
import type { AppliedCalibration, RunCalibration } from '../calibration-map.js';

/** Everything that defines a benchmark run (no secrets). */
export interface RunConfig {
  readonly toolVersion: string;
  readonly dataset: DatasetInfo;
  /** Case ids in run order. */
  readonly caseIds: readonly string[];
  /** `workflow/question` -> short hash of the question's canonical JSON, keys sorted. */
  readonly questionSet: Readonly<Record<string, string>>;
  readonly model: string | null;
  readonly endpoint: EndpointIdentity;
  /** The reference server was started in-process (`bench` without `--base-url`). */
  readonly embeddedServer: { readonly model: string } | null;
  /**
   * The credentials the server was sent (never their value), so a resume asks for them
   * again; absent when none were sent, and in runs stored before this was kept.
   */
  readonly credentials?: SentCredentials;
  /**
   * The servers of a run sent to several replicas of one model, in the order given, each
   * shown without credentials (the first is `endpoint`); absent for a run on one server.
   */
  readonly replicas?: readonly string[];
  /** Requests in flight (to each replica, unless `parallelByReplica` gives each its own: then the first's). */
  readonly parallel: number;
  /**
   * Requests in flight to each replica, in the order of `replicas`, when each was given its
   * own; absent when every replica had `parallel` (and in runs stored before this was kept).
   */
  readonly parallelByReplica?: readonly number[];
  readonly timeoutMs: number;
  readonly retries: number;
  /** A filtered run is never compared with a full one. */
  readonly filters: RunFilters;
  readonly pricePerMtokUsd: number | null;
  /**
   * The conventions the run's numbers use (`conventionsText`: ECE bins, binning and
   * averaging, floors, tie rules, bootstrap resamples and seed). Absent in runs stored
   * before conventions were recorded: those read with the defaults, and reports say so.
   */
  readonly conventions?: string;
  /**
   * The calibration map applied before scoring (`bench --calibration`): the answers are
   * stored raw, the summary and every report score them recalibrated. Its hash is part of
   * the run's work and fingerprint. Absent when no map was applied.
   */
  readonly calibration?: RunCalibration;
}

export interface BenchRun {
  readonly id: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly durationMs: number | null;
  readonly label: string | null;
  /** Short hash of dataset id + revision + split + case ids + question set + model + endpoint. */
  readonly fingerprint: string;
  readonly config: RunConfig;
  readonly summary: BenchSummary;
  /** In run order (case order of `config.caseIds`). */
  readonly cases: readonly CaseResult[];
  /** The replicas set aside while the run was sent, in the order they were; absent when none was. */
  readonly setAside?: readonly ReplicaSetAside[];
}

/** A replica set aside during a run (`bench --base-url A --base-url B`): which, why, when, and what it had done. */
export interface ReplicaSetAside {
  /** Its base URL without credentials, as the run's cases name it. */
  readonly replica: string;
  readonly reason: string;
  /** When it was set aside (ISO 8601). */
  readonly at: string;
  /** The cases it had answered in that sending of the run. */
  readonly answeredCases: number;
}

export interface RunFilters {
  readonly limit: number | null;
  readonly workflow: string | null;
  /** A seeded sample stratified by workflow (`--sample N --seed S`); absent in runs stored before it existed. */
  readonly sample?: { readonly cases: number; readonly seed: number } | null;
}

/** True when the run covers only part of its dataset. */
export function isFiltered(config: Pick<RunConfig, 'filters'>): boolean {
  const f = config.filters;
  return f.limit !== null || f.workflow !== null || (f.sample !== undefined && f.sample !== null);
}

/** Cases of the run's plan that no request was sent for (an interrupted or stopped run's rest). */
export function casesNotSent(run: Pick<BenchRun, 'config' | 'summary'>): number {
  return Math.max(0, run.config.caseIds.length - run.summary.requests.total);
}

/**
 * A run's cases in run order, possibly read page by page from a file or the store: iterate
 * it (more than once if need be), never hold it. An array is one.
 */
export interface CaseSource {
  readonly length: number;
  [Symbol.iterator](): Iterator<CaseResult>;
  /**
   * The cases from the one at `position` in the run's case ids on, in run order, the ones
   * before not read (a store seeks them by position); absent where a source cannot.
   */
  from?(position: number): Iterable<CaseResult>;
}

/** A run as the reports read it: its cases as a source and, when already gathered, their listings. */
export interface ReportedRun extends Omit<BenchRun, 'cases'> {
  readonly cases: CaseSource;
  readonly listings?: RunListings;
  /**
   * A map a report applied to a stored run that has none of its own (`report RUN
   * --calibration`): its cases and numbers are recalibrated; absent otherwise.
   */
  readonly recalibratedWith?: AppliedCalibration;
}

/** The map a run's numbers were recalibrated with (its own, or one a report applied); null when none. */
export function appliedCalibrationOf(run: Pick<ReportedRun, 'config' | 'recalibratedWith'>): AppliedCalibration | null {
  const c = run.recalibratedWith ?? run.config.calibration;
  return c === undefined ? null : { path: c.path, sha256: c.sha256, method: c.method, by: c.by };
}

/** The run's report listings: those gathered while it ran, or one pass over its cases. */
export function listingsOf(run: ReportedRun): RunListings {
  return run.listings ?? listingsOfCases(run.cases);
}
