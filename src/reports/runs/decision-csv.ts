/**
 * The decision table as CSV (RFC 4180): a header row, CRLF line ends, fields quoted when
 * they hold a comma, a quote or a line break (quotes doubled). docs/file-formats.md, "CSV".
 */
import { DECISION_COLUMNS, type DecisionRow } from '../../core/export/decision-row.js';
import { createDecisionLineRenderer, type DecisionLineFormat } from './decision-lines.js';

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"), plus
 * the quote itself so that the guard can be undone exactly: a text cell starting with one
 * of them gets a leading `'`, which a reader of this format removes.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

/** The header line: the column names in schema order. */
export function renderDecisionCsvHeader(): string {
  return `${DECISION_COLUMNS.map((c) => c.name).join(',')}\r\n`;
}

/**
 * One row. Null is an empty field; an empty text is `""`; numbers are unrounded (the
 * shortest text that reads back as the same double); booleans are `true` / `false`.
 */
export function renderDecisionCsvRow(row: DecisionRow): string {
  let line = '';
  for (let i = 0; i < DECISION_COLUMNS.length; i++) {
    if (i > 0) line += ',';
    line += csvField(row[DECISION_COLUMNS[i]!.name]);
  }
  return `${line}\r\n`;
}

const CSV: DecisionLineFormat = {
  text: csvText,
  nullableText: (text) => (text === null ? '' : csvText(text)),
  number: (x) => (x === null ? '' : String(x)),
  boolean: String,
  before: (_name, first) => (first ? '' : ','),
  end: '\r\n',
};

/**
 * `renderDecisionCsvRow` for the rows of one export, the same text made by one template of
 * the columns, the text that repeats (the run's columns, a case's, a question's) quoted and
 * guarded once (`decision-lines.ts`).
 */
export function createDecisionCsvRenderer(): (row: DecisionRow) => string {
  return createDecisionLineRenderer(CSV);
}

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  return typeof value === 'string' ? csvText(value) : String(value);
}

function csvText(value: string): string {
  if (value === '') return '""';
  const text = FORMULA_START.has(value[0]!) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Undoes the formula guard of a text cell read back from this format. */
export function unguardCsvText(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}
