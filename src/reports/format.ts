/**
 * Shared text formatting for every report: numbers, percentages, bars, durations, aligned
 * text tables and Markdown escaping. Formatting only: every value shown comes from a core
 * summary; absent values (null) are shown as `n/a`, never 0.
 */

import { escapeUnsafeText, stripInvisibleChars } from '../core/safe-text.js';

/** What every report shows for an absent value. */
export const NOT_AVAILABLE = 'n/a';

/** `x` with `digits` decimals; `n/a` for null or a non-finite number; never `-0.000`. */
export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  if (digits === 3 && value >= 0 && value < THOUSANDTHS_BELOW) {
    const text = thousandths(value);
    if (text !== null) return text;
  }
  const text = value.toFixed(digits);
  return text.charCodeAt(0) === 45 && NEGATIVE_ZERO.test(text) ? text.slice(1) : text;
}

const NEGATIVE_ZERO = /^-0\.?0*$/;

/**
 * Three decimals of the numbers a trace is made of (probabilities, KL, Brier), from a table
 * instead of `toFixed`, which reports call millions of times. `toFixed(3)` gives the
 * thousandths nearest the number's exact value (ties up); `value * 1000` is within a
 * millionth of a thousandth of that exact value, so rounding it gives the same digits except
 * near a tie, which falls back to `toFixed` (null).
 */
const THOUSANDTHS_BELOW = 10;
const thousandthsText: (string | undefined)[] = [];

function thousandths(value: number): string | null {
  const scaled = value * 1000;
  const whole = Math.floor(scaled);
  if (Math.abs(scaled - whole - 0.5) < 1e-6) return null;
  const k = scaled - whole > 0.5 ? whole + 1 : whole;
  return (thousandthsText[k] ??= `${Math.floor(k / 1000)}.${String(k % 1000).padStart(3, '0')}`);
}

/** A fraction as a percentage: 0.735 -> `73.5%`; `n/a` for null. */
export function formatPercent(fraction: number | null | undefined, digits = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return NOT_AVAILABLE;
  return `${formatNumber(fraction * 100, digits)}%`;
}

/** A signed number with an explicit `+` (zero shows as `+0.000`); `n/a` for null. */
export function formatSigned(value: number | null | undefined, digits = 3): string {
  const text = formatNumber(value, digits);
  if (text === NOT_AVAILABLE || text.startsWith('-')) return text;
  return `+${text}`;
}

/** An integer with thousands separators: 12345 -> `12,345`; `n/a` for null. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.round(Math.abs(value)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A count with its noun: `1 case`, `3 cases`. `many` defaults to `one` + `s`; `count` writes
 * the number (default plain digits; pass `formatCount` for thousands separators).
 */
export function plural(n: number, one: string, many = `${one}s`, count: (n: number) => string = String): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** `part/whole` with thousands separators: `1,234/2,000`. */
export function formatRatio(part: number, whole: number): string {
  return `${formatCount(part)}/${formatCount(whole)}`;
}

/**
 * Dollars: two decimals from $1, otherwise three significant digits with at least two
 * decimals ($0.200, $0.00660, $0.000465); `n/a` for null.
 */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  if (value === 0) return '$0.00';
  if (Math.abs(value) >= 1) return `$${formatNumber(value, 2)}`;
  const decimals = Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(Math.abs(value)))));
  return `$${value.toFixed(decimals)}`;
}

/** Milliseconds as a bare number for table columns headed "(ms)": whole from 100, else one decimal. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NOT_AVAILABLE;
  return Math.abs(ms) >= 100 ? formatNumber(ms, 0) : formatNumber(ms, 1);
}

/** A request latency: `8.4 ms`, `312 ms`, `1.25 s`; `n/a` for null. */
export function formatLatencyMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NOT_AVAILABLE;
  if (ms < 100) return `${formatNumber(ms, 1)} ms`;
  if (ms < 1000) return `${formatNumber(ms, 0)} ms`;
  return `${formatNumber(ms / 1000, 2)} s`;
}

/** A wall-clock duration: `850 ms`, `12.3 s`, `4 min 05 s`, `1 h 02 min`; `n/a` for null. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return NOT_AVAILABLE;
  if (ms < 1000) return `${formatNumber(ms, 0)} ms`;
  if (ms < 60_000) return `${formatNumber(ms / 1000, 1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const minutes = Math.floor(totalSeconds / 60);
    return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  }
  const totalMinutes = Math.round(ms / 60_000);
  return `${Math.floor(totalMinutes / 60)} h ${String(totalMinutes % 60).padStart(2, '0')} min`;
}

/** Cells of a bar: filled, empty, and the pattern shown for an absent value. */
const BAR_FULL = '█';
const BAR_EMPTY = '░';
const BAR_ABSENT = '·';

