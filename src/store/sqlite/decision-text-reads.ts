/**
 * A run's decisions as CSV text made by SQLite itself (`StoreCases.decisionCsv`; the format is
 * `decision-csv.ts`): one query per slice of the run's case positions returns the slice's
 * lines as one blob, so JavaScript handles a few hundred pieces rather than millions of
 * values. Each line carries a flag computed by the same rules the flat read checks
 * (`decision-value-reads.ts`): a slice with a flagged line stops the text, and the caller reads
 * the run with `decisionValues`, which names the damage. The flag is conservative: values the
 * text cannot carry exactly (a text holding the quote character, an integer beyond 2⁵³, a
 * latency that is not finite) are flagged too. The JSON texts' shapes are left to the reader.
 */
import { FAILURE_KINDS } from '../../core/typed-decisions/case-result.js';
import type Database from 'better-sqlite3';
import { CSV_QUOTE, DECISION_CSV_COLUMNS, type DecisionCsvOptions } from '../decision-csv.js';
import type { RunTables } from './run-tables.js';

/** Cases per query: a slice's text is about 1.6 MB for the usual five decisions a case. */
const SLICE_CASES = 2000;

const KINDS = FAILURE_KINDS.map((k) => `'${k}'`).join(', ');

/** The quote as a SQL string literal (the character itself: a literal costs less than `char()` on every row). */
const Q = `'${CSV_QUOTE}'`;
/** A finite number stored as one (text in a REAL column stays text). */
const isFinite = (x: string): string => `${x} + 0.0 = ${x} AND abs(${x}) <= 1.7976931348623157e308`;

/**
 * A line's check: 1 when the flat read would refuse the row (as `createDecisionValueCheck` does),
 * or the text cannot carry it exactly. Texts the schema keeps as text are not checked again.
 */
const FLAG_SQL = `CASE WHEN (
  instr(concat(c.case_id, c.workflow, d.question_id, d.gold_label, d.predicted, d.error_message), ${Q}) = 0
  AND CASE c.request_status
    WHEN 'answered' THEN ${isFinite('c.latency_ms')} AND (c.input_tokens IS NULL OR
      (typeof(c.input_tokens) = 'integer' AND abs(c.input_tokens) <= 9007199254740991))
    WHEN 'failed' THEN c.error_kind IN (${KINDS}) AND (c.latency_ms IS NULL OR ${isFinite('c.latency_ms')})
    ELSE 0 END
  AND CASE d.status
    WHEN 'answered' THEN d.predicted IS NOT NULL AND d.probabilities_json IS NOT NULL
      AND d.confidence + 0.0 = d.confidence AND d.confidence >= 0 AND d.confidence <= 1
      AND ${isFinite('d.kl')} AND ${isFinite('d.brier')} AND d.brier >= 0 AND d.correct IN (0, 1)
    WHEN 'failed' THEN d.error_kind IN (${KINDS})
    ELSE 0 END) THEN 0 ELSE 1 END`;

/**
 * A real's two fields as one (`decision-csv.ts`), `m,e` with value m·2⁻ᵉ: `,` for null, `0,0`
 * for zero. The usual magnitudes take a fixed e by tiers of 11 powers of two (a compare, a
 * multiply by a power of two and a cast, each exact: m is below 2⁶³); any other value takes
 * e = 53 − ⌊log₂|x|⌋ (m of 54 bits, 53 or 55 when `log2` rounds across a power of two; at most
 * 1074, where every double is a whole multiple of 2⁻¹⁰⁷⁴), scaled in two steps so that neither
 * overflows.
 */
const real = (x: string): string => {
  const e = `min(CAST(53 - floor(log2(abs(${x}))) AS INTEGER), 1074)`;
  const rare = `CAST(${x} * power(2.0, ${e} / 2) * power(2.0, ${e} - ${e} / 2) AS INTEGER) || ',' || ${e}`;
  return `CASE WHEN ${x} IS NULL THEN ','
    WHEN abs(${x}) < 1.0 AND abs(${x}) >= 0.00048828125 THEN CAST(${x} * 9223372036854775808.0 AS INTEGER) || ',63'
    WHEN abs(${x}) >= 1.0 AND abs(${x}) < 2048.0 THEN CAST(${x} * 4503599627370496.0 AS INTEGER) || ',52'
    WHEN abs(${x}) >= 2048.0 AND abs(${x}) < 4194304.0 THEN CAST(${x} * 2199023255552.0 AS INTEGER) || ',41'
    WHEN ${x} = 0 THEN '0,0'
    ELSE ${rare} END`;
};

/** A piece of a line: a literal (merged with its neighbours) or an expression. */
type Part = { readonly literal: string } | { readonly sql: string };

/** A text the schema keeps not null: quotes as literals around it. */
const text = (x: string): Part[] => [{ literal: CSV_QUOTE }, { sql: x }, { literal: CSV_QUOTE }];
/** A text that may be null: quoted inside the expression, so that null stays an empty field. */
const nullableText = (x: string): Part[] => [{ sql: `${Q} || ${x} || ${Q}` }];
const value = (x: string): Part[] => [{ sql: x }];

const CASE_DECISIONS = `(SELECT count(*) FROM decisions k WHERE k.run_id = c.run_id AND k.case_position = c.position)`;

