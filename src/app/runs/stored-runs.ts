/**
 * The stored-runs use cases behind `decidekit runs` and `decidekit report`: read runs from
 * the run store (opened for each call and closed again) for listing, showing, comparing,
 * re-rendering and exporting.
 */
import { compareRuns, type RunComparison } from '../../core/bench/run-diff.js';
import type { BenchRun } from '../../core/bench/run.js';
import { DecidekitError } from '../../core/errors.js';
import { openRunStore, type RunStore, type StoredRunHead } from '../../store/index.js';
import type { StoreCheck, StoredRunStatus } from '../../store/run-store.js';
import { statesOfRun } from './run-case-states.js';

/** The newest runs first; a store that does not exist yet holds no runs. */
export function listStoredRuns(storePath: string, options: { readonly limit?: number } = {}): StoredRunHead[] {
  try {
    return withStore(storePath, (s) => s.listRuns(options.limit === undefined ? {} : { limit: options.limit }));
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'store_missing') return [];
    throw err;
  }
}

/** How many runs the store holds by status (none for a store that does not exist yet). */
export function countStoredRuns(storePath: string): Readonly<Record<StoredRunStatus, number>> {
  try {
    return withStore(storePath, (s) => s.countRuns());
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'store_missing')
      return { running: 0, complete: 0, incomplete: 0, interrupted: 0 };
    throw err;
  }
}

/** `PRAGMA quick_check` and every run (or the one named) re-checked against its decisions. */
export function checkStoredRuns(storePath: string, prefix?: string): StoreCheck {
  return withStore(storePath, (s) => s.checkStore(prefix === undefined ? {} : { runIds: [s.resolveId(prefix)] }));
}

/** Removes one run (by id or unique prefix); returns its full id. */
export function deleteStoredRun(storePath: string, prefix: string): string {
  const store = openRunStore(storePath, { mustExist: true });
  try {
    const id = store.resolveId(prefix);
    store.deleteRun(id);
    return id;
  } finally {
    store.close();
  }
}

/** Stored audits, newest first (none when the store has none, or cannot hold them yet). */
export async function listStoredAudits(storePath: string, options: { readonly limit?: number } = {}) {
  const { openAuditStore } = await import('../../store/audit/sqlite-audit-store.js');
  let store;
  try {
    store = openAuditStore(storePath, { mustExist: true });
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'store_missing') return [];
    throw err;
  }
  try {
    return store.listAudits(options.limit === undefined ? {} : { limit: options.limit });
  } finally {
    store.close();
  }
}

/** One run by id or unique id prefix; an unknown run or a missing store is an error. */
export function readStoredRun(storePath: string, prefix: string) {
  return withStore(storePath, (s) => requireRun(s, prefix));
}

/**
 * One run's configuration and summary by id or unique prefix, without its cases (`runs
 * show`): a stored summary is read as is, so a run of any size shows at once.
 */
export function readStoredRunInfo(storePath: string, prefix: string) {
  return withStore(storePath, (s) => {
    const id = s.resolveId(prefix);
    const head = s.getHead(id);
    const run = s.getRunInfo(id);
    if (head === null || run === null)
      throw new DecidekitError('unknown_run', `unknown run: ${id} disappeared from ${s.path} while reading`);
    return { head, run };
  });
}

/** Run B against run A (same fingerprint unless `force`). */
export function compareStoredRuns(
  storePath: string,
  prefixA: string,
  prefixB: string,
  options: { readonly force: boolean },
): RunComparison {
  const [a, b] = withStore(storePath, (s) => [requireRun(s, prefixA).run, requireRun(s, prefixB).run] as const);
  return compareRuns(a, b, { force: options.force });
}

/**
 * Two or more runs for one comparison page, each checked against the first (same
 * fingerprint unless `force`, as the text comparison requires).
 */
export function readStoredRunsToCompare(
  storePath: string,
  prefixes: readonly string[],
  options: { readonly force: boolean },
): { runs: BenchRun[]; sameFingerprint: boolean } {
  const runs = withStore(storePath, (s) => prefixes.map((p) => requireRun(s, p).run));
  for (const other of runs.slice(1)) compareRuns(runs[0]!, other, { force: options.force });
  return { runs, sameFingerprint: new Set(runs.map((r) => r.fingerprint)).size === 1 };
}

/**
 * A run ready to re-render: with its case states (for the Markdown trace's previews) when
 * asked for and its dataset is still at hand.
 */
export async function readRunForReport(
  storePath: string,
  prefix: string,
  options: { readonly withStates: boolean; readonly env: Readonly<Record<string, string | undefined>> },
) {
  const { run } = readStoredRun(storePath, prefix);
  const states = options.withStates ? await statesOfRun(run, options.env) : undefined;
  return { run, states };
}

function withStore<T>(path: string, use: (store: RunStore) => T): T {
  const store = openRunStore(path, { mustExist: true, readOnly: true });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

function requireRun(store: RunStore, prefix: string) {
  const id = store.resolveId(prefix);
  const head = store.getHead(id);
  const run = store.getRun(id);
  if (head === null || run === null)
    throw new DecidekitError('unknown_run', `unknown run: ${id} disappeared from ${store.path} while reading`);
  return { head, run };
}

/** Stored probes, newest first (none when the store has none yet). */
export async function listStoredProbes(storePath: string, options: { readonly limit?: number } = {}) {
  const { openProbeStore } = await import('../../store/probe/sqlite-probe-store.js');
  let store;
  try {
    store = openProbeStore(storePath, { mustExist: true });
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'store_missing') return [];
    throw err;
  }
  try {
    return store.listProbes(options.limit === undefined ? {} : { limit: options.limit });
  } finally {
    store.close();
  }
}

/** One stored probe by id or unique id prefix (`probe-…`); an unknown probe or a missing store is an error. */
export async function readStoredProbe(storePath: string, prefix: string) {
  const { openProbeStore } = await import('../../store/probe/sqlite-probe-store.js');
  const store = openProbeStore(storePath, { mustExist: true });
  try {
    return store.getProbe(store.resolveProbeId(prefix))!;
  } finally {
    store.close();
  }
}
