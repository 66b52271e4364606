/**
 * The stored-runs use cases behind `decidekit runs` and `decidekit report`: read runs from
 * the run store (opened for each call and closed again) for listing, showing, comparing,
 * re-rendering and exporting.
 */
import { isPostgresUrl } from '../../core/store-url.js';
import { given } from '../../core/given.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import {
  compareReadRuns,
  caseSetsMayDiffer,
  DecisionChanges,
  DecisionViews,
  refuseIncomparable,
  type ComparedCases,
  type RunComparison,
  workDifferencesAB,
} from '../../core/bench/run-diff.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { optionMention as option, words, type MessageWords } from '../../core/message-words.js';
import { openStore, withStore } from '../../store/open-store.js';
import { missingStoreFolder } from '../../store/store-location.js';
import { StoreDamagedError } from '../../store/store-errors.js';
import type { Store } from '../../store/store.js';
import type { StoreCheck, StoredRunHead } from '../../store/stored-run.js';
import type { AskedBy } from '../../store/record-kind.js';
import {
  claimStoredRun,
  runHolder,
  storedRunHolder,
  type ClaimFile,
  type RunClaimOwner,
} from '../../store/run-claim.js';
import { EMPTY_OVERVIEW, overviewOf, type StoreOverview } from '../../store/store-overview.js';
import { analyzeRun, type AnalyzedRun } from '../bench/run-analysis.js';
import { rankRuns, type LeaderboardRow } from '../../core/bench/leaderboard.js';
import { isSameWork, workDifferences as workDifferencesOf } from '../../core/bench/run-work.js';
import { gateRuns, type GateResult } from '../../core/bench/run-gate.js';
import type { StatMetric } from '../../core/stats/bootstrap.js';
import { sameScoringConventions, type ConventionChoice, type Conventions } from '../../core/stats/conventions.js';
import { benchResumeCommand } from '../../core/command-hints.js';
import { openStoredRun, READ_ONLY, type OpenedRun } from './open-stored-run.js';

export { openStoredRun, type OpenedRun } from './open-stored-run.js';

/** The ECE part of a set of conventions, the part a command line can change. */
function describeEce(c: Conventions): string {
  return `ECE over ${c.eceBins} ${c.eceBinning} bins, ${c.eceAverage === 'pooled' ? 'pooled' : 'averaged per question'}`;
}

/** What `runs list` shows: the store's overview, and for a store not made yet whether its folder is missing too. */
export interface ListedStore extends StoreOverview {
  /** The outermost folder of the store's path that does not exist yet (made by the first bench), else null. */
  readonly missingFolder: string | null;
}

/**
 * What `runs list` shows, over one connection: the newest runs, audits and probes (at most
 * `limit` of each, applied in the queries) and how many of each the store holds; a store
 * that does not exist yet holds nothing.
 */
export function listStore(storePath: string, options: { readonly limit?: number } = {}): ListedStore {
  let store: Store;
  try {
    store = openStore(storePath, { mustExist: true, readOnly: true });
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'store_missing')
      return { ...EMPTY_OVERVIEW, missingFolder: isPostgresUrl(storePath) ? null : missingStoreFolder(storePath) };
    throw err;
  }
  try {
    return { ...overviewOf(store, options), missingFolder: null };
  } finally {
    store.close();
  }
}

/** `PRAGMA quick_check` and every run (or the one named) re-checked against its decisions. */
export function checkStoredRuns(storePath: string, prefix: string | undefined, askedBy: AskedBy): StoreCheck {
  try {
    return withStore(storePath, READ_ONLY, (s) =>
      s.check(prefix === undefined ? {} : { runIds: [s.resolveId(prefix, 'run', askedBy)] }),
    );
  } catch (err) {
    // Damage too deep to open or read the store is the check's finding, not a failure to
    // check: its message would send the user back to this very command.
    if (err instanceof StoreDamagedError) return { path: err.path, integrity: [err.detail], runs: [] };
    throw err;
  }
}

/**
 * Removes one run (by id or unique prefix); returns its full id. With `owner`, a run another
 * live process is sending (see store/run-claim.ts) is refused rather than pulled from under it.
 */
export function deleteStoredRun(storePath: string, prefix: string, askedBy: AskedBy, owner?: RunClaimOwner): string {
  const store = openStore(storePath, { mustExist: true });
  try {
    const id = store.resolveId(prefix, 'run', askedBy);
    const claim =
      owner === undefined
        ? null
        : claimStoredRun(store, id, owner, new Date().toISOString(), 'stop it (Ctrl+C) first; nothing was deleted');
    try {
      store.runs.delete(id);
    } finally {
      claim?.release();
    }
    return id;
  } finally {
    store.close();
  }
}

