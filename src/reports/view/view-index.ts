/**
 * `decidekit view`'s list (`/`): the store's runs, audits and probes in one table, newest
 * first or sorted by a metric, with the filters the server applies (a form that works without
 * script), check boxes to choose the runs to compare, and, served live, a small script that
 * keeps the rows of runs still being sent up to date from `/api/records`.
 */
import type { StoredRunHead } from '../../store/stored-run.js';
import type { AuditHead } from '../../store/stored-audit.js';
import type { ProbeHead } from '../../store/stored-probe.js';
import { formatCount, formatPercent } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { renderPage, renderTable, type Cell } from '../html/html-page.js';
import { describeCreatedAt, describeDatasetShort, describeHeadModel } from '../runs/runs-list.js';
import { linkOr, renderViewNav } from './view-nav.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { INDEX_SORTS, type IndexFilters, type IndexSort } from '../../core/view/index-filters.js';

const SORT_WORDS: Readonly<Record<IndexSort, string>> = {
  created: 'newest first',
  accuracy: 'accuracy, best first',
  kl: 'KL, best first',
  brier: 'Brier, best first',
  ece: 'ECE, best first',
};

export interface ViewIndexInput {
  readonly storePath: string;
  /** The records shown, filtered and sorted. */
  readonly runs: readonly StoredRunHead[];
  readonly audits: readonly AuditHead[];
  readonly probes: readonly ProbeHead[];
  /** Every record the store holds, before the filters. */
  readonly totals: { readonly runs: number; readonly audits: number; readonly probes: number };
  /** The values the filters offer (every run's model, dataset and status). */
  readonly choices: { readonly models: readonly string[]; readonly datasets: readonly string[] };
  readonly filters: IndexFilters;
  readonly links: ViewLinks;
  /** Served: the filter form, the compare button and the live updates. A bundle has neither. */
  readonly live: boolean;
  /** A bundle's comparison pages, each by its runs. */
  readonly comparisons?: readonly (readonly string[])[];
}

/** The model a run is filtered by: what `runs list` shows in its model column. */
export const modelOfHead = describeHeadModel;
/** The dataset a run is filtered by: what `runs list` shows in its dataset column. */
export const datasetOfHead = describeDatasetShort;

/** Polls the records every 1.5 s while the page is open: new records reload the page, a run's row is updated in place. */
const LIVE_SCRIPT = `
(function(){var t=document.getElementById('records');if(!t)return;var RELOAD=__RELOAD__;
function pct(v){return v===null?'n/a':(v*100).toFixed(1)+'%'}function num(v){return v===null?'n/a':v.toFixed(3)}
function set(row,f,text,value){var c=row.querySelector('[data-f="'+f+'"]');if(!c)return;c.textContent=text;if(value!==undefined)c.setAttribute('data-value',value===null?'':String(value))}
function tick(){fetch('/api/records',{cache:'no-store'}).then(function(r){return r.json()}).then(function(doc){
var known={};Array.prototype.forEach.call(t.tBodies[0].rows,function(r){known[r.getAttribute('data-id')]=r});
var fresh=RELOAD&&doc.runs.concat(doc.audits||[],doc.probes||[]).some(function(x){return !known[x.id]});
if(fresh){location.reload();return}
doc.runs.forEach(function(h){var row=known[h.id];if(!row)return;var hl=h.headline;
set(row,'status',h.status);set(row,'cases',h.saved_cases+' of '+h.case_count,h.saved_cases);
set(row,'accuracy',hl?pct(hl.accuracy):'n/a',hl?hl.accuracy:null);set(row,'kl',hl?num(hl.kl):'n/a',hl?hl.kl:null);
set(row,'brier',hl?num(hl.brier):'n/a',hl?hl.brier:null);set(row,'ece',hl?num(hl.ece):'n/a',hl?hl.ece:null);
row.setAttribute('data-status',h.status)})}).catch(function(){}).then(function(){setTimeout(tick,1500)})}
setTimeout(tick,1500)})();
`;

function select(name: string, label: string, values: readonly string[], chosen: string | undefined): string {
  const options = ['', ...values]
    .map(
      (v) =>
        `<option value="${escapeHtml(v)}"${v === (chosen ?? '') ? ' selected' : ''}>${escapeHtml(v === '' ? 'all' : v)}</option>`,
    )
    .join('');
  return `<label>${label} <select name="${name}" id="filter-${name}">${options}</select></label>`;
}

function filterForm(input: ViewIndexInput): string {
  const f = input.filters;
  const input_ = (name: string, label: string, type: string, value: string | undefined) =>
    `<label>${label} <input type="${type}" name="${name}" id="filter-${name}" value="${escapeHtml(value ?? '')}"></label>`;
  return (
    `<form class="filters" method="get" action="${escapeHtml(input.links.index)}" role="search">` +
    select('model', 'model', input.choices.models, f.model) +
    input_('label', 'label', 'search', f.label) +
    select('dataset', 'dataset', input.choices.datasets, f.dataset) +
    select('status', 'status', ['running', 'complete', 'incomplete', 'interrupted'], f.status) +
    input_('from', 'from', 'date', f.from) +
    input_('to', 'to', 'date', f.to) +
    `<label>sort by <select name="sort" id="filter-sort">${INDEX_SORTS.map((v) => `<option value="${v}"${v === (f.sort ?? 'created') ? ' selected' : ''}>${SORT_WORDS[v]}</option>`).join('')}</select></label>` +
    `<button type="submit" id="apply-filters">Apply</button> <a href="${escapeHtml(input.links.index)}">clear</a></form>`
  );
}

const fixed3 = (v: number | null): string => (v === null ? 'n/a' : v.toFixed(3));
const metric = (value: number | null, field: string, text: string): Cell => ({ text, value, field });

