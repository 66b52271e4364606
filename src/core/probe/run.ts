import type { DatasetInfo } from '../typed-decisions/dataset-info.js';
import type { EndpointIdentity } from '../endpoint-identity.js';
import type { ConformanceSummary } from './conformance.js';
import type { RobustnessSummary } from './robustness.js';

/** Which half of the probe runs. */
export type ProbeScope = 'all' | 'conformance' | 'robustness';

/** Everything that defines a probe (no secrets). */
export interface ProbeConfig {
  readonly toolVersion: string;
  /** The embedded server is `embedded://reference-server`. */
  readonly endpoint: EndpointIdentity;
  /** Sent as `model`; the embedded server's built-in model. */
  readonly model: string | null;
  readonly dataset: DatasetInfo;
  /** The sampled case ids, in dataset order. */
  readonly caseIds: readonly string[];
  /** `--cases` as asked (the sample is smaller when the dataset is). */
  readonly casesAsked: number;
  readonly seed: number;
  readonly scope: ProbeScope;
  /** Size of the oversized-body request. */
  readonly oversizedBodyBytes: number;
  /** Bootstrap resamples of the intervals. */
  readonly resamples: number;
}

/** One `decidekit probe`: its config, what it found, and how long it took. */
export interface ProbeRun {
  readonly id: string;
  readonly createdAt: string;
  readonly config: ProbeConfig;
  /** Null when only robustness ran. */
  readonly conformance: ConformanceSummary | null;
  /** Null when only conformance ran. */
  readonly robustness: RobustnessSummary | null;
  /** Requests sent (valid, invalid and GET). */
  readonly requests: number;
  readonly durationMs: number;
}

/** Checks or probes that ran, split into passed and failed. */
export interface PassCount {
  readonly passed: number;
  readonly failed: number;
  /** passed + failed. */
  readonly ran: number;
}

export function passCount(passed: number, failed: number): PassCount {
  return { passed, failed, ran: passed + failed };
}

/** Checks or probes as a report counts them: passed of those that ran, and those that did not. */
export interface ProbeTally extends PassCount {
  /** Of the `total` checks or probes, those with nothing to judge. */
  readonly notRun: number;
}

/** The tally of a summary's `passed` and `failed` among its `total` checks or probes. */
export function tallyOf(c: { readonly passed: number; readonly failed: number }, total: number): ProbeTally {
  const count = passCount(c.passed, c.failed);
  return { ...count, notRun: total - count.ran };
}

/** True when every conformance check that ran passed (no conformance: true). */
export function isConformant(run: ProbeRun): boolean {
  return run.conformance === null || run.conformance.failed === 0;
}
