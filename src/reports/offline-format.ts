/** Number formatting and colour of the offline reports. Absent numbers read `n/a`. */

export const NA = 'n/a';

/** A metric with three decimals (accuracy, Brier, log loss, ECE, MAE). */
export function formatMetric(x: number | null, digits = 3): string {
  return x === null ? NA : x.toFixed(digits);
}

/** Dollars with enough decimals to show three significant digits of small amounts. */
export function formatUsd(x: number | null): string {
  if (x === null) return NA;
  if (x === 0) return '$0';
  if (Math.abs(x) >= 1) return `$${x.toFixed(2)}`;
  const decimals = Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(Math.abs(x)))));
  return `$${x.toFixed(decimals)}`;
}

/** Milliseconds: whole above 100, one decimal below. */
export function formatMs(x: number | null): string {
  if (x === null) return NA;
  return Math.abs(x) >= 100 ? String(Math.round(x)) : x.toFixed(1);
}

/** A signed gap, e.g. `+0.113` / `-0.250`. */
export function formatSigned(x: number, digits = 3): string {
  const s = x.toFixed(digits);
  return x >= 0 && !s.startsWith('-') ? `+${s}` : s;
}

export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
}

/** ANSI styles when `colour` is on, identity otherwise. */
export function createPaint(colour: boolean): Paint {
  const wrap = (open: number, close: number) => (s: string) => (colour ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { bold: wrap(1, 22), dim: wrap(2, 22), green: wrap(32, 39), red: wrap(31, 39) };
}

/** Pads the cells of a table so columns line up; `right` marks right-aligned columns. */
export function alignRows(rows: readonly (readonly string[])[], right: readonly boolean[]): string[][] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (right[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))));
}
