/**
 * `decidekit view`'s comparison (`/compare?runs=A,B[,C…]`): the comparison page of
 * `runs compare --format html` (two runs: paired, with verdicts and McNemar; more: the
 * leaderboard), and for two runs the per-question deltas and the decisions whose
 * correctness changed (the `changed` list of `runs compare --json`), a page at a time with
 * the case's state and both predicted distributions.
 */
import { DecidekitError } from '../../core/errors.js';
import type { RunComparison } from '../../core/bench/run-diff.js';
import type { ReportedRun } from '../../core/bench/run.js';
import {
  CHANGED_PAGE_DECISIONS,
  passesChanged,
  type ChangedFilter,
  type ChangedItem,
} from '../../core/view/changed-filter.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { readStoredRunsToCompare } from '../runs/stored-runs.js';
import { openStore } from '../../store/open-store.js';
import { statesOfRun } from '../runs/run-case-states.js';
import { renderRunsCompareHtml } from '../../reports/runs/runs-compare-html.js';
import { renderStatePreview } from '../../reports/bench/bench-trace.js';
import { renderChangedDecisions, renderQuestionDeltas } from '../../reports/view/view-compare.js';
import { renderViewNav } from '../../reports/view/view-nav.js';

/**
 * The runs a query names: `runs=A,B` in that order (A the baseline), or what the list's
 * check boxes send (`runs=X&runs=Y`), oldest first.
 */
export function runsOfQuery(storePath: string, query: URLSearchParams): string[] {
  const given = query.getAll('runs');
  const ids = given
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (given.length > 1 && ids.length > 1) return oldestFirst(storePath, ids);
  if (ids.length < 2)
    throw new DecidekitError('invalid_input', 'choose two or more runs to compare (the check boxes of the list)');
  return ids;
}

/** Run ids (or prefixes) as full ids, oldest first (two runs may start in the same second: by their time to the millisecond). */
function oldestFirst(storePath: string, prefixes: readonly string[]): string[] {
  const store = openStore(storePath, { mustExist: true, readOnly: true });
  try {
    return prefixes
      .map((p) => store.runs.head(store.resolveId(p, 'run', { command: 'view' }))!)
      .sort((x, y) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : 0))
      .map((h) => h.id);
  } finally {
    store.close();
  }
}

function changedFilterOf(query: URLSearchParams): { filter: ChangedFilter; page: number } {
  const value = (name: string): string | undefined => {
    const v = query.get(name)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const change = value('change');
  const question = value('question');
  const workflow = value('workflow');
  const page = Number(value('page') ?? '1');
  return {
    filter: {
      ...(question === undefined ? {} : { question }),
      ...(workflow === undefined ? {} : { workflow }),
      ...(change === 'fixed' || change === 'broken' ? { change } : {}),
    },
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

const keyOf = (caseId: string, questionId: string): string => `${caseId}\u0000${questionId}`;

/** The answers and each run's predicted distribution of the decisions wanted, read from both runs. */
function distributionsOf(
  runs: readonly [ReportedRun, ReportedRun],
  wanted: ReadonlySet<string>,
): Map<string, { answers: readonly string[]; a: readonly number[] | null; b: readonly number[] | null }> {
  const out = new Map<
    string,
    { answers: readonly string[]; a: readonly number[] | null; b: readonly number[] | null }
  >();
  if (wanted.size === 0) return out;
  runs.forEach((run, side) => {
    for (const k of run.cases)
      for (const d of k.decisions) {
        const key = keyOf(k.caseId, d.questionId);
        if (!wanted.has(key)) continue;
        const entry = out.get(key) ?? { answers: d.answers, a: null, b: null };
        const p = d.outcome.status === 'answered' ? d.outcome.probabilities : null;
        out.set(key, side === 0 ? { ...entry, a: p } : { ...entry, b: p });
      }
  });
  return out;
}

/** One page of the changed decisions with their states and distributions. */
async function changedItems(
  runs: readonly [ReportedRun, ReportedRun],
  c: RunComparison,
  filter: ChangedFilter,
  page: number,
  pageSize: number,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ items: ChangedItem[]; matching: number }> {
  const passing = c.changed.filter((d) => passesChanged(d, filter));
  const shown = passing.slice((page - 1) * pageSize, page * pageSize);
  const states = await statesOfRun(runs[0], env);
  const dists = distributionsOf(runs, new Set(shown.map((d) => keyOf(d.caseId, d.questionId))));
  const items = shown.map((decision): ChangedItem => {
    const state = states?.get(decision.caseId);
    const dist = dists.get(keyOf(decision.caseId, decision.questionId));
    return {
      decision,
      statePreview: state === undefined ? null : renderStatePreview(state),
      answers: dist?.answers ?? null,
      a: dist?.a ?? null,
      b: dist?.b ?? null,
    };
  });
  return { items, matching: passing.length };
}

/** The comparison page; `pageHref` null for a bundle's file (its first page, no filter form). */
export async function viewComparePage(
  storePath: string,
  query: URLSearchParams,
  links: ViewLinks,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly bundle?: boolean } = {},
): Promise<string> {
  const prefixes = runsOfQuery(storePath, query);
  const { analyzed, rows, paired } = readStoredRunsToCompare(
    storePath,
    prefixes,
    { force: false, askedBy: { command: 'view' } },
    { listings: true },
  );
  const runs = analyzed.map((a) => a.run);
  const ids = runs.map((r) => r.id);
  const more: string[] = [];
  if (paired !== null) {
    const { filter, page } = changedFilterOf(query);
    const pageSize = options.bundle === true ? 2_000 : CHANGED_PAGE_DECISIONS;
    const { items, matching } = await changedItems([runs[0]!, runs[1]!], paired, filter, page, pageSize, env);
    more.push(...renderQuestionDeltas(paired));
    more.push(
      ...renderChangedDecisions({
        comparison: paired,
        filter,
        page,
        items,
        matching,
        runs: ids,
        pageHref:
          options.bundle === true
            ? null
            : (n) => {
                const q = new URLSearchParams(query);
                q.set('runs', ids.join(','));
                q.set('page', String(n));
                return `?${q.toString()}#changed-title`;
              },
      }),
    );
  } else
    more.push(
      '<p class="note">Choose two runs to see them paired, with the decisions whose correctness changed item by item.</p>',
    );
  return renderRunsCompareHtml(runs, {
    leaderboard: { rows, conventions: analyzed[0]!.statistics.conventions },
    ...(paired === null ? {} : { paired }),
    nav: renderViewNav(links, `Comparison of ${ids.join(', ')}`, storePath),
    moreSections: more,
  });
}
