import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import type { AskedBy } from '../record-kind.js';
import type { PassCount, ProbeRun, ProbeScope } from '../../core/probe/run.js';

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

/** Where probes are kept: the run store's file, in a table of their own. */
export interface ProbeStore {
  readonly path: string;
  /** Saves a finished probe (durable when it returns); returns its id (`probe-<date>-<time>-<hex>`). */
  saveProbe(run: Omit<ProbeRun, 'id'>): string;
  getProbe(id: string): ProbeRun | null;
  /**
   * The full id of the one probe whose id starts with `prefix` (with or without `probe-`); an
   * id of a bench run or another kind of record is named as such (and the command `askedBy`).
   */
  resolveProbeId(prefix: string, askedBy?: AskedBy): string;
  /** Newest first. */
  listProbes(options?: { readonly limit?: number }): ProbeHead[];
  /** How many probes the store holds. */
  countProbes(): number;
  /** Removes one probe; false when the store holds no such probe. */
  deleteProbe(id: string): boolean;
  close(): void;
}
