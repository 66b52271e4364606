import type { ReliabilityBin } from '../../core/calibration.js';
import { formatCount, formatNumber } from '../format.js';
/**
 * The shell every HTML report shares: one self-contained document (inline CSS with light,
 * dark and print styles; a small inline script that only sorts tables and filters the
 * trace), a Content-Security-Policy that forbids any request, and helpers for tables,
 * figures and headline cards. Charts and tables show without JavaScript.
 */
import { escapeHtml } from './html-escape.js';

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d0d7de;--card:#f6f8fa;--heat:#0969da;
--s0:#0072b2;--s1:#e69f00;--s2:#009e73;--s3:#cc79a7;--s4:#56b4e9;--s5:#d55e00;--good:#1a7f37;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--card:#161b22;--heat:#4493f8;
--s0:#56b4e9;--s1:#f0b429;--s2:#3fb68b;--s3:#e38fc4;--s4:#9ecae1;--s5:#ff7b54;--good:#3fb950;--bad:#f85149}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1100px;padding:1.5rem;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:1.6rem;margin:.2rem 0 .4rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
.meta,.note,figcaption p,.muted{color:var(--muted)}.meta{font-size:.9rem}
.warn{border-left:4px solid var(--s1);background:var(--card);padding:.5rem .8rem;margin:.6rem 0}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.6rem;margin:1rem 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem}
.card .k{font-size:.8rem;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}.card .v{font-size:1.4rem;font-weight:600;overflow-wrap:anywhere}
.card .d{font-size:.8rem;color:var(--muted)}
figure{margin:1rem 0;break-inside:avoid}figcaption{font-weight:600;margin-bottom:.3rem}figcaption p{font-weight:400;margin:.1rem 0;font-size:.9rem}
.pair{display:grid;grid-template-columns:minmax(0,1.25fr) minmax(0,1fr);gap:1rem;align-items:start}
.pair>div{min-width:0;overflow-x:auto}@media (max-width:800px){.pair{grid-template-columns:1fr}}
svg.chart{width:100%;height:auto;max-width:760px;display:block;font-size:12px}
svg .grid{stroke:var(--line);stroke-width:.6}svg .axis{stroke:var(--muted);stroke-width:1}
svg .tick{fill:var(--muted)}svg .label{fill:var(--fg);font-weight:600}svg .value{fill:var(--fg);font-size:11px}
svg .diagonal{stroke:var(--muted);stroke-dasharray:5 4;stroke-width:1.2}
svg .gap{stroke-width:3;stroke-linecap:round}svg .gap.over{stroke:var(--bad)}svg .gap.under{stroke:var(--good)}
svg .marker{stroke:var(--fg);stroke-dasharray:4 3;stroke-width:1.4}svg .reference{stroke:var(--fg);stroke-width:2.5}
svg .front{fill:none;stroke:var(--muted);stroke-width:2;stroke-dasharray:6 4}svg .on-front{stroke:var(--fg);stroke-width:2}
svg .line{fill:none;stroke-width:2.2}
.s0{--c:var(--s0)}.s1{--c:var(--s1)}.s2{--c:var(--s2)}.s3{--c:var(--s3)}.s4{--c:var(--s4)}.s5{--c:var(--s5)}
svg .bar,svg .point{fill:var(--c)}svg .line{stroke:var(--c)}svg .marker[class*=" s"]{stroke:var(--c)}svg .value[class*=" s"]{fill:var(--c);font-weight:600}
.swatch{color:var(--c)}.ci{white-space:nowrap;font-size:.8rem;color:var(--muted)}
#disagreements-table td:first-child{white-space:normal}
.legend{list-style:none;padding:0;margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:.9rem}
.legend .sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.35em;vertical-align:-.1em;background:var(--c)}
.scroll{overflow:auto;max-height:32rem;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;font-size:.88rem;width:100%}th,td{padding:.25rem .5rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--card)}.scroll th{position:sticky;top:0}#trace th:nth-child(n+6):nth-child(-n+8){text-align:right}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer;user-select:none}table.sortable th[aria-sort=ascending]::after{content:" ▲"}table.sortable th[aria-sort=descending]::after{content:" ▼"}
table.heatmap{width:auto;min-width:40%}td.heat{background:color-mix(in srgb,var(--heat) calc(var(--h) * 75%),transparent);text-align:right;font-variant-numeric:tabular-nums}
td.diag{outline:2px solid var(--good);outline-offset:-2px}
#trace td:nth-child(n+6):nth-child(-n+8){text-align:right;font-variant-numeric:tabular-nums}#trace td:nth-child(n+9){font:.8rem ui-monospace,Menlo,monospace;white-space:nowrap}
td:first-child{white-space:nowrap}.nowrap{white-space:nowrap}.ok{color:var(--good)}.bad{color:var(--bad)}.dist{font:.8rem ui-monospace,Menlo,monospace;white-space:nowrap}
.filters{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center;margin:.5rem 0}
@media print{body{max-width:none;padding:0;font-size:11px}.scroll{max-height:none;overflow:visible;border:0}.filters{display:none}
th{position:static}h2{break-after:avoid}a{color:inherit}}
`;

const SCRIPT = `
(function(){
function val(td){var v=td.getAttribute('data-value');if(v!==null)return v===''?null:Number(v);var t=td.textContent.trim();if(t==='n/a')return null;return /^-?[0-9]+(\\.[0-9]+)?$/.test(t)?Number(t):t.toLowerCase()}
document.querySelectorAll('table.sortable').forEach(function(t){
t.querySelectorAll('th').forEach(function(th,i){th.tabIndex=0;function go(){
var asc=th.getAttribute('aria-sort')!=='ascending';t.querySelectorAll('th').forEach(function(o){o.removeAttribute('aria-sort')});
th.setAttribute('aria-sort',asc?'ascending':'descending');var body=t.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(a,b){var x=val(a.cells[i]),y=val(b.cells[i]);if(x===y)return 0;if(x===null)return 1;if(y===null)return -1;return (x<y?-1:1)*(asc?1:-1)});
rows.forEach(function(r){body.appendChild(r)})}
th.addEventListener('click',go);th.addEventListener('keydown',function(e){if(e.key==='Enter')go()})})});
var trace=document.getElementById('trace');if(!trace)return;
var box=document.getElementById('trace-filters');box.hidden=false;
var wrong=document.getElementById('f-wrong'),conf=document.getElementById('f-confident'),q=document.getElementById('f-question'),w=document.getElementById('f-workflow'),count=document.getElementById('trace-count');
function apply(){var shown=0;Array.prototype.forEach.call(trace.tBodies[0].rows,function(r){
var k=r.getAttribute('data-q'),ok=r.getAttribute('data-ok');
var keep=(!wrong.checked||ok!=='1')&&(!conf.checked||r.hasAttribute('data-cw'))&&(!q.value||k===q.value)&&(!w.value||k.split('/')[0]===w.value);
r.hidden=!keep;if(keep)shown++});count.textContent=shown+' of '+trace.tBodies[0].rows.length+' decisions shown'}
[wrong,conf,q,w].forEach(function(el){el.addEventListener('change',apply)});apply()})();
`;

export interface PageOptions {
  readonly title: string;
  /** The body's HTML. */
  readonly body: string;
  /**
   * Let the page's own script read JSON from the origin that served it (`decidekit view`'s
   * list updating while runs are sent). Default false: no request at all.
   */
  readonly connectSelf?: boolean;
  /** Another inline script, after the shared one. */
  readonly script?: string;
}

/** The whole document. No external resource: the CSP forbids every request but inline style, script and data: images. */
export function renderPage(options: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:${options.connectSelf === true ? "; connect-src 'self'" : ''}">
<meta name="generator" content="decidekit">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${options.body}
<script>${SCRIPT}</script>${options.script === undefined ? '' : `\n<script>${options.script}</script>`}
</body>
</html>
`;
}

