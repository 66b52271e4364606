/**
 * The decision table as JSON Lines: one row a line, `JSON.stringify(row)` and a line feed, the
 * keys in schema order (docs/file-formats.md, "JSONL").
 */
import type { DecisionRow } from '../../core/export/decision-row.js';
import { createDecisionLineRenderer, type DecisionLineFormat } from './decision-lines.js';

/** One row, as `JSON.stringify` writes it. */
export function renderDecisionJsonlRow(row: DecisionRow): string {
  return `${JSON.stringify(row)}\n`;
}

/** A character `JSON.stringify` escapes in a string: a quote, a backslash, a control character or a surrogate. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: the text between quotes as it is, unless a character must be escaped. */
function jsonText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

const JSONL: DecisionLineFormat = {
  text: jsonText,
  nullableText: (text) => (text === null ? 'null' : jsonText(text)),
  // The same shortest text as `String`, and `null` for a number that is not finite.
  number: (x) => (x === null || !Number.isFinite(x) ? 'null' : `${x}`),
  boolean: (b) => (b ? 'true' : 'false'),
  before: (name, first) => `${first ? '{' : ','}${JSON.stringify(name)}:`,
  end: '}\n',
};

/**
 * `renderDecisionJsonlRow` for the rows of one export, the same text made without
 * `JSON.stringify` walking each row: the keys written once in a template, the text that
 * repeats (the run's columns, a case's, a question's) made once (`decision-lines.ts`).
 */
export function createDecisionJsonlRenderer(): (row: DecisionRow) => string {
  return createDecisionLineRenderer(JSONL);
}
