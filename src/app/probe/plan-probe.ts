/**
 * Planning a probe, purely: what the user asked becomes one plan — server (the embedded
 * reference server by default), model, dataset, how many cases and the seed of their
 * sample, which half runs, the store. No IO here.
 */
import { given } from '../../core/given.js';
import { refuseUnsafeHeaderValue } from '../../core/header-value.js';
import type { ProbeScope } from '../../core/probe/run.js';
import { OVERSIZED_BODY_BYTES } from '../../core/probe/variants.js';
import type { DatasetChoice } from '../dataset-choice.js';
import { DEFAULT_EMBEDDED_MODEL, refuseUnusableBaseUrl, type ServerPlan } from '../server-plan.js';

/** What a user asks of a probe (the CLI's options, or a library caller's). */
export interface ProbeRequest {
  /** Absent: start the built-in reference server in-process. */
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKey?: string;
  /** Default: the bundled sample. */
  readonly dataset?: DatasetChoice;
  /** Cases in the seeded sample (default 50). */
  readonly cases?: number;
  /** Seed of the case sample, the option permutations and the intervals (default 1). */
  readonly seed?: number;
  /** Only one half of the probe (default both). */
  readonly only?: 'conformance' | 'robustness';
  /** Size of the oversized-body request (default 9 MiB, over the reference server's 8 MiB cap). */
  readonly oversizedBodyBytes?: number;
  /** Bootstrap resamples of the intervals (default 2,000; 0: no intervals). */
  readonly resamples?: number;
  /** Per-request timeout (default 60 s). */
  readonly timeoutMs?: number;
  /** The run store; null keeps nothing. */
  readonly storePath: string | null;
}

export const DEFAULT_PROBE_CASES = 50;
export const DEFAULT_PROBE_SEED = 1;
export const DEFAULT_PROBE_RESAMPLES = 2000;
export const DEFAULT_PROBE_TIMEOUT_MS = 60_000;

export interface ProbePlan {
  readonly server: ServerPlan;
  readonly dataset: DatasetChoice;
  readonly cases: number;
  readonly seed: number;
  readonly scope: ProbeScope;
  readonly oversizedBodyBytes: number;
  readonly resamples: number;
  readonly timeoutMs: number;
  readonly storePath: string | null;
}

export function planProbe(request: ProbeRequest): ProbePlan {
  if (request.apiKey !== undefined) refuseUnsafeHeaderValue('apiKey', request.apiKey);
  refuseUnusableBaseUrl(request.baseUrl);
  const server: ServerPlan =
    request.baseUrl === undefined
      ? { kind: 'embedded', model: request.model ?? DEFAULT_EMBEDDED_MODEL }
      : {
          kind: 'remote',
          baseUrl: request.baseUrl,
          model: request.model ?? null,
          ...given({ apiKey: request.apiKey }),
        };
  return {
    server,
    dataset: request.dataset ?? { kind: 'sample' },
    cases: request.cases ?? DEFAULT_PROBE_CASES,
    seed: request.seed ?? DEFAULT_PROBE_SEED,
    scope: request.only ?? 'all',
    oversizedBodyBytes: request.oversizedBodyBytes ?? OVERSIZED_BODY_BYTES,
    resamples: request.resamples ?? DEFAULT_PROBE_RESAMPLES,
    timeoutMs: request.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    storePath: request.storePath,
  };
}
