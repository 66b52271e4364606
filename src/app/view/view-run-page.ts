/**
 * `decidekit view`'s run page (`/runs/ID`): the run's HTML report (cards with intervals,
 * calibration, breakdowns, confusion matrices, latency, disagreements, the failures of an
 * incomplete run under its banner) with one page of its trace, filtered and paged here.
 *
 * A finished run's report numbers and listings are kept with it in the store (by the bench
 * that finished it), so its first view reads none of its cases for them; a run stored
 * before they were kept needs one pass over its cases. A run that is no longer being sent
 * does not change, so its analysis is kept (`RunPageCache`) either way, and a page of its
 * trace reads only the cases from the nearest indexed place before that page.
 */
import { recalibratedCases } from '../../core/case-recalibration.js';
import type { ReportedRun } from '../../core/bench/run.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import { traceSeek } from '../../core/bench/run-listings.js';
import { analyzeRun } from '../bench/run-analysis.js';
import { openStoredRun } from '../runs/stored-runs.js';
import { renderBenchHtmlPage } from '../../reports/bench/bench-html.js';
import { renderTracePage } from '../../reports/view/view-trace.js';
import { TRACE_PAGE_DECISIONS, type TraceDecision, type TraceFilter } from '../../core/view/trace-filter.js';
import { renderViewNav } from '../../reports/view/view-nav.js';
import type { ViewLinks } from '../../core/view/view-links.js';

/** The analyses of runs that no longer change, the most recently shown kept. */
export class RunPageCache {
  private readonly runs = new Map<string, { run: ReportedRun; statistics: RunStatistics }>();
  constructor(private readonly size = 4) {}

  get(id: string): { run: ReportedRun; statistics: RunStatistics } | undefined {
    const hit = this.runs.get(id);
    if (hit !== undefined) {
      this.runs.delete(id);
      this.runs.set(id, hit);
    }
    return hit;
  }

  set(id: string, value: { run: ReportedRun; statistics: RunStatistics }): void {
    this.runs.delete(id);
    this.runs.set(id, value);
    while (this.runs.size > this.size) this.runs.delete(this.runs.keys().next().value!);
  }
}

/** The trace filter and page a query string asks for. */
export function parseTraceQuery(query: URLSearchParams): { filter: TraceFilter; page: number } {
  const value = (name: string): string | undefined => {
    const v = query.get(name)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const page = Number(value('page') ?? '1');
  const question = value('question');
  const workflow = value('workflow');
  return {
    filter: {
      ...(question === undefined ? {} : { question }),
      ...(workflow === undefined ? {} : { workflow }),
      wrong: value('wrong') === '1',
    },
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** How many decisions pass the filter: from the summary's breakdowns, no case read. */
export function countMatching(run: ReportedRun, f: TraceFilter): number {
  const s = run.summary;
  const group =
    f.question !== undefined
      ? f.workflow !== undefined && !f.question.startsWith(`${f.workflow}/`)
        ? null
        : (s.byQuestion[f.question] ?? null)
      : f.workflow !== undefined
        ? (s.byWorkflow[f.workflow] ?? null)
        : s;
  if (group === null) return 0;
  return f.wrong ? group.total - group.correct : group.total;
}

function passes(t: TraceDecision, f: TraceFilter): boolean {
  if (f.workflow !== undefined && t.workflow !== f.workflow) return false;
  if (f.question !== undefined && `${t.workflow}/${t.decision.questionId}` !== f.question) return false;
  if (f.wrong) {
    const o = t.decision.outcome;
    if (o.status === 'answered' && o.correct) return false;
  }
  return true;
}

/**
 * One page of the trace: the cases read in run order until the page is full, then no more.
 * Unfiltered, reading starts at the nearest place the run's trace index knows before the
 * page (the cases before it are not read); a filtered page counts its decisions from the
 * first case.
 */
export function tracePageOf(run: ReportedRun, f: TraceFilter, page: number): TraceDecision[] {
  const skip = (page - 1) * TRACE_PAGE_DECISIONS;
  const unfiltered = f.question === undefined && f.workflow === undefined && !f.wrong;
  const index = run.listings?.traceIndex;
  const seek =
    unfiltered && index !== undefined && run.cases.from !== undefined
      ? traceSeek(index, skip)
      : { position: 0, decisionsBefore: 0 };
  const cases = seek.position > 0 ? run.cases.from!(seek.position) : run.cases;
  let seen = seek.decisionsBefore;
  const out: TraceDecision[] = [];
  for (const k of cases) {
    for (const decision of k.decisions) {
      const t = { caseId: k.caseId, workflow: k.workflow, decision };
      if (!passes(t, f)) continue;
      if (seen++ < skip) continue;
      out.push(t);
      if (out.length === TRACE_PAGE_DECISIONS) return out;
    }
  }
  return out;
}

/** Reloads a running run's page every two seconds, so it fills in as cases are saved. */
const RELOAD_SCRIPT = 'setTimeout(function(){location.reload()},2000);';

/** The run page's HTML. */
export function viewRunPage(
  storePath: string,
  prefix: string,
  query: URLSearchParams,
  links: ViewLinks,
  cache: RunPageCache,
): string {
  // A finished run's listings kept with it: its first view reads no case for them.
  const opened = openStoredRun(storePath, prefix, { command: 'view' }, { listings: true });
  const id = opened.head.id;
  const running = opened.head.status === 'running';
  let analyzed = running ? undefined : cache.get(id);
  if (analyzed === undefined) {
    const a = analyzeRun(opened.run, {}, { intervals: true, stored: opened.stored, listings: true });
    analyzed = { run: a.run, statistics: a.statistics };
    if (!running) cache.set(id, analyzed);
  }
  // The cases are read from the store as the trace page needs them, not from the cache;
  // a run that applied a calibration map shows its answers recalibrated, as its numbers are.
  const own = opened.run.config.calibration;
  const cases = own === undefined ? opened.run.cases : recalibratedCases(opened.run.cases, own);
  const run = { ...analyzed.run, cases };
  const { filter, page } = parseTraceQuery(query);
  const traceHtml = renderTracePage({
    filter,
    page,
    decisions: tracePageOf(run, filter, page),
    matching: countMatching(run, filter),
    questions: Object.keys(run.summary.byQuestion),
    workflows: Object.keys(run.summary.byWorkflow),
  });
  return renderBenchHtmlPage(run, {
    statistics: analyzed.statistics,
    nav: renderViewNav(links, `Run ${id}${running ? ' (being sent: this page reloads)' : ''}`, storePath),
    traceHtml,
    ...(running ? { script: RELOAD_SCRIPT } : {}),
  });
}