/** A table cell: text shown, and optionally the unrounded number behind it (for sorting and checks; null = absent). */
export type Cell =
  | string
  | {
      readonly text: string;
      readonly value?: number | null;
      readonly className?: string;
      readonly html?: boolean;
      /** A name for the cell (`data-f`), for a page's script that updates it. */
      readonly field?: string;
    };

function cellHtml(cell: Cell, tag: 'td' | 'th'): string {
  if (typeof cell === 'string') return `<${tag}>${escapeHtml(cell)}</${tag}>`;
  const classes = [cell.value !== undefined ? 'n' : '', cell.className ?? ''].filter((c) => c !== '').join(' ');
  const value = cell.value === undefined ? '' : ` data-value="${cell.value === null ? '' : String(cell.value)}"`;
  const body = cell.html === true ? cell.text : escapeHtml(cell.text);
  const field = cell.field === undefined ? '' : ` data-f="${escapeHtml(cell.field)}"`;
  return `<${tag}${classes === '' ? '' : ` class="${classes}"`}${value}${field}>${body}</${tag}>`;
}

export interface TableOptions {
  readonly id?: string;
  readonly sortable?: boolean;
  /** Header names; a name ending in `#` is numeric (right-aligned, the `#` is dropped). */
  readonly headers: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
  readonly caption?: string;
  /** Wrap in a scrolling box (long tables). */
  readonly scroll?: boolean;
  /** Extra attributes per row (already escaped), aligned with rows. */
  readonly rowAttributes?: readonly string[];
}

