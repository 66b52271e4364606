/**
 * Terminal text that fits the width it is printed at: prose wrapped between words (colour
 * codes kept, never counted), label/value lists whose values wrap under themselves, and
 * tables that, when their columns cannot fit side by side, show each row as a short record
 * (its first cell, then one `column  value` line per other cell) instead of overflowing.
 */
import {
  alignColumns,
  renderTextRows,
  renderTextTable,
  stripAnsi,
  visibleWidth,
  type TextRowsOptions,
  type TextTableOptions,
} from './format.js';

/** Narrowest line these helpers wrap to, whatever the width asked. */
const MIN_WIDTH = 20;

/**
 * Splits text into lines of at most `width` visible columns between words. Colour codes stay
 * where they were (a style opened on one line carries on to the next, as a terminal shows
 * it); a word wider than the line is cut.
 */
export function wrapStyled(text: string, width: number): string[] {
  const w = Math.max(MIN_WIDTH, width);
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  // Words and the runs of spaces between them: a gap is kept as written unless the line breaks there.
  const parts = text.trim().split(/( +)/);
  for (let i = 0; i < parts.length; i += 2) {
    const gap = i === 0 ? '' : parts[i - 1]!;
    for (const [k, piece] of cutWord(parts[i]!, w).entries()) {
      const before = k === 0 ? gap : '';
      const size = visibleWidth(piece);
      if (lineWidth > 0 && lineWidth + before.length + size > w) {
        lines.push(line);
        line = piece;
        lineWidth = size;
      } else {
        line += (lineWidth > 0 ? before : '') + piece;
        lineWidth += (lineWidth > 0 ? before.length : 0) + size;
      }
    }
  }
  lines.push(line);
  return lines;
}

/** A word no wider than `width`, else its plain text in pieces of `width`. */
function cutWord(word: string, width: number): string[] {
  if (visibleWidth(word) <= width) return [word];
  const chars = [...stripAnsi(word)];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(''));
  return pieces;
}

/** `wrapStyled` with every line behind `indent` (the width includes it). */
export function wrapIndented(text: string, width: number, indent: string): string[] {
  return wrapStyled(text, width - indent.length).map((l) => `${indent}${l}`);
}

/**
 * A label/value list (`Accuracy   48.0%  [38.0%, 59.0%]`): values start in one column and
 * wrap under it. When the labels leave less than 24 columns, each value goes under its
 * label, indented by two.
 */
export function renderLabelledRows(
  rows: ReadonlyArray<readonly [string, string]>,
  width: number,
  indent = '',
): string[] {
  const labelWidth = Math.max(0, ...rows.map(([label]) => visibleWidth(label)));
  const valueAt = indent.length + labelWidth + 2;
  const stacked = width - valueAt < 24;
  return rows.flatMap(([label, value]) => {
    if (stacked) {
      const under = `${indent}  `;
      return [...(label === '' ? [] : [`${indent}${label}`]), ...wrapIndented(value, width, under)];
    }
    const [first, ...rest] = wrapStyled(value, width - valueAt);
    const head = `${indent}${label}${' '.repeat(labelWidth - visibleWidth(label))}  `;
    return [`${head}${first}`.trimEnd(), ...rest.map((l) => `${' '.repeat(valueAt)}${l}`)];
  });
}

/** `lines` when every one fits `width`; else what `otherwise` lays out instead. */
export function fitsOr(lines: string[], width: number, otherwise: () => string[]): string[] {
  return lines.every((line) => visibleWidth(line) <= width) ? lines : otherwise();
}

/**
 * `renderTextTable` when it fits `width`; else each row as a record: its first cell, then
 * `header  value` for every other non-empty cell, values wrapped under themselves.
 */
export function renderFittedTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  options: TextTableOptions = {},
): string[] {
  return fitsOr(renderTextTable(header, rows, options), width, () => renderRecords(header, rows, width, options));
}

/**
 * Each row as a record: its first cell, then `header  value` for every other non-empty cell,
 * values wrapped under themselves (what `renderFittedTable` shows when the table is too wide).
 */
