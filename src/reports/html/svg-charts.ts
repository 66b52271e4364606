/**
 * A small pure SVG chart renderer: each function takes numbers already computed by a core
 * summary and returns an `<svg>` string that shows without JavaScript. Colours come from
 * CSS classes (`s0`…`s5`, `ink`, `grid`), so the page's light, dark and print styles apply.
 * Every mark carries `data-mark` (point, bar, count, gap, marker, front, line, reference)
 * so tests can count them, and a `<title>` with its numbers for a tooltip. The `<svg>` is
 * `role="img"` labelled by its own `<title>` and `<desc>`; the page puts a table with the
 * same numbers next to it.
 */
import type { ReliabilityBin } from '../../core/calibration.js';
import { formatCount, formatNumber, formatPercent } from '../format.js';
import { coord, escapeHtml } from './html-escape.js';

/** What every chart says about itself. */
export interface ChartText {
  /** Unique in the page: the ids of the title and description derive from it. */
  readonly id: string;
  readonly title: string;
  /** One or two sentences a screen reader reads instead of the picture. */
  readonly desc: string;
}

const WIDTH = 640;
const MARGIN = { left: 60, right: 20, top: 14, bottom: 46 };

type Scale = (v: number) => number;
function linear(d0: number, d1: number, r0: number, r1: number): Scale {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** Round tick values covering [min, max]. */
function ticks(min: number, max: number, wanted = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / wanted;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out: number[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}

function svgOpen(text: ChartText, height: number): string {
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${text.id}-t ${text.id}-d" data-chart="${text.id}">` +
    `<title id="${text.id}-t">${escapeHtml(text.title)}</title><desc id="${text.id}-d">${escapeHtml(text.desc)}</desc>`
  );
}

function tip(text: string): string {
  return `<title>${escapeHtml(text)}</title>`;
}

interface Axis {
  readonly scale: Scale;
  readonly ticks: readonly number[];
  readonly format: (v: number) => string;
  readonly label: string;
}

/** Grid lines, tick labels and axis titles of a plot area. */
function axes(x: Axis, y: Axis, top: number, bottom: number, left: number, right: number): string {
  const parts: string[] = [];
  for (const t of y.ticks) {
    const py = coord(y.scale(t));
    parts.push(`<line class="grid" x1="${left}" x2="${right}" y1="${py}" y2="${py}"/>`);
    parts.push(
      `<text class="tick" x="${left - 6}" y="${py}" text-anchor="end" dy="0.32em">${escapeHtml(y.format(t))}</text>`,
    );
  }
  for (const t of x.ticks) {
    const px = coord(x.scale(t));
    parts.push(`<line class="grid" x1="${px}" x2="${px}" y1="${top}" y2="${bottom}"/>`);
    parts.push(
      `<text class="tick" x="${px}" y="${bottom + 16}" text-anchor="middle">${escapeHtml(x.format(t))}</text>`,
    );
  }
  parts.push(`<line class="axis" x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`);
  parts.push(`<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${bottom}"/>`);
  parts.push(
    `<text class="label" x="${(left + right) / 2}" y="${bottom + 36}" text-anchor="middle">${escapeHtml(x.label)}</text>`,
  );
  parts.push(
    `<text class="label" transform="translate(14 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(y.label)}</text>`,
  );
  return parts.join('');
}

const pct = (v: number): string => formatPercent(v, 0);

export interface ReliabilitySeries {
  readonly name: string;
  readonly bins: readonly ReliabilityBin[];
}

/**
 * Mean confidence (x) against accuracy (y) per confidence bin, with the diagonal of perfect
 * calibration; with one series the gap of each bin is drawn from the diagonal to the point
 * (red below: over-confident). Beneath, the decisions per bin as a histogram.
 */
export function renderReliabilityChart(text: ChartText, series: readonly ReliabilitySeries[]): string {
  const plotBottom = 300;
  const countTop = 350;
  const countBottom = 430;
  const height = countBottom + 44;
  const right = WIDTH - MARGIN.right;
  const x = linear(0, 1, MARGIN.left, right);
  const y = linear(0, 1, plotBottom, MARGIN.top);
  const unit = ticks(0, 1, 5);
  const parts = [svgOpen(text, height)];
  parts.push(
    axes(
      { scale: x, ticks: unit, format: pct, label: 'mean confidence in the bin' },
      { scale: y, ticks: unit, format: pct, label: 'accuracy' },
      MARGIN.top,
      plotBottom,
      MARGIN.left,
      right,
    ),
  );
  parts.push(
    `<line class="diagonal" data-mark="diagonal" x1="${coord(x(0))}" y1="${coord(y(0))}" x2="${coord(x(1))}" y2="${coord(y(1))}">${tip('perfect calibration: accuracy = confidence')}</line>`,
  );
  series.forEach((s, si) => {
    if (series.length === 1) {
      for (const b of s.bins) {
        const cls = b.gap < 0 ? 'gap over' : 'gap under';
        parts.push(
          `<line class="${cls}" data-mark="gap" x1="${coord(x(b.meanConfidence))}" x2="${coord(x(b.meanConfidence))}" y1="${coord(y(b.meanConfidence))}" y2="${coord(y(b.accuracy))}"/>`,
        );
      }
    }
    const path = s.bins.map((b) => `${coord(x(b.meanConfidence))},${coord(y(b.accuracy))}`).join(' ');
    if (s.bins.length > 1) parts.push(`<polyline class="line s${si % 6}" points="${path}"/>`);
    for (const b of s.bins) {
      parts.push(
        `<circle class="point s${si % 6}" data-mark="point" data-series="${si}" cx="${coord(x(b.meanConfidence))}" cy="${coord(y(b.accuracy))}" r="5">` +
          tip(
            `${s.name}: bin ${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}, n ${formatCount(b.n)}, mean confidence ${formatNumber(b.meanConfidence)}, accuracy ${formatNumber(b.accuracy)}`,
          ) +
          `</circle>`,
      );
    }
  });
  // Decisions per bin beneath, bins side by side per series.
  const maxN = Math.max(1, ...series.flatMap((s) => s.bins.map((b) => b.n)));
  const cy = linear(0, maxN, countBottom, countTop);
  parts.push(`<line class="axis" x1="${MARGIN.left}" x2="${right}" y1="${countBottom}" y2="${countBottom}"/>`);
  parts.push(
    `<text class="tick" x="${MARGIN.left - 6}" y="${countTop}" text-anchor="end" dy="0.32em">${escapeHtml(formatCount(maxN))}</text>`,
  );
  parts.push(`<text class="tick" x="${MARGIN.left - 6}" y="${countBottom}" text-anchor="end" dy="0.32em">0</text>`);
  for (const t of unit)
    parts.push(`<text class="tick" x="${coord(x(t))}" y="${countBottom + 16}" text-anchor="middle">${pct(t)}</text>`);
  parts.push(
    `<text class="label" x="${(MARGIN.left + right) / 2}" y="${countBottom + 36}" text-anchor="middle">confidence bin (decisions per bin)</text>`,
  );
  parts.push(
    `<text class="label" transform="translate(14 ${(countTop + countBottom) / 2}) rotate(-90)" text-anchor="middle">count</text>`,
  );
  series.forEach((s, si) => {
    for (const b of s.bins) {
      const x0 = x(b.lower) + 1;
      const w = (x(b.upper) - x(b.lower) - 2) / series.length;
      parts.push(
        `<rect class="bar s${si % 6}" data-mark="count" data-series="${si}" x="${coord(x0 + si * w)}" y="${coord(cy(b.n))}" width="${coord(w)}" height="${coord(countBottom - cy(b.n))}">` +
          tip(
            `${s.name}: ${formatCount(b.n)} decisions with confidence ${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
          ) +
          `</rect>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface BarItem {
  readonly label: string;
  /** One value per series (fractions 0..1); null draws no bar. */
  readonly values: readonly (number | null)[];
  /** A reference tick on the row (e.g. the majority rate); null for none. */
  readonly reference?: number | null;
}

/** Horizontal bars of fractions (0..1), one group per item, one bar per series. */
export function renderBarChart(
  text: ChartText,
  items: readonly BarItem[],
  options: { readonly seriesNames: readonly string[]; readonly valueLabel: string; readonly referenceLabel?: string },
): string {
  const seriesCount = options.seriesNames.length;
  const barH = seriesCount === 1 ? 16 : 11;
  const rowH = barH * seriesCount + 8;
  const left = 250;
  const top = 8;
  const bottom = top + Math.max(1, items.length) * rowH;
  const right = WIDTH - 56;
  const height = bottom + 44;
  const x = linear(0, 1, left, right);
  const parts = [svgOpen(text, height)];
  const unit = ticks(0, 1, 5);
  for (const t of unit) {
    parts.push(`<line class="grid" x1="${coord(x(t))}" x2="${coord(x(t))}" y1="${top}" y2="${bottom}"/>`);
    parts.push(`<text class="tick" x="${coord(x(t))}" y="${bottom + 16}" text-anchor="middle">${pct(t)}</text>`);
  }
  parts.push(`<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${bottom}"/>`);
  parts.push(
    `<text class="label" x="${(left + right) / 2}" y="${bottom + 36}" text-anchor="middle">${escapeHtml(options.valueLabel)}</text>`,
  );
  items.forEach((item, i) => {
    const y0 = top + i * rowH + 4;
    const refX = item.reference === undefined || item.reference === null ? null : x(item.reference);
    const label = item.label.length > 34 ? `${item.label.slice(0, 33)}…` : item.label;
    parts.push(
      `<text class="tick" x="${left - 6}" y="${coord(y0 + (barH * seriesCount) / 2)}" text-anchor="end" dy="0.32em">${escapeHtml(label)}${tip(item.label)}</text>`,
    );
    item.values.forEach((v, si) => {
      const y = y0 + si * barH;
      if (v === null) {
        parts.push(`<text class="tick" x="${left + 4}" y="${coord(y + barH / 2)}" dy="0.32em">n/a</text>`);
        return;
      }
      parts.push(
        `<rect class="bar s${si % 6}" data-mark="bar" data-series="${si}" x="${left}" y="${coord(y)}" width="${coord(Math.max(0.5, x(v) - left))}" height="${barH - 2}">` +
          tip(`${item.label}${seriesCount > 1 ? ` (${options.seriesNames[si]})` : ''}: ${formatPercent(v)}`) +
          `</rect>`,
      );
      parts.push(
        `<text class="value" x="${coord(valueLabelX(x(v), formatPercent(v), refX))}" y="${coord(y + barH / 2 - 1)}" dy="0.32em">${formatPercent(v)}</text>`,
      );
    });
    if (item.reference !== undefined && item.reference !== null) {
      const rx = coord(x(item.reference));
      parts.push(
        `<line class="reference" data-mark="reference" x1="${rx}" x2="${rx}" y1="${coord(y0 - 2)}" y2="${coord(y0 + barH * seriesCount)}">` +
          tip(`${options.referenceLabel ?? 'reference'}: ${formatPercent(item.reference)}`) +
          `</line>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Width of a value label (11px text), a little generous: enough to keep marks off it. */
function labelWidth(text: string): number {
  return text.length * 6.6 + 2;
}

/**
 * Where a bar's value label starts: just past the bar's end, or past the reference tick
 * when the tick would run through the label.
 */
function valueLabelX(barEnd: number, text: string, refX: number | null): number {
  const start = barEnd + 4;
  if (refX === null || refX < start - 3 || refX > start + labelWidth(text) + 2) return start;
  return refX + 5;
}

interface PlacedLabel {
  readonly text: string;
  /** The label's centre and its row above the plot (0 the top row). */
  readonly cx: number;
  readonly row: number;
}

/**
 * Marker labels laid out above the plot area: each centred on its marker where it fits,
 * put in the first row where it clears the labels already there, so no two labels overlap
 * and no marker line (drawn below the rows) runs through one.
 */
function placeMarkerLabels(
  labels: readonly { readonly text: string; readonly px: number }[],
  left: number,
  right: number,
): PlacedLabel[] {
  const rowEnds: number[] = [];
  const order = labels.map((_, i) => i).sort((a, b) => labels[a]!.px - labels[b]!.px);
  const placed: PlacedLabel[] = new Array<PlacedLabel>(labels.length);
  for (const i of order) {
    const { text, px } = labels[i]!;
    const half = labelWidth(text) / 2;
    const cx = Math.min(Math.max(px, left + half), right - half);
    let row = rowEnds.findIndex((end) => end + 6 <= cx - half);
    if (row === -1) row = rowEnds.length;
    rowEnds[row] = cx + half;
    placed[i] = { text, cx, row };
  }
  return placed;
}

const LABEL_ROW = 13;

/** The rows the labels take above the plot. */
function labelRows(placed: readonly PlacedLabel[]): number {
  return placed.reduce((n, p) => Math.max(n, p.row + 1), 0);
}

/** Marker lines from the top of the plot down, their labels in rows above it. */
function renderMarkers(
  markers: readonly ValueMarker[],
  placed: readonly PlacedLabel[],
  x: Scale,
  top: number,
  bottom: number,
  format: (v: number) => string,
): string {
  const labelsTop = top - labelRows(placed) * LABEL_ROW - 4;
  return markers
    .map((m, i) => {
      const px = coord(x(m.value));
      const series = m.series === undefined ? '' : ` s${m.series % 6}`;
      const p = placed[i]!;
      return (
        `<line class="marker${series}" data-mark="marker" x1="${px}" x2="${px}" y1="${top}" y2="${bottom}">${tip(`${m.label}: ${format(m.value)}`)}</line>` +
        `<text class="value${series}" x="${coord(p.cx)}" y="${coord(labelsTop + (p.row + 1) * LABEL_ROW - 3)}" text-anchor="middle">${escapeHtml(p.text)}</text>`
      );
    })
    .join('');
}

export interface HistogramSeries {
  readonly name: string;
  /** Counts aligned with the shared bins. */
  readonly counts: readonly number[];
}

export interface ValueMarker {
  readonly label: string;
  readonly value: number;
  readonly series?: number;
}

/** Vertical bars of counts over shared bins, one bar per series per bin, with labelled value markers. */
export function renderHistogramChart(
  text: ChartText,
  bins: readonly { readonly lower: number; readonly upper: number }[],
  series: readonly HistogramSeries[],
  options: {
    readonly xLabel: string;
    readonly format: (v: number) => string;
    readonly markers: readonly ValueMarker[];
    /** How a marker's label prints its value (with its unit); default `format`. */
    readonly formatMarker?: (v: number) => string;
  },
): string {
  const right = WIDTH - MARGIN.right;
  const lo = bins[0]?.lower ?? 0;
  const hi = bins[bins.length - 1]?.upper ?? 1;
  const x = linear(lo, hi, MARGIN.left, right);
  const formatMarker = options.formatMarker ?? options.format;
  const placed = placeMarkerLabels(
    options.markers.map((m) => ({ text: `${m.label} ${formatMarker(m.value)}`, px: x(m.value) })),
    0,
    WIDTH,
  );
  const top = MARGIN.top + Math.max(0, labelRows(placed) * LABEL_ROW - 6);
  const bottom = top + 252;
  const height = bottom + 50;
  const maxN = Math.max(1, ...series.flatMap((s) => s.counts));
  const y = linear(0, maxN, bottom, top);
  const yTicks = ticks(0, maxN, 4).filter((t) => Number.isInteger(t));
  const parts = [svgOpen(text, height)];
  parts.push(
    axes(
      { scale: x, ticks: ticks(lo, hi, 6), format: options.format, label: options.xLabel },
      { scale: y, ticks: yTicks, format: (v) => formatCount(v), label: 'count' },
      top,
      bottom,
      MARGIN.left,
      right,
    ),
  );
  series.forEach((s, si) => {
    bins.forEach((b, i) => {
      const n = s.counts[i] ?? 0;
      if (n === 0) return;
      const w = (x(b.upper) - x(b.lower) - 1) / series.length;
      parts.push(
        `<rect class="bar s${si % 6}" data-mark="bar" data-series="${si}" x="${coord(x(b.lower) + 0.5 + si * w)}" y="${coord(y(n))}" width="${coord(Math.max(0.5, w))}" height="${coord(bottom - y(n))}">` +
          tip(
            `${series.length > 1 ? `${s.name}: ` : ''}${formatCount(n)} in ${options.format(b.lower)}–${options.format(b.upper)}`,
          ) +
          `</rect>`,
      );
    });
  });
  parts.push(renderMarkers(options.markers, placed, x, top, bottom, formatMarker));
  parts.push('</svg>');
  return parts.join('');
}

export interface ScatterPoint {
  readonly label: string;
  readonly x: number;
  readonly y: number;
}

/** Points of x (lower is better) against y (higher is better), with the Pareto front drawn through `front`. */
export function renderScatterChart(
  text: ChartText,
  points: readonly ScatterPoint[],
  front: readonly number[],
  options: {
    readonly xLabel: string;
    readonly yLabel: string;
    readonly formatX: (v: number) => string;
    readonly formatY: (v: number) => string;
  },
): string {
  const bottom = 300;
  const top = MARGIN.top + 6;
  const right = WIDTH - MARGIN.right - 40;
  const height = bottom + 50;
  const pad = (lo: number, hi: number): [number, number] => {
    const span = hi - lo || Math.abs(hi) || 1;
    return [lo - span * 0.1, hi + span * 0.1];
  };
  const [x0, x1] = pad(Math.min(...points.map((p) => p.x)), Math.max(...points.map((p) => p.x)));
  const [y0, y1] = pad(Math.min(...points.map((p) => p.y)), Math.max(...points.map((p) => p.y)));
  const x = linear(x0, x1, MARGIN.left, right);
  const y = linear(y0, y1, bottom, top);
  const parts = [svgOpen(text, height)];
  parts.push(
    axes(
      { scale: x, ticks: ticks(x0, x1, 5), format: options.formatX, label: options.xLabel },
      { scale: y, ticks: ticks(y0, y1, 5), format: options.formatY, label: options.yLabel },
      top,
      bottom,
      MARGIN.left,
      right,
    ),
  );
  if (front.length > 0) {
    const path = front.map((i) => `${coord(x(points[i]!.x))},${coord(y(points[i]!.y))}`).join(' ');
    parts.push(
      `<polyline class="front" data-mark="front" points="${path}">${tip(`Pareto front: ${front.map((i) => points[i]!.label).join(', ')}`)}</polyline>`,
    );
  }
  points.forEach((p, i) => {
    const onFront = front.includes(i);
    parts.push(
      `<circle class="point s${i % 6}${onFront ? ' on-front' : ''}" data-mark="point" cx="${coord(x(p.x))}" cy="${coord(y(p.y))}" r="6">` +
        tip(
          `${p.label}: ${options.xLabel} ${options.formatX(p.x)}, ${options.yLabel} ${options.formatY(p.y)}${onFront ? ' (on the Pareto front)' : ''}`,
        ) +
        `</circle>`,
    );
    const label = p.label.length > 30 ? `${p.label.slice(0, 29)}…` : p.label;
    const leftSide = x(p.x) > (MARGIN.left + right) / 2;
    parts.push(
      `<text class="value" x="${coord(x(p.x) + (leftSide ? -9 : 9))}" y="${coord(y(p.y))}" dy="0.32em"${leftSide ? ' text-anchor="end"' : ''}>${escapeHtml(label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
}

/** Lines of y against x over [xMin, xMax] × [0, yMax], with labelled vertical markers. */
export function renderLineChart(
  text: ChartText,
  series: readonly LineSeries[],
  options: {
    readonly xLabel: string;
    readonly yLabel: string;
    readonly x: readonly [number, number];
    readonly yMax: number;
    readonly formatX: (v: number) => string;
    readonly formatY: (v: number) => string;
    readonly markers: readonly ValueMarker[];
  },
): string {
  const right = WIDTH - MARGIN.right;
  const x = linear(options.x[0], options.x[1], MARGIN.left, right);
  const placed = placeMarkerLabels(
    options.markers.map((m) => ({ text: `${m.label} ${options.formatX(m.value)}`, px: x(m.value) })),
    0,
    WIDTH,
  );
  const top = MARGIN.top + Math.max(0, labelRows(placed) * LABEL_ROW - 4);
  const bottom = top + 270;
  const height = bottom + 50;
  const y = linear(0, options.yMax, bottom, top);
  const parts = [svgOpen(text, height)];
  parts.push(
    axes(
      { scale: x, ticks: ticks(options.x[0], options.x[1], 5), format: options.formatX, label: options.xLabel },
      { scale: y, ticks: ticks(0, options.yMax, 5), format: options.formatY, label: options.yLabel },
      top,
      bottom,
      MARGIN.left,
      right,
    ),
  );
  series.forEach((s, si) => {
    const path = s.points.map(([px, py]) => `${coord(x(px))},${coord(y(py))}`).join(' ');
    parts.push(
      `<polyline class="line s${si % 6}" data-mark="line" data-series="${si}" points="${path}">${tip(s.name)}</polyline>`,
    );
  });
  parts.push(renderMarkers(options.markers, placed, x, top, bottom, options.formatX));
  parts.push('</svg>');
  return parts.join('');
}