/**
 * A bar of `cells` cells (default ten) filled in proportion to `fraction` in [0, 1],
 * rounded to the nearest cell; dots for null.
 */
export function renderBar(fraction: number | null | undefined, cells = 10): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return BAR_ABSENT.repeat(cells);
  const filled = Math.min(cells, Math.max(0, Math.round(fraction * cells)));
  return BAR_FULL.repeat(filled) + BAR_EMPTY.repeat(cells - filled);
}

/** Stars out of three: 2 -> `★★☆`; 0 -> `☆☆☆`. */
export function renderStars(stars: number): string {
  const n = Math.min(3, Math.max(0, Math.round(stars)));
  return '★'.repeat(n) + '☆'.repeat(3 - n);
}

const ANSI_PATTERN = /\u001b\[[0-9;]*m/g;

/** Removes SGR colour codes. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}

/** Columns a string takes in a terminal: code points without colour codes. */
export function visibleWidth(text: string): number {
  return [...stripAnsi(text)].length;
}

/** Cuts `text` to `width` columns with a trailing `…` (plain text only). */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 1) return chars.slice(0, Math.max(0, width)).join('');
  return `${chars.slice(0, width - 1).join('')}…`;
}

export type Align = 'left' | 'right';

function pad(text: string, width: number, align: Align): string {
  const space = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? space + text : text + space;
}

/**
 * The table engine every aligned report uses: pads each cell to its column's width so
 * columns line up. Widths ignore colour codes. `align` per column; default left for the
 * first column, right for the others. Rows may differ in length.
 */
export function alignColumns(rows: readonly (readonly string[])[], align: readonly Align[] = []): string[][] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, c) => (widths[c] = Math.max(widths[c] ?? 0, visibleWidth(cell))));
  const alignOf = (c: number): Align => align[c] ?? (c === 0 ? 'left' : 'right');
  return rows.map((row) => row.map((cell, c) => pad(cell, widths[c]!, alignOf(c))));
}

/**
 * Cuts the cells of the flexible columns (with an ellipsis) until a table of `header` and
 * `rows` fits `width` characters with `gapWidth` between columns: each flexible column in
 * turn (in the map's order) gives characters down to its minimum before the next gives.
 * Columns named in `droppable` go, last first, when the minimums still do not fit; a
 * column empty in every row is left out. Returns the kept columns (indexes into `header`)
 * and their cut cells; a line may still be wider only when the fixed columns alone are.
 */
export function fitColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: {
    readonly width: number;
    readonly gapWidth: number;
    readonly flexible: ReadonlyMap<number, number>;
    readonly droppable?: readonly number[];
  },
): { columns: number[]; header: string[]; rows: string[][] } {
  const all = [header, ...rows];
  const widthOf = (c: number): number => Math.max(...all.map((r) => visibleWidth(r[c] ?? '')));
  let kept = header.map((_, c) => c).filter((c) => c === 0 || rows.some((r) => (r[c] ?? '') !== ''));
  const natural = new Map(kept.map((c) => [c, widthOf(c)]));
  const total = (cols: readonly number[], w: (c: number) => number) =>
    cols.reduce((sum, c) => sum + w(c), 0) + options.gapWidth * Math.max(0, cols.length - 1);
  const minOf = (c: number): number => Math.min(natural.get(c)!, options.flexible.get(c) ?? Infinity);
  const drops = [...(options.droppable ?? [])];
  while (total(kept, minOf) > options.width && drops.length > 0) {
    const d = drops.pop()!;
    kept = kept.filter((c) => c !== d);
  }
  const widths = new Map(natural);
  let over = total(kept, (c) => widths.get(c)!) - options.width;
  for (const c of options.flexible.keys()) {
    if (over <= 0 || !kept.includes(c)) continue;
    const give = Math.min(over, widths.get(c)! - minOf(c));
    widths.set(c, widths.get(c)! - give);
    over -= give;
  }
  const cut = (row: readonly string[]): string[] =>
    kept.map((c) => (options.flexible.has(c) ? truncate(row[c] ?? '', widths.get(c)!) : (row[c] ?? '')));
  return { columns: kept, header: cut(header), rows: rows.map(cut) };
}

export interface TextRowsOptions {
  /** Alignment per column; default left for the first column, right for the others. */
  readonly align?: readonly Align[];
  /** Text between columns; default two spaces. */
  readonly gap?: string;
  /** Prefix of every line; default none. */
  readonly indent?: string;
  /** Styles a cell after padding, per column (e.g. dim notes); default none. */
  readonly styleColumns?: readonly (Paint | undefined)[];
}

export interface TextTableOptions extends TextRowsOptions {
  /** Styles a header cell after padding (e.g. bold); default none. */
  readonly styleHeader?: Paint;
}

function joinLine(cells: readonly string[], gap: string, indent: string, style: (cell: string, c: number) => string) {
  return (indent + cells.map(style).join(gap)).replace(/\s+$/, '');
}

