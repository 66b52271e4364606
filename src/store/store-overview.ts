/**
 * Everything `runs list` shows, read from one store: the newest runs, audits and probes
 * (the limit applied in each query) and how many of each the store holds.
 */
import { given } from '../core/given.js';
import type { StoredStatus } from '../core/run-status.js';
import { summarizeStatusCounts } from '../core/status-counts.js';
import type { Store } from './store.js';
import type { AuditHead } from './stored-audit.js';
import type { ProbeHead } from './stored-probe.js';
import type { StoredRunHead } from './stored-run.js';

export interface StoreOverview {
  /** Newest first, at most `limit`. */
  readonly runs: readonly StoredRunHead[];
  /** Every run the store holds, by status. */
  readonly runCounts: Readonly<Record<StoredStatus, number>>;
  readonly audits: readonly AuditHead[];
  readonly auditCounts: Readonly<Record<StoredStatus, number>>;
  /** Every audit the store holds. */
  readonly auditCount: number;
  readonly probes: readonly ProbeHead[];
  readonly probeCount: number;
}

const NO_STATUS = { running: 0, complete: 0, incomplete: 0, interrupted: 0 } as const;

/** The overview of a store that does not exist yet: nothing in it. */
export const EMPTY_OVERVIEW: StoreOverview = {
  runs: [],
  runCounts: NO_STATUS,
  audits: [],
  auditCounts: NO_STATUS,
  auditCount: 0,
  probes: [],
  probeCount: 0,
};

/** The store at a glance. */
export function overviewOf(store: Store, options: { readonly limit?: number } = {}): StoreOverview {
  const limit = given({ limit: options.limit });
  const auditCounts = store.audits.count();
  return {
    runs: store.runs.list(limit),
    runCounts: store.runs.count(),
    audits: store.audits.list(limit),
    auditCounts,
    auditCount: summarizeStatusCounts(auditCounts).total,
    probes: store.probes.list(limit),
    probeCount: store.probes.count(),
  };
}
