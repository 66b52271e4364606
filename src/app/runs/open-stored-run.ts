/**
 * A stored run opened for reading: its record, summary and stored statistics now, its cases
 * left in the store to be read one at a time. Its own module, so a command that reports one
 * run loads the store and this, not the comparing and listing use cases of `stored-runs.ts`.
 */
import { DecidekitError } from '../../core/errors.js';
import type { ReportedRun } from '../../core/bench/run.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import { withStore } from '../../store/open-store.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import type { AskedBy } from '../../store/record-kind.js';

/** How the stored-runs use cases open a store they only read. */
export const READ_ONLY = { mustExist: true, readOnly: true } as const;

/** A stored run without its cases in memory: see `openStoredRun`. */
export interface OpenedRun {
  readonly head: StoredRunHead;
  /** Its cases a source read from the store one at a time whenever it is iterated. */
  readonly run: ReportedRun;
  /** The statistics kept with it (`StoreRuns.saveStatistics`), or null. */
  readonly stored: RunStatistics | null;
}

/**
 * A run by id or unique prefix, its cases left in the store: they are read one at a time,
 * from a fresh read-only connection, each time the source is iterated, so no run is held
 * whole however large. `read.listings`: with the report listings kept with a finished run
 * (`StoreRuns.saveListings`), when it has them, so a report reads no case for them.
 */
export function openStoredRun(
  storePath: string,
  prefix: string,
  askedBy: AskedBy,
  read: { readonly listings?: boolean } = {},
): OpenedRun {
  const { head, info, stored, cases, listings } = withStore(storePath, READ_ONLY, (s) => {
    const id = s.resolveId(prefix, 'run', askedBy);
    const head = s.runs.head(id);
    const found = s.runs.infoWithStatistics(id);
    if (head === null || found === null)
      throw new DecidekitError('unknown_run', `unknown run: ${id} disappeared from ${s.path} while reading`);
    return {
      head,
      info: found.info,
      stored: found.statistics,
      cases: s.cases.source(id, found.info.summary.requests.total),
      listings: read.listings === true && head.status !== 'running' ? s.runs.listings(id) : null,
    };
  });
  return { head, run: { ...info, cases, ...(listings === null ? {} : { listings }) }, stored };
}
