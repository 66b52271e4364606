/** A stored server probe as `runs list` shows it (see `store.ts` for the probes' part of the store). */
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import type { PassCount, ProbeScope } from '../core/probe/run.js';

/** One line of `runs list` for a probe. */
export interface ProbeHead {
  readonly kind: 'probe';
  readonly id: string;
  readonly createdAt: string;
  readonly endpoint: EndpointIdentity;
  readonly model: string | null;
  readonly datasetId: string;
  readonly scope: ProbeScope;
  readonly cases: number;
  readonly seed: number;
  /** Null when the half did not run. */
  readonly conformance: PassCount | null;
  readonly robustness: PassCount | null;
  readonly durationMs: number;
}
