/** Width-exact text for the live screen: clipping and padding that ignore colour codes. */
import { visibleWidth } from '../reports/format.js';

const ESCAPE = /\u001b\[[0-9;]*m/y;

/** Cuts `text` (which may carry colour codes) to `width` columns, closing any colour it cut into. */
export function clipLine(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  let out = '';
  let shown = 0;
  let coloured = false;
  for (let i = 0; i < text.length;) {
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    if (m) {
      out += m[0];
      coloured = true;
      i += m[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (shown + 1 > Math.max(0, width - 1)) break;
    out += ch;
    shown++;
    i += ch.length;
  }
  if (width > 0) out += '…';
  return coloured ? `${out}\u001b[0m` : out;
}

/** Pads (or clips) `text` to exactly `width` columns. */
export function fitLine(text: string, width: number): string {
  const clipped = clipLine(text, width);
  return clipped + ' '.repeat(Math.max(0, width - visibleWidth(clipped)));
}

/**
 * `left` and `right` on one line of `width`, `right` flush right; when both do not fit,
 * `left` is clipped to make room (and `right` dropped only when even that leaves no room).
 */
export function spread(left: string, right: string, width: number): string {
  const room = width - visibleWidth(right) - 2;
  if (room < 10) return clipLine(left, width);
  const shown = clipLine(left, room);
  return shown + ' '.repeat(width - visibleWidth(shown) - visibleWidth(right)) + right;
}

const SPARKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/**
 * A sparkline of the last `width` values scaled to [low, high]; a null value (nothing to
 * show yet) is a space.
 */
export function sparkline(values: readonly (number | null)[], width: number, low: number, high: number): string {
  if (width <= 0) return '';
  const shown = values.slice(Math.max(0, values.length - width));
  const span = high - low;
  return shown
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return ' ';
      const f = span > 0 ? Math.min(1, Math.max(0, (v - low) / span)) : 0;
      return SPARKS[Math.min(SPARKS.length - 1, Math.floor(f * SPARKS.length))]!;
    })
    .join('');
}

/** One character per eighth of a cell, for vertical bars. */
export const EIGHTHS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
