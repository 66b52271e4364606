/**
 * Everything `runs list` shows, read over one connection: the newest runs, audits and
 * probes (the limit applied in each query) and how many of each the store holds.
 */
import { given } from '../core/given.js';
import { DecidekitError } from '../core/errors.js';
import { summarizeStatusCounts } from '../core/status-counts.js';
import type { AuditHead } from './audit/audit-store.js';
import { auditStoreOver } from './audit/sqlite-audit-store.js';
import type { ProbeHead } from './probe/probe-store.js';
import { probeStoreOver } from './probe/sqlite-probe-store.js';
import type { StoredRunHead } from './run-store.js';
import type { StoredStatus } from '../core/run-status.js';
import { openRunStoreConnection } from './sqlite-run-store.js';

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

/** The store at `path` at a glance (read only); a store that does not exist yet holds nothing. */
export function readStoreOverview(path: string, options: { readonly limit?: number } = {}): StoreOverview {
  let opened;
  try {
    opened = openRunStoreConnection(path, { mustExist: true, readOnly: true });
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'store_missing')
      return {
        runs: [],
        runCounts: NO_STATUS,
        audits: [],
        auditCounts: NO_STATUS,
        auditCount: 0,
        probes: [],
        probeCount: 0,
      };
    throw err;
  }
  const { store, db } = opened;
  const limit = given({ limit: options.limit });
  try {
    const audits = auditStoreOver(db, path);
    const probes = probeStoreOver(db, path);
    const auditCounts = audits.countAudits();
    return {
      runs: store.listRuns(limit),
      runCounts: store.countRuns(),
      audits: audits.listAudits(limit),
      auditCounts,
      auditCount: summarizeStatusCounts(auditCounts).total,
      probes: probes.listProbes(limit),
      probeCount: probes.countProbes(),
    };
  } finally {
    store.close();
  }
}