/**
 * Aligned plain-text lines without a header (a label/value list, say): one string per row,
 * trailing spaces trimmed. Cells may carry colour codes: widths ignore them.
 */
export function renderTextRows(rows: readonly (readonly string[])[], options: TextRowsOptions = {}): string[] {
  const styles = options.styleColumns ?? [];
  const style = (cell: string, c: number): string => styles[c]?.(cell) ?? cell;
  return alignColumns(rows, options.align).map((cells) =>
    joinLine(cells, options.gap ?? '  ', options.indent ?? '', style),
  );
}

/**
 * An aligned plain-text table (header, then rows), one string per line, trailing spaces
 * trimmed. Cells may carry colour codes: widths ignore them. Cells beyond the header's
 * columns are left out.
 */
export function renderTextTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: TextTableOptions = {},
): string[] {
  const columns = header.length;
  const body = rows.map((r) => Array.from({ length: columns }, (_, c) => r[c] ?? ''));
  const [head, ...lines] = alignColumns([header, ...body], options.align);
  const styleHeader = options.styleHeader ?? ((s: string) => s);
  const gap = options.gap ?? '  ';
  const indent = options.indent ?? '';
  const styles = options.styleColumns ?? [];
  return [
    joinLine(head!, gap, indent, styleHeader),
    ...lines.map((cells) => joinLine(cells, gap, indent, (cell, c) => styles[c]?.(cell) ?? cell)),
  ];
}

/**
 * Text for a Markdown table cell: escapes backslash, `|` and HTML-significant characters,
 * and turns line breaks into `<br>` so one value never breaks the row.
 */
export function escapeMarkdownCell(text: string): string {
  return escapeMarkdownText(text).replace(/\|/g, '\\|');
}

/**
 * Text for inline Markdown (outside tables): escapes characters that would start markup
 * or HTML, turns line breaks into `<br>` and drops other control characters (a terminal
 * showing the file must not run a server's escape sequences), zero-width and bidirectional
 * characters (they hide or reorder what the reader sees).
 */
export function escapeMarkdownText(text: string): string {
  return stripInvisibleChars(text)
    .replace(/[\\`*[\]~]/g, (c) => `\\${c}`)
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r\n|\r|\n/g, '<br>')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === '\t' ? ' ' : ''));
}

/**
 * An inline code span holding `text` verbatim: the backtick fence is longer than any run of
 * backticks inside, line breaks become spaces. Not for table cells holding `|`.
 */
export function markdownCode(text: string): string {
  const flat = stripInvisibleChars(text.replace(/\r\n|\r|\n/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ''));
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const padded = flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat;
  return `${fence}${padded}${fence}`;
}

/** A fence for a Markdown code block that `content` cannot close: at least three backticks. */
export function markdownFence(content: string): string {
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A Markdown table. Cells are escaped here (pass raw text); pass `raw: true` per column for
 * cells already in Markdown. Right-aligned columns get `---:`.
 */
export function renderMarkdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: { readonly align?: readonly Align[]; readonly raw?: readonly boolean[] } = {},
): string[] {
  const alignOf = (c: number): Align => options.align?.[c] ?? (c === 0 ? 'left' : 'right');
  // Raw cells still need `|` escaped: GFM splits cells before it parses code spans.
  const cell = (text: string, c: number): string =>
    options.raw?.[c] ? text.replace(/\r\n|\r|\n/g, ' ').replace(/\|/g, '\\|') : escapeMarkdownCell(text);
  const line = (cells: readonly string[]): string => `| ${header.map((_, c) => cell(cells[c] ?? '', c)).join(' | ')} |`;
  const rule = `|${header.map((_, c) => (alignOf(c) === 'right' ? '---:' : '---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
}

/**
 * One line of text: control characters (newlines, tabs, escapes), zero-width and
 * bidirectional characters shown as escapes (see core/safe-text.ts).
 */
export function singleLine(text: string): string {
  return escapeUnsafeText(text);
}

export type Paint = (text: string) => string;

export interface Palette {
  readonly bold: Paint;
  readonly dim: Paint;
  readonly red: Paint;
  readonly green: Paint;
  readonly yellow: Paint;
  readonly cyan: Paint;
}

const identity: Paint = (text) => text;
const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

/** ANSI colours when `colour` is true, otherwise functions that return their input. */
export function createPalette(colour: boolean): Palette {
  if (!colour)
    return { bold: identity, dim: identity, red: identity, green: identity, yellow: identity, cyan: identity };
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}

/** Splits text into lines of at most `width` visible characters, at spaces where it can. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text.trim();
  while (visibleWidth(rest) > width) {
    const cut = rest.lastIndexOf(' ', width);
    const at = cut > width / 3 ? cut : width;
    lines.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest !== '' || lines.length === 0) lines.push(rest);
  return lines;
}
