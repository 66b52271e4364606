/**
 * `runs push` and `runs pull`: stored bench runs copied from one store to another (a laptop's
 * SQLite file and a team's PostgreSQL database, or any two), each with its id, label,
 * configuration, cases, status, summary and statistics. Copying is idempotent: a run the
 * destination holds already, the same in every stored part, is left as it is ("already
 * there"); a different run under the same id is refused, naming it, and nothing of it is
 * copied. Every run named is resolved before anything is written.
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import { shownStoreLocation } from '../../core/store-url.js';
import { openStore } from '../../store/open-store.js';
import type { AskedBy } from '../../store/record-kind.js';
import type { Store } from '../../store/store.js';

/** What happened to one run named. */
export interface CopiedRun {
  readonly id: string;
  readonly outcome: 'copied' | 'already there';
  /** The cases the run holds (saved ones). */
  readonly cases: number;
}

/** Cases saved per transaction while copying. */
const BATCH_CASES = 500;

/** A run id's last four hex digits, as the two random bytes it was made with. */
function suffixBytes(id: string): Uint8Array | null {
  const m = /-([0-9a-f]{2})([0-9a-f]{2})$/.exec(id);
  return m === null ? null : Uint8Array.of(parseInt(m[1]!, 16), parseInt(m[2]!, 16));
}

/**
 * Copies the runs named by `prefixes` (ids or unique prefixes in `from`) into `to`, which is
 * created when it is a new store. Returns what happened to each, in the order named.
 */
export function copyStoredRuns(from: string, to: string, prefixes: readonly string[], askedBy: AskedBy): CopiedRun[] {
  const source = openStore(from, { mustExist: true, readOnly: true });
  try {
    const ids = [...new Set(prefixes.map((p) => source.resolveId(p, 'run', askedBy)))];
    // The id of a copy is drawn from its own suffix, so it is the source's id.
    let next: Uint8Array = new Uint8Array(2);
    const destination = openStore(to, { randomBytes: () => next });
    try {
      return ids.map((id) => {
        next = suffixBytes(id) ?? new Uint8Array(2);
        return copyRun(source, destination, id);
      });
    } finally {
      destination.close();
    }
  } finally {
    source.close();
  }
}

function copyRun(source: Store, destination: Store, id: string): CopiedRun {
  const read = source.runs.infoWithStatistics(id)!;
  const head = source.runs.head(id)!;
  const there = destination.runs.head(id);
  if (there !== null) {
    const difference = firstDifference(source, destination, id);
    if (difference !== null)
      throw new DecidekitError(
        'invalid_run',
        `cannot copy run ${id}: ${shownStoreLocation(destination.path)} holds another run under the same id (${difference}); nothing was copied for it (delete one of the two, or copy the others by naming them)`,
        { context: { runId: id } },
      );
    return { id, outcome: 'already there', cases: head.savedCases };
  }
  const { info, statistics } = read;
  const created = destination.runs.create({ config: info.config, label: info.label, createdAt: info.createdAt });
  if (created.id !== id) {
    destination.runs.delete(created.id);
    throw new DecidekitError(
      'invalid_run',
      `cannot copy run ${id}: its id is not the one its start time makes (${created.id}); nothing was copied for it`,
      { context: { runId: id } },
    );
  }
  try {
    for (const note of info.setAside ?? []) destination.runs.noteSetAside(id, note);
    let batch: CaseResult[] = [];
    for (const c of source.cases.iterate(id)) {
      batch.push(c);
      if (batch.length === BATCH_CASES) {
        destination.cases.save(id, batch);
        batch = [];
      }
    }
    destination.cases.save(id, batch, head.durationMs === null ? {} : { durationMs: head.durationMs });
    if (head.status !== 'running') {
      destination.runs.finish(id, { status: head.status, durationMs: info.durationMs, summary: info.summary });
      if (statistics !== null) destination.runs.saveStatistics(id, statistics);
      const listings = source.runs.listings(id);
      if (listings !== null) destination.runs.saveListings(id, listings);
    }
  } catch (err) {
    // Half a copy would read as another run under the same id: none is kept.
    try {
      destination.runs.delete(id);
    } catch {
      // The store is gone: the first failure says why.
    }
    throw err;
  }
  return { id, outcome: 'copied', cases: head.savedCases };
}

/** What differs between the run `id` of the two stores, in words; null when nothing does. */
function firstDifference(a: Store, b: Store, id: string): string | null {
  const one = a.runs.infoWithStatistics(id)!;
  const two = b.runs.infoWithStatistics(id)!;
  const headA = a.runs.head(id)!;
  const headB = b.runs.head(id)!;
  const parts: [string, unknown, unknown][] = [
    ['its start time', one.info.createdAt, two.info.createdAt],
    ['its configuration', one.info.config, two.info.config],
    ['its label', one.info.label, two.info.label],
    ['its status', headA.status, headB.status],
    ['its summary', one.info.summary, two.info.summary],
    ['its duration', one.info.durationMs, two.info.durationMs],
    ['its statistics', one.statistics, two.statistics],
    ['its replicas set aside', one.info.setAside, two.info.setAside],
    ['the number of saved cases', headA.savedCases, headB.savedCases],
  ];
  for (const [what, x, y] of parts) if (JSON.stringify(x) !== JSON.stringify(y)) return `${what} differs`;
  const other = b.cases.iterate(id);
  try {
    for (const c of a.cases.iterate(id)) {
      const d = other.next();
      if (d.done === true || JSON.stringify(c) !== JSON.stringify(d.value)) return `case ${c.caseId} differs`;
    }
  } finally {
    other.return(undefined);
  }
  return null;
}