export function renderTable(options: TableOptions): string {
  const head = options.headers
    .map((h) =>
      h.endsWith('#')
        ? `<th class="n" scope="col">${escapeHtml(h.slice(0, -1))}</th>`
        : `<th scope="col">${escapeHtml(h)}</th>`,
    )
    .join('');
  const body = options.rows
    .map((r, i) => `<tr${options.rowAttributes?.[i] ?? ''}>${r.map((c) => cellHtml(c, 'td')).join('')}</tr>`)
    .join('\n');
  const attrs = `${options.id === undefined ? '' : ` id="${escapeHtml(options.id)}"`}${options.sortable === true ? ' class="sortable"' : ''}`;
  const caption =
    options.caption === undefined ? '' : `<caption class="muted">${escapeHtml(options.caption)}</caption>`;
  const table = `<table${attrs}>${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
  return options.scroll === true ? `<div class="scroll">${table}</div>` : table;
}

/** A figure: caption (title and an optional note), the chart, a legend, and the table with the chart's numbers beside it. */
export function renderFigure(options: {
  readonly title: string;
  readonly note?: string;
  readonly chart: string;
  readonly legend?: readonly string[];
  readonly table: string;
  /** Chart and table side by side (small tables). */
  readonly pair?: boolean;
}): string {
  const note = options.note === undefined ? '' : `<p>${escapeHtml(options.note)}</p>`;
  const legend =
    options.legend === undefined || options.legend.length < 2
      ? ''
      : `<ul class="legend">${options.legend.map((name, i) => `<li class="s${i % 6}"><span class="sw"></span>${escapeHtml(name)}</li>`).join('')}</ul>`;
  const content =
    options.pair === true
      ? `<div class="pair"><div>${legend}${options.chart}</div><div>${options.table}</div></div>`
      : `${legend}${options.chart}${options.table}`;
  return `<figure><figcaption>${escapeHtml(options.title)}${note}</figcaption>${content}</figure>`;
}

export interface Card {
  readonly key: string;
  readonly label: string;
  readonly text: string;
  readonly value: number | null;
  readonly detail?: string;
}

/** Headline numbers as cards; `data-key` and `data-value` carry the unrounded number. */
export function renderCards(cards: readonly Card[]): string {
  return `<div class="cards">${cards
    .map(
      (c) =>
        `<div class="card" data-key="${escapeHtml(c.key)}" data-value="${c.value === null ? '' : String(c.value)}"><div class="k">${escapeHtml(c.label)}</div><div class="v">${escapeHtml(c.text)}</div>${c.detail === undefined ? '' : `<div class="d">${escapeHtml(c.detail)}</div>`}</div>`,
    )
    .join('')}</div>`;
}

/** Confusion counts as a heat table: rows gold, columns predicted, shade by share of the row. */
export function renderHeatTable(options: {
  readonly id: string;
  readonly labels: readonly string[];
  readonly counts: readonly (readonly number[])[];
  readonly rowTitle: string;
  readonly columnTitle: string;
  /** Extra text per cell (e.g. a cost), aligned with counts. */
  readonly cellNote?: (row: number, column: number) => string | null;
}): string {
  const head = options.labels.map((l) => `<th class="n" scope="col">${escapeHtml(l)}</th>`).join('');
  const rows = options.counts
    .map((row, r) => {
      const total = row.reduce((a, b) => a + b, 0);
      const cells = row
        .map((n, c) => {
          const share = total === 0 ? 0 : n / total;
          const note = options.cellNote?.(r, c) ?? null;
          return `<td class="heat${r === c ? ' diag' : ''}" data-mark="cell" data-value="${n}" style="--h:${Math.round(share * 100) / 100}">${n}${note === null ? '' : `<br><span class="muted">${escapeHtml(note)}</span>`}</td>`;
        })
        .join('');
      return `<tr><th scope="row">${escapeHtml(options.labels[r] ?? '')}</th>${cells}<td class="n" data-value="${total}">${total}</td></tr>`;
    })
    .join('');
  return `<table class="heatmap" id="${escapeHtml(options.id)}"><thead><tr><th>${escapeHtml(options.rowTitle)} ↓ / ${escapeHtml(options.columnTitle)} →</th>${head}<th class="n">total</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A list of short names: safe for an `id`. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'x'
  );
}

/** A cell of an identifier that may break after its `_`, `/`, `.` and `-` when its column is narrow. */
export function breakableCell(text: string): Cell {
  return { text: escapeHtml(text).replace(/([_/.-])/g, '$1<wbr>'), html: true };
}

/** A number cell: shown formatted, sorted by its unrounded value. */
export function numberCell(value: number | null, text = formatNumber(value)): Cell {
  return { text, value };
}

/** The reliability bins of several models or runs as one sortable table (the chart's numbers). */
export function renderReliabilityTable(
  label: string,
  series: readonly { readonly name: string; readonly bins: readonly ReliabilityBin[] }[],
): string {
  return renderTable({
    id: 'reliability-table',
    headers: [label, 'confidence', 'n#', 'mean confidence#', 'accuracy#', 'gap#'],
    rows: series.flatMap(({ name, bins }) =>
      bins.map((b): Cell[] => [
        name,
        `${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
        numberCell(b.n, formatCount(b.n)),
        numberCell(b.meanConfidence),
        numberCell(b.accuracy),
        numberCell(b.gap),
      ]),
    ),
    scroll: true,
  });
}
