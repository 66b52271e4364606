import { STORED_STATUS_ORDER, type StoredStatus } from './run-status.js';

export interface StatusCountSummary {
  /** Every record counted. */
  readonly total: number;
  /** The statuses held, in `STORED_STATUS_ORDER`, without those at 0. */
  readonly byStatus: readonly { readonly status: StoredStatus; readonly n: number }[];
}

/** How many stored runs (or audits) there are in all and by status (`runs list`'s footer). */
export function summarizeStatusCounts(counts: Readonly<Record<StoredStatus, number>>): StatusCountSummary {
  const byStatus = STORED_STATUS_ORDER.filter((s) => counts[s] > 0).map((status) => ({ status, n: counts[status] }));
  return { total: byStatus.reduce((sum, s) => sum + s.n, 0), byStatus };
}