function fieldParts(caseDecisions: boolean): Record<string, Part[]> {
  return {
    case_id: text('c.case_id'),
    workflow: text('c.workflow'),
    question_id: text('d.question_id'),
    question_index: value('d.position'),
    type: text('d.type'),
    status: text('d.status'),
    gold_label: text('d.gold_label'),
    predicted: nullableText('d.predicted'),
    correct: value('d.correct = 1'),
    confidence: value(real('d.confidence')),
    kl: value(real('d.kl')),
    brier: value(real('d.brier')),
    predicted_distribution: nullableText('d.probabilities_json'),
    answers: text('d.answers_json'),
    gold_distribution: text('d.gold_probabilities_json'),
    latency_ms: value(real('c.latency_ms')),
    input_tokens: value(`CASE WHEN c.request_status = 'answered' THEN c.input_tokens END`),
    request_answered: value(`c.request_status = 'answered'`),
    case_decisions: caseDecisions ? value(CASE_DECISIONS) : [],
    error_kind: nullableText('d.error_kind'),
    error_message: nullableText('d.error_message'),
  };
}

/**
 * A line as one `concat` (which makes a null argument empty, so a null field is an empty
 * one), its literal pieces merged: fewer steps a row than an operator a piece.
 */
function lineSql(caseDecisions: boolean): string {
  const fields = fieldParts(caseDecisions);
  const parts = DECISION_CSV_COLUMNS.flatMap((c, i) => [...(i === 0 ? [] : [{ literal: ',' }]), ...fields[c.name]!]);
  const args: string[] = [];
  let literal = '';
  for (const part of parts) {
    if ('literal' in part) literal += part.literal;
    else {
      if (literal !== '') args.push(`'${literal}'`);
      literal = '';
      args.push(part.sql);
    }
  }
  if (literal !== '') args.push(`'${literal}'`);
  return `concat(${args.join(',\n  ')})`;
}

/** One slice of the run's cases: how many of its lines are flagged, and its lines (with no final newline). */
const sliceSql = (caseDecisions: boolean): string => `SELECT coalesce(sum(flag), 0) AS flagged,
    CAST(group_concat(line, char(10)) AS BLOB) AS text FROM (
  SELECT ${FLAG_SQL} AS flag, ${lineSql(caseDecisions)} AS line
  FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_position = c.position
  WHERE c.run_id = ? AND c.position >= ? AND c.position < ?
  ORDER BY c.position, d.position)`;

/**
 * The slice's cases whose decisions are not numbered 0, 1, 2, … (the flat read numbers them
 * by their place, the text by their stored number): any makes the text decline the run.
 */
const GAPS_SQL = `SELECT count(*) FROM (SELECT 1 FROM decisions WHERE run_id = ? AND case_position >= ? AND case_position < ?
  GROUP BY case_position HAVING min(position) <> 0 OR max(position) <> count(*) - 1)`;

const LAST_POSITION_SQL = 'SELECT max(position) FROM cases WHERE run_id = ?';

interface Statements {
  /** With each case's count of decisions, and without. */
  readonly slice: Database.Statement;
  readonly sliceWithoutCounts: Database.Statement;
  readonly gaps: Database.Statement;
  readonly last: Database.Statement;
}
const statements = new WeakMap<Database.Database, Statements>();

/**
 * Hands `write` the run's lines (each piece ending in a newline), read in one snapshot; false,
 * as soon as a line is flagged, when the run is to be read with `decisionValues` instead (what
 * was handed is then to be dropped).
 */
export function readDecisionCsv(
  tables: RunTables,
  runId: string,
  write: (piece: Uint8Array | string) => void,
  options: DecisionCsvOptions = {},
): boolean {
  const { conn } = tables;
  tables.refuseUnknown(runId);
  let prepared = statements.get(conn.db);
  if (prepared === undefined) {
    prepared = {
      slice: conn.db.prepare(sliceSql(true)),
      sliceWithoutCounts: conn.db.prepare(sliceSql(false)),
      gaps: conn.db.prepare(GAPS_SQL).pluck(),
      last: conn.db.prepare(LAST_POSITION_SQL).pluck(),
    };
    statements.set(conn.db, prepared);
  }
  const { gaps, last } = prepared;
  const slice = options.caseDecisions === false ? prepared.sliceWithoutCounts : prepared.slice;
  const own = !conn.db.inTransaction;
  if (own) conn.db.exec('BEGIN');
  try {
    const lastPosition = conn.reading(() => last.get(runId), runId) as number | null;
    const newline = new Uint8Array([10]);
    for (let from = 0; lastPosition !== null && from <= lastPosition; from += SLICE_CASES) {
      if ((conn.reading(() => gaps.get(runId, from, from + SLICE_CASES), runId) as number) > 0) return false;
      const r = conn.reading(() => slice.get(runId, from, from + SLICE_CASES), runId) as {
        flagged: number;
        text: Uint8Array | null;
      };
      if (r.flagged > 0) return false;
      if (r.text !== null && r.text.length > 0) {
        write(r.text);
        write(newline);
      }
    }
    return true;
  } finally {
    // As in `decisionValues`: a rollback, which cannot hide damage found while reading.
    if (own && conn.db.inTransaction) conn.db.exec('ROLLBACK');
  }
}