/** What `runs delete` removed: a bench run, an answer audit or a server probe, by full id. */
export interface DeletedRecord {
  readonly kind: 'run' | 'audit' | 'probe';
  readonly id: string;
}

/** The kind of record an id or prefix names: an audit (`audit-…`), a probe (`probe-…`), else a bench run. */
function recordKindOf(prefix: string): DeletedRecord['kind'] {
  return prefix.startsWith('audit-') ? 'audit' : prefix.startsWith('probe-') ? 'probe' : 'run';
}

/**
 * The one stored record an id or unique prefix names (what `runs delete` would remove), read
 * without changing anything; unknown or ambiguous is an error, as for deleting.
 */
export function findStoredRecord(storePath: string, prefix: string, askedBy: AskedBy): DeletedRecord {
  const kind = recordKindOf(prefix);
  return withStore(storePath, READ_ONLY, (store) => ({ kind, id: store.resolveId(prefix, kind, askedBy) }));
}

/**
 * Removes one stored record by id or unique prefix: an audit (`audit-…`) with its verdicts,
 * a probe (`probe-…`), or else a bench run with its cases and decisions.
 */
export async function deleteStoredRecord(
  storePath: string,
  prefix: string,
  askedBy: AskedBy,
  owner?: RunClaimOwner,
): Promise<DeletedRecord> {
  if (prefix.startsWith('audit-'))
    return withStore(storePath, { mustExist: true }, (store) => {
      const id = store.resolveId(prefix, 'audit', askedBy);
      store.audits.delete(id);
      return { kind: 'audit', id };
    });
  if (prefix.startsWith('probe-'))
    return withStore(storePath, { mustExist: true }, (store) => {
      const id = store.resolveId(prefix, 'probe', askedBy);
      store.probes.delete(id);
      return { kind: 'probe', id };
    });
  return { kind: 'run', id: deleteStoredRun(storePath, prefix, askedBy, owner) };
}

/** One run made ready to show or re-report: `openStoredRun`, then `analyzeRun` with its stored statistics. */
export function readRunAnalysis(
  storePath: string,
  prefix: string,
  askedBy: AskedBy,
  choice: ConventionChoice,
  intervals: boolean,
): { readonly head: StoredRunHead } & AnalyzedRun {
  const opened = openStoredRun(storePath, prefix, askedBy);
  return { head: opened.head, ...analyzeRun(opened.run, choice, { intervals, stored: opened.stored }) };
}

/** One run by id or unique id prefix; an unknown run or a missing store is an error. */
export function readStoredRun(storePath: string, prefix: string, askedBy: AskedBy) {
  return withStore(storePath, READ_ONLY, (s) => requireRun(s, prefix, askedBy));
}

/** How stored runs are compared: the work rule, the conventions and intervals. */
export interface CompareOptions {
  /** Compare runs of different work (dataset revision, cases or questions) anyway. */
  readonly force: boolean;
  /** Conventions to recompute every run under (the ECE options and --seed). */
  readonly choice?: ConventionChoice;
  /** Bootstrap intervals and verdicts (`--no-ci` turns them off). Default true. */
  readonly intervals?: boolean;
  /** The metrics given paired intervals and verdicts (the others get neither). Default: all five. */
  readonly intervalsOf?: readonly StatMetric[];
  /** The command comparing, named when a run id names an audit or probe. */
  readonly askedBy: AskedBy;
  /** What a refusal offers: the command that finishes a run, and how to compare anyway (default: bench's and the force option). */
  readonly hints?: IncomparableHints;
}

/** The commands a refused comparison offers, as the command comparing can run them. */
export interface IncomparableHints {
  readonly resume: (runId: string) => string;
  readonly anyway: (a: string, b: string) => MessageWords;
}

/**
 * Run B against run A, paired: B - A per metric with a paired case-level bootstrap
 * interval and a verdict, McNemar's exact test on accuracy, per-question deltas and the
 * decisions that changed. Runs of different models on the same work compare; different
 * work, or numbers made under different conventions, are refused.
 */
export function compareStoredRuns(
  storePath: string,
  prefixA: string,
  prefixB: string,
  options: CompareOptions,
): RunComparison {
  const runs = [prefixA, prefixB].map((p) => openStoredRun(storePath, p, options.askedBy));
  const { analyzed, compared } = analyzeToCompare(runs, options, { paired: true, listings: false });
  const [a, b] = analyzed;
  return compareReadRuns(
    a!.run,
    b!.run,
    {
      force: options.force,
      conventions: a!.statistics.conventions,
      intervals: options.intervals !== false,
      ...given({ intervalsOf: options.intervalsOf }),
    },
    compared!,
  );
}

