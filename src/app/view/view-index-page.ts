/** `decidekit view`'s list and the JSON its script polls, read from the store as it is now. */
import { listStore } from '../runs/stored-runs.js';
import { renderRunsListJson } from '../../reports/runs/runs-list.js';
import { probeHeadJson } from '../../reports/runs/probe-runs-list.js';
import { datasetOfHead, modelOfHead, renderViewIndex } from '../../reports/view/view-index.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { filterRecords, parseIndexFilters } from './index-filter.js';

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** The list page: every record of the store, filtered and sorted as the query asks. */
export function viewIndexPage(
  storePath: string,
  query: URLSearchParams,
  links: ViewLinks,
  options: { readonly live: boolean; readonly comparisons?: readonly (readonly string[])[] },
): string {
  const store = listStore(storePath);
  const filters = parseIndexFilters(query);
  const shown = filterRecords(store, filters);
  return renderViewIndex({
    storePath,
    ...shown,
    totals: { runs: store.runs.length, audits: store.audits.length, probes: store.probes.length },
    choices: { models: sorted(store.runs.map(modelOfHead)), datasets: sorted(store.runs.map(datasetOfHead)) },
    filters,
    links,
    live: options.live,
    ...(options.comparisons === undefined ? {} : { comparisons: options.comparisons }),
  });
}

/** Every record as `runs list --json` gives it (what the list's script polls). */
export function viewRecordsJson(storePath: string): string {
  const store = listStore(storePath);
  return renderRunsListJson(
    store.runs,
    storePath,
    false,
    store.audits,
    store.probes.map((p) => probeHeadJson(p)),
  );
}
