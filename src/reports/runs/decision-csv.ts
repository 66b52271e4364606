/**
 * The decision table as CSV (RFC 4180): a header row, CRLF line ends, fields quoted when
 * they hold a comma, a quote or a line break (quotes doubled). docs/file-formats.md, "CSV".
 */
import {
  DECISION_COLUMNS,
  RUN_LEVEL_COLUMNS,
  type DecisionColumnName,
  type DecisionRow,
} from '../../core/export/decision-row.js';

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

/**
 * The text columns whose values repeat from row to row: the run's own, a question's, its
 * answers and gold distribution, the predicted label and a failure's kind.
 */
const REPEATING: ReadonlySet<DecisionColumnName> = new Set<DecisionColumnName>([
  ...RUN_LEVEL_COLUMNS.filter((name) => name !== 'schema_version'),
  'workflow',
  'question_id',
  'question_key',
  'type',
  'status',
  'gold_label',
  'predicted',
  'answers',
  'gold_distribution',
  'error_kind',
]);

/** Fields remembered per renderer; past this many the memory starts again (a run of unique texts). */
const REMEMBERED_FIELDS = 4096;

/**
 * `renderDecisionCsvRow` for the rows of one export, the same text: each distinct text of a
 * repeating column is quoted and guarded once, and a row's fields are joined in one string
 * (a whole export's rows cost far less to make and to collect).
 */
export function createDecisionCsvRenderer(): (row: DecisionRow) => string {
  const names = DECISION_COLUMNS.map((c) => c.name);
  const repeats = names.map((name) => REPEATING.has(name));
  const remembered = new Map<string, string>();
  const fields: string[] = names.map(() => '');
  return (row) => {
    for (let i = 0; i < names.length; i++) {
      const value = row[names[i]!];
      if (typeof value === 'string' && repeats[i] === true) {
        let field = remembered.get(value);
        if (field === undefined) {
          field = csvField(value);
          if (remembered.size >= REMEMBERED_FIELDS) remembered.clear();
          remembered.set(value, field);
        }
        fields[i] = field;
      } else fields[i] = csvField(value);
    }
    return `${fields.join(',')}\r\n`;
  };
}

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (value === '') return '""';
  const text = FORMULA_START.has(value[0]!) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Undoes the formula guard of a text cell read back from this format. */
export function unguardCsvText(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}