/**
 * Two or more runs for a leaderboard or a comparison page: each analysed under the same
 * conventions (with its intervals) and checked against the first (same work unless
 * `force`, every case sent, same conventions).
 */
export function readStoredRunsToCompare(
  storePath: string,
  prefixes: readonly string[],
  options: CompareOptions,
  read: { readonly listings: boolean } = { listings: false },
): {
  analyzed: AnalyzedRun[];
  rows: LeaderboardRow[];
  sameWork: boolean;
  /** How each run's work differs from the first's, one reason each (A and B for two runs). */
  workDifferences: string[];
  paired: RunComparison | null;
} {
  const runs = prefixes.map((p) => openStoredRun(storePath, p, options.askedBy, read));
  // Two runs: also the paired comparison of the second against the first.
  const { analyzed, compared } = analyzeToCompare(runs, options, { paired: runs.length === 2, ...read });
  const sameWork = analyzed.every((r) => isSameWork(analyzed[0]!.run.config, r.run.config));
  const first = analyzed[0]!.run;
  const workDifferences =
    analyzed.length === 2
      ? workDifferencesAB(first.config, analyzed[1]!.run.config)
      : analyzed.slice(1).flatMap(({ run }) =>
          workDifferencesOf(first.config, run.config, {
            was: first.id,
            now: run.id,
            onlyInWas: `only in ${first.id}`,
            onlyInNow: `only in ${run.id}`,
          }),
        );
  const [a, b] = analyzed;
  const paired =
    compared === null
      ? null
      : compareReadRuns(
          a!.run,
          b!.run,
          { force: options.force, conventions: a!.statistics.conventions, intervals: options.intervals !== false },
          compared,
        );
  const rows = rankRuns(analyzed.map((a, i) => ({ ...a, answeredModels: runs[i]!.head.answeredModels })));
  return { analyzed, rows, sameWork, workDifferences, paired };
}

