/** What the reference server's routes share: its settings resolved once, its models, counters and state. */
import type { FaultOptions } from './faults.js';
import type { ServerMetrics } from './metrics.js';
import type { DecisionModel } from './models/index.js';
import type { RequestSlots } from './request-slots.js';
import type { ViolationState } from './violations.js';

export interface ServerContext {
  /** The model served (the one answering requests that name none in router mode). */
  readonly defaultModel: string;
  /** The body's `model` picks among `models`. */
  readonly router: boolean;
  readonly models: ReadonlyMap<string, DecisionModel>;
  /** The models listed by `GET /v1/models`, the default first. */
  readonly modelNames: readonly string[];
  readonly maxBodyBytes: number;
  readonly refusedBodyDrainBytes: number;
  readonly refusedBodyDrainMs: number;
  readonly faults: FaultOptions;
  /** Fault injection is on (`faults` was given). */
  readonly faulty: boolean;
  /** How often each request body (by hash) was seen: per-body fault draws. */
  readonly seen: Map<number, number>;
  readonly violations: (ViolationState & { readonly seed: number }) | null;
  /** `GET /metrics` is served. */
  readonly serveMetrics: boolean;
  readonly metrics: ServerMetrics;
  readonly slots: RequestSlots;
}

/** The status of a refused request: a 500 under `500-on-invalid`. */
export function refusalStatus(context: ServerContext, status: number): number {
  return context.violations?.on.has('500-on-invalid') ? 500 : status;
}
