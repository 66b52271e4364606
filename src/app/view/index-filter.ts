/**
 * The list's filters and sort, read from the query string and applied to the store's
 * records (runs, audits and probes) as `decidekit view`'s list and its bundle show them.
 */
import type { StoredRunHead } from '../../store/stored-run.js';
import type { AuditHead } from '../../store/stored-audit.js';
import type { ProbeHead } from '../../store/stored-probe.js';
import { datasetOfHead, modelOfHead } from '../../reports/view/view-index.js';
import { INDEX_SORTS, type IndexFilters, type IndexSort } from '../../core/view/index-filters.js';

/** The filters a query string asks for; unknown values of `sort` fall back to newest first. */
export function parseIndexFilters(query: URLSearchParams): IndexFilters {
  const value = (name: string): string | undefined => {
    const v = query.get(name)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const sort = value('sort');
  const out: Record<string, string> = {};
  for (const name of ['model', 'label', 'dataset', 'status', 'from', 'to'] as const) {
    const v = value(name);
    if (v !== undefined) out[name] = v;
  }
  if (sort !== undefined && (INDEX_SORTS as readonly string[]).includes(sort)) out.sort = sort;
  return out as IndexFilters;
}

/** The day of an ISO 8601 time, `YYYY-MM-DD`. */
const dayOf = (createdAt: string): string => createdAt.slice(0, 10);

function inDates(createdAt: string, f: IndexFilters): boolean {
  const day = dayOf(createdAt);
  return (f.from === undefined || day >= f.from) && (f.to === undefined || day <= f.to);
}

/** Lower is better for the losses, higher for accuracy; absent values last. */
function compareBy(sort: IndexSort): ((a: StoredRunHead, b: StoredRunHead) => number) | null {
  if (sort === 'created') return null;
  const sign = sort === 'accuracy' ? -1 : 1;
  return (a, b) => {
    const x = a.headline?.[sort] ?? null;
    const y = b.headline?.[sort] ?? null;
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * sign;
  };
}

/**
 * The records that pass the filters, runs sorted as asked. Audits and probes have no model
 * label or dataset in the runs' sense: a filter on those (or on a status probes lack) leaves
 * them out, a date filter applies to them too.
 */
export function filterRecords(
  records: {
    readonly runs: readonly StoredRunHead[];
    readonly audits: readonly AuditHead[];
    readonly probes: readonly ProbeHead[];
  },
  f: IndexFilters,
): { runs: StoredRunHead[]; audits: AuditHead[]; probes: ProbeHead[] } {
  const label = f.label?.toLowerCase();
  const runs = records.runs.filter(
    (h) =>
      (f.model === undefined || modelOfHead(h) === f.model) &&
      (label === undefined || (h.label ?? '').toLowerCase().includes(label)) &&
      (f.dataset === undefined || datasetOfHead(h) === f.dataset) &&
      (f.status === undefined || h.status === f.status) &&
      inDates(h.createdAt, f),
  );
  const order = compareBy(f.sort ?? 'created');
  if (order !== null) runs.sort(order);
  const runOnly = f.model !== undefined || f.dataset !== undefined;
  const audits = records.audits.filter(
    (h) =>
      !runOnly &&
      (label === undefined || (h.label ?? '').toLowerCase().includes(label)) &&
      (f.status === undefined || h.status === f.status) &&
      inDates(h.createdAt, f),
  );
  const probes = records.probes.filter(
    (h) => !runOnly && label === undefined && f.status === undefined && inDates(h.createdAt, f),
  );
  return { runs, audits, probes };
}