const ordinal = (n: number): string => (n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`);

/**
 * Every run under the same conventions, each read once; refused when their stored
 * conventions differ and nothing recomputes them. `paired` (two runs): the cases the
 * comparison of the second with the first takes are gathered in the same passes, the
 * second run read first (its decisions kept as views) and the first against them.
 * `listings`: each run's report listings too.
 */
function analyzeToCompare(
  runs: readonly OpenedRun[],
  options: CompareOptions,
  read: { readonly paired: boolean; readonly listings: boolean },
): { analyzed: AnalyzedRun[]; compared: ComparedCases | null } {
  // One run given twice (by two prefixes, say) would only be compared with itself.
  runs.forEach(({ run }, i) => {
    const first = runs.findIndex((r) => r.run.id === run.id);
    if (first !== i)
      throw new OptionError(
        'runIds',
        words`the ${ordinal(first + 1)} and ${ordinal(i + 1)} runs given are the same run ${run.id}: give each run once`,
      );
  });
  const storeArg = options.askedBy.storeArg;
  const resumeCommand = options.hints?.resume ?? ((id: string) => benchResumeCommand(id, { store: storeArg }));
  const sameWork = runs
    .slice(1)
    .map((other) => refuseIncomparable(runs[0]!.run, other.run, options.force, resumeCommand, options.hints?.anyway))
    .every((r) => r.sameWork);
  const { analyzed, compared } = read.paired
    ? analyzePair(runs[0]!, runs[1]!, options, { listings: read.listings, sameWork })
    : {
        analyzed: runs.map((r) =>
          analyzeRun(r.run, options.choice ?? {}, {
            intervals: options.intervals !== false,
            stored: r.stored,
            listings: read.listings,
          }),
        ),
        compared: null,
      };
  refuseOtherConventions(analyzed);
  return { analyzed, compared };
}

/**
 * Two runs analysed for a paired comparison, each read once: B first (its decisions kept as
 * views), then A against them; the numbers per question over the cases both have are tallied
 * only when their case sets may differ (`sameWork`: whether they measured the same work).
 */
function analyzePair(
  a: OpenedRun,
  b: OpenedRun,
  options: CompareOptions,
  read: { readonly listings: boolean; readonly sameWork: boolean },
): { analyzed: AnalyzedRun[]; compared: ComparedCases } {
  const { listings } = read;
  const analyze = (r: OpenedRun, visit: (c: CaseResult) => void) =>
    analyzeRun(r.run, options.choice ?? {}, {
      intervals: options.intervals !== false,
      stored: r.stored,
      listings,
      keepSample: true,
      visit,
    });
  const sharedByQuestion = caseSetsMayDiffer(a.run, b.run, read.sameWork);
  const { analyzedB, changes } = viewsOfB((c) => analyze(b, c), sharedByQuestion);
  const analyzedA = analyze(a, (c) => changes.add(c));
  changes.done();
  return {
    analyzed: [analyzedA, analyzedB],
    compared: { samples: () => [analyzedA.sample!, analyzedB.sample!], changes: () => changes },
  };
}

/**
 * Run B analysed with its decisions kept as views, and the changes of A against them to
 * fill. Apart, so that nothing but the changes holds the views (a closure beside the
 * comparison's would keep them alive to its end).
 */
function viewsOfB(
  analyze: (visit: (c: CaseResult) => void) => AnalyzedRun,
  sharedByQuestion: boolean,
): { analyzedB: AnalyzedRun; changes: DecisionChanges } {
  const inB = new DecisionViews({ scores: sharedByQuestion });
  const analyzedB = analyze((c) => inB.add(c));
  return { analyzedB, changes: new DecisionChanges(inB, { sharedByQuestion }) };
}

function refuseOtherConventions(analyzed: readonly AnalyzedRun[]): void {
  const first = analyzed[0]!;
  for (const other of analyzed.slice(1)) {
    if (sameScoringConventions(first.statistics.conventions, other.statistics.conventions)) continue;
    throw new DecidekitError(
      'not_comparable',
      words`cannot compare runs ${first.run.id} and ${other.run.id}: their numbers were made under different conventions (${first.run.id}: ${describeEce(first.statistics.conventions)}; ${other.run.id}: ${describeEce(other.statistics.conventions)}) (recompute both under one with ${option('conventions.eceBins', 'N')} ${option('conventions.eceBinning', 'B')} ${option('conventions.eceAverage', 'A')})`,
      { context: { a: first.run.id, b: other.run.id } },
    );
  }
}

/**
 * `runs gate`: the candidate against the baseline in one metric, paired; passes unless the
 * candidate is worse beyond noise (or by more than `maxDrop` beyond noise).
 */
export function gateStoredRuns(
  storePath: string,
  options: {
    readonly baseline: string;
    readonly candidate: string;
    readonly metric: StatMetric;
    readonly maxDrop: number;
    /** Gate runs of different work, or incomplete runs, anyway (as `runs compare --force`). Default false. */
    readonly force?: boolean;
    readonly choice?: ConventionChoice;
    readonly askedBy: AskedBy;
    readonly hints?: IncomparableHints;
    /**
     * Also the paired intervals of the metrics not gated (a report of the whole comparison
     * shows them); without, the bootstrap sums only what the gated metric is made of. Default true.
     */
    readonly otherIntervals?: boolean;
  },
): { comparison: RunComparison; gate: GateResult } {
  const comparison = compareStoredRuns(storePath, options.baseline, options.candidate, {
    force: options.force === true,
    askedBy: options.askedBy,
    ...(options.otherIntervals === false ? { intervalsOf: [options.metric] } : {}),
    ...given({ hints: options.hints }),
    ...given({ choice: options.choice }),
  });
  const metric = comparison.paired?.metrics[options.metric];
  if (metric === undefined) throw new Error('gateStoredRuns: the paired comparison is missing');
  return { comparison, gate: gateRuns({ metric: options.metric, comparison: metric, maxDrop: options.maxDrop }) };
}

/**
 * The live process sending `runId` now, if one is: a SQLite store's claim file, or the claim a
 * PostgreSQL store keeps (read over a connection of its own).
 */
export function runSender(storePath: string, runId: string, owner: RunClaimOwner): ClaimFile | null {
  if (!isPostgresUrl(storePath)) return runHolder(storePath, runId, owner);
  return withStore(storePath, READ_ONLY, (store) => storedRunHolder(store, runId, owner));
}

function requireRun(store: Store, prefix: string, askedBy: AskedBy) {
  const id = store.resolveId(prefix, 'run', askedBy);
  const head = store.runs.head(id);
  const run = store.runs.get(id);
  if (head === null || run === null)
    throw new DecidekitError('unknown_run', `unknown run: ${id} disappeared from ${store.path} while reading`);
  return { head, run };
}

/** One stored probe by id or unique id prefix (`probe-…`); an unknown probe or a missing store is an error. */
export async function readStoredProbe(storePath: string, prefix: string) {
  return withStore(storePath, { mustExist: true }, (store) => store.probes.get(store.resolveId(prefix, 'probe'))!);
}

/** One stored audit by id or unique id prefix (`audit-…`); an unknown audit or a missing store is an error. */
export async function readStoredAudit(storePath: string, prefix: string) {
  return withStore(storePath, { mustExist: true }, (store) => {
    const id = store.resolveId(prefix, 'audit');
    const run = store.audits.get(id);
    if (run === null)
      throw new DecidekitError('unknown_run', `unknown audit: ${id} disappeared from ${store.path} while reading`);
    return run;
  });
}