export function renderRecords(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  options: TextTableOptions = {},
): string[] {
  const indent = options.indent ?? '';
  const style = options.styleHeader ?? ((s: string) => s);
  return rows.flatMap((row) => {
    const fields = header
      .map((name, c) => [name, row[c] ?? ''] as const)
      .slice(1)
      .filter(([, cell]) => stripAnsi(cell).trim() !== '');
    const labelled = renderLabelledRows(
      fields.map(([name, cell]) => [name === '' ? '' : style(name), cell.trim()] as const),
      width,
      `${indent}  `,
    );
    return [...wrapIndented(row[0] ?? '', width, indent), ...labelled];
  });
}

/**
 * `renderTextRows` when it fits `width`; else the last column (a note) wraps under itself,
 * or, when the other columns leave it less than 24 columns, under the row indented by four.
 */
export function renderRowsWrappingLast(
  rows: readonly (readonly string[])[],
  width: number,
  options: TextRowsOptions = {},
): string[] {
  return fitsOr(renderTextRows(rows, options), width, () => rowsWrappingLast(rows, width, options));
}

function rowsWrappingLast(rows: readonly (readonly string[])[], width: number, options: TextRowsOptions): string[] {
  const indent = options.indent ?? '';
  const gap = options.gap ?? '  ';
  const styles = options.styleColumns ?? [];
  const last = Math.max(0, ...rows.map((r) => r.length)) - 1;
  const heads = alignColumns(
    rows.map((r) => Array.from({ length: last }, (_, c) => r[c] ?? '')),
    options.align,
  ).map((cells) => indent + cells.map((cell, c) => styles[c]?.(cell) ?? cell).join(gap));
  const headWidth = Math.max(0, ...heads.map(visibleWidth));
  const paint = styles[last] ?? ((s: string) => s);
  return rows.flatMap((row, i) => {
    const note = row[last] ?? '';
    const head = heads[i]!;
    if (note === '') return [head.trimEnd()];
    if (width - headWidth - gap.length < 24)
      return [head.trimEnd(), ...wrapIndented(note, width, `${indent}    `).map(paint)];
    const [first, ...rest] = wrapStyled(note, width - headWidth - gap.length);
    const under = ' '.repeat(headWidth + gap.length);
    return [`${head}${gap}${paint(first!)}`, ...rest.map((l) => `${under}${paint(l)}`)];
  });
}

/** A line wrapped between words, its continuations under its own leading spaces; whole at Infinity. */
export function wrapKeepingIndent(line: string, width: number): string[] {
  if (visibleWidth(line) <= width) return [line];
  const body = line.trimStart();
  return wrapIndented(body, width, ' '.repeat(line.length - body.length));
}

/**
 * Lines for a stream `columns` wide (a terminal's width), each wrapped by `wrapKeepingIndent`;
 * whole when the stream has no width (undefined or 0: a file or a pipe). Joined by newlines.
 */
export function fitLines(lines: readonly string[], columns: number | undefined): string {
  if (columns === undefined || columns <= 0) return lines.join('\n');
  return lines.flatMap((l) => wrapKeepingIndent(l, columns)).join('\n');
}

/**
 * Lines for a stream `columns` wide, each too wide one wrapped between words with its
 * continuations indented by two more spaces than it (a message, a problem, a result line:
 * the continuation reads as part of the line above); whole when the stream has no width (a
 * file or a pipe, where a script may read one line per message). Joined by newlines.
 */
export function fitHanging(lines: readonly string[], columns: number | undefined): string {
  if (columns === undefined || columns <= 0) return lines.join('\n');
  return lines
    .flatMap((line) => {
      if (visibleWidth(line) <= columns) return [line];
      const body = line.trimStart();
      const lead = ' '.repeat(line.length - body.length);
      const [first, ...rest] = wrapStyled(body, Math.max(8, columns - lead.length - 2));
      return [`${lead}${first ?? ''}`, ...rest.map((l) => `${lead}  ${l}`)];
    })
    .join('\n');
}