function runRow(h: StoredRunHead, links: ViewLinks, live: boolean): Cell[] {
  const hl = h.headline;
  const box = live
    ? `<input type="checkbox" name="runs" value="${escapeHtml(h.id)}" aria-label="compare run ${escapeHtml(h.id)}">`
    : '';
  const model = modelOfHead(h);
  return [
    { text: box, html: true },
    'run',
    { text: linkOr(links.run(h.id), h.id), html: true, className: 'nowrap' },
    describeCreatedAt(h.createdAt),
    { text: h.status, field: 'status' },
    { text: linkOr(links.model(model), model), html: true },
    h.label ?? '',
    describeDatasetShort(h),
    { text: `${formatCount(h.savedCases)} of ${formatCount(h.caseCount)}`, value: h.savedCases, field: 'cases' },
    metric(hl?.accuracy ?? null, 'accuracy', formatPercent(hl?.accuracy ?? null)),
    metric(hl?.kl ?? null, 'kl', fixed3(hl?.kl ?? null)),
    metric(hl?.brier ?? null, 'brier', fixed3(hl?.brier ?? null)),
    metric(hl?.ece ?? null, 'ece', fixed3(hl?.ece ?? null)),
  ];
}

function auditRow(h: AuditHead, links: ViewLinks): Cell[] {
  const verdicts = `${formatCount(h.finished)} of ${formatCount(h.planned)}`;
  return [
    '',
    'audit',
    { text: linkOr(links.audit(h.id), h.id), html: true, className: 'nowrap' },
    describeCreatedAt(h.createdAt),
    h.status,
    h.judgeModel ?? 'judge',
    h.label ?? '',
    `checks: ${h.set}`,
    { text: verdicts, value: h.finished },
    ...EMPTY_METRICS,
  ];
}

function probeRow(h: ProbeHead, links: ViewLinks): Cell[] {
  const passed = (c: ProbeHead['conformance']) =>
    c === null ? 'not run' : `${c.passed}/${c.passed + c.failed} passed`;
  return [
    '',
    'probe',
    { text: linkOr(links.probe(h.id), h.id), html: true, className: 'nowrap' },
    describeCreatedAt(h.createdAt),
    `conformance ${passed(h.conformance)}; robustness ${passed(h.robustness)}`,
    h.model ?? 'server default',
    '',
    h.datasetId,
    { text: formatCount(h.cases), value: h.cases },
    ...EMPTY_METRICS,
  ];
}

const EMPTY_METRICS: readonly Cell[] = [
  { text: '', value: null },
  { text: '', value: null },
  { text: '', value: null },
  { text: '', value: null },
];

/** The list page. */
export function renderViewIndex(input: ViewIndexInput): string {
  const { links, live } = input;
  const shown = input.runs.length + input.audits.length + input.probes.length;
  const total = input.totals.runs + input.totals.audits + input.totals.probes;
  const filtered = Object.values(input.filters).some((v) => v !== undefined && v !== '' && v !== 'created');
  const rows = [
    ...input.runs.map((h) => runRow(h, links, live)),
    ...input.audits.map((h) => auditRow(h, links)),
    ...input.probes.map((h) => probeRow(h, links)),
  ];
  const attributes = [
    ...input.runs.map((h) => ` data-id="${escapeHtml(h.id)}" data-kind="run" data-status="${h.status}"`),
    ...input.audits.map((h) => ` data-id="${escapeHtml(h.id)}" data-kind="audit"`),
    ...input.probes.map((h) => ` data-id="${escapeHtml(h.id)}" data-kind="probe"`),
  ];
  const body = [
    renderViewNav(links, 'List', input.storePath),
    '<header><h1>Runs, audits and probes</h1>',
    `<p class="meta" id="records-count">${formatCount(shown)} of ${formatCount(total)} records shown (${formatCount(input.totals.runs)} runs, ${formatCount(input.totals.audits)} audits, ${formatCount(input.totals.probes)} probes in the store).</p></header><main>`,
    live ? filterForm(input) : '',
    total === 0
      ? '<p class="warn">The store holds nothing yet: <code>decidekit bench</code> makes a first run.</p>'
      : '',
    live ? `<form method="get" action="/compare" id="compare-form">` : '',
    live
      ? '<p class="note">Choose two or more runs of the same work and compare them. Click a header to sort the rows shown.</p>'
      : '<p class="note">Click a header to sort.</p>',
    renderTable({
      id: 'records',
      sortable: true,
      headers: [
        '',
        'kind',
        'id',
        'created',
        'status',
        'model',
        'label',
        'dataset',
        'cases#',
        'accuracy#',
        'KL#',
        'Brier#',
        'ECE#',
      ],
      rows,
      rowAttributes: attributes,
      caption: 'Stored records',
    }),
    live ? '<p><button type="submit" id="compare-selected">Compare the chosen runs</button></p></form>' : '',
    ...comparisonsList(input),
    '</main>',
  ];
  return renderPage({
    title: 'decidekit view',
    body: body.join('\n'),
    // A filtered list is not reloaded for a new record: it may not pass the filters.
    ...(live ? { connectSelf: true, script: LIVE_SCRIPT.replace('__RELOAD__', filtered ? 'false' : 'true') } : {}),
  });
}

function comparisonsList(input: ViewIndexInput): string[] {
  const list = input.comparisons ?? [];
  if (list.length === 0) return [];
  return [
    '<h2>Comparisons</h2><ul id="comparisons">',
    // The page reads B against A: the second run against the first.
    ...list.map(
      (ids) =>
        `<li>${linkOr(input.links.compare(ids), ids.length === 2 ? `${ids[1]!} against ${ids[0]!}` : ids.join(', '))}</li>`,
    ),
    '</ul>',
  ];
}
