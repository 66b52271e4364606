/**
 * Loads and validates an offline dataset (docs/file-formats.md, "Offline dataset"): JSONL,
 * one case a line. Every problem is reported (file, line, case, field), up to a cap.
 *
 * The cases are stored column by column (offline-case-table.ts); `cases` and `byId` are
 * made on first use, so commands that only stream results against the dataset (`score`,
 * `compare`, `validate` of results) never build a million objects and a million-entry Map.
 */
import { given } from '../../core/given.js';
import { jsonProblemMessage, parseStrictJson } from '../../core/strict-json.js';
import { stat } from 'node:fs/promises';
import {
  MAX_SCORE_BOUND,
  SCORE_BOUND_TEXT,
  type ChoiceCase,
  type OfflineCase,
  type ScoreCase,
  type YesNoCase,
} from '../../core/offline/case.js';
import { isFiniteNumber, isNonEmptyString, isRecord, preview, type JsonRecord } from '../../core/json-value.js';
import { ProblemList } from '../../core/problem-list.js';
import { isCanonicalUtf8, KIND_CHOICE, KIND_SCORE, KIND_YES_NO, OfflineCaseTable } from './fast/case-table.js';
import { ByteCursor, encodeKeys } from './fast/fast-json.js';
import { readLineBytes, utf8Text } from '../read-lines.js';
import { BadJsonValue, isParquetFile, readParquetRows, requireColumns } from '../parquet-rows.js';

export interface OfflineDataset {
  readonly path: string;
  readonly cases: readonly OfflineCase[];
  readonly byId: ReadonlyMap<string, OfflineCase>;
}

/** Reports one problem of the line being checked: the field it concerns and what is wrong. */
export type ReportProblem = (field: string | undefined, message: string) => void;

/** A loaded dataset: the table, with `cases` and `byId` built from it on first use. */
class TableDataset implements OfflineDataset {
  private casesCache: OfflineCase[] | null = null;
  private byIdCache: Map<string, OfflineCase> | null = null;

  constructor(
    readonly path: string,
    readonly table: OfflineCaseTable,
  ) {}

  get cases(): readonly OfflineCase[] {
    if (this.casesCache === null) {
      const cases = new Array<OfflineCase>(this.table.size);
      for (let i = 0; i < cases.length; i++) cases[i] = this.table.caseAt(i);
      this.casesCache = cases;
    }
    return this.casesCache;
  }

  get byId(): ReadonlyMap<string, OfflineCase> {
    if (this.byIdCache === null) {
      const byId = new Map<string, OfflineCase>();
      for (const c of this.cases) byId.set(c.id, c);
      this.byIdCache = byId;
    }
    return this.byIdCache;
  }
}

const tables = new WeakMap<OfflineDataset, OfflineCaseTable>();

/**
 * The column store of a dataset: the loaded one's own, or (for a dataset made by hand from
 * a list of cases) one built from its cases, in their order, once.
 */
export function caseTableOf(dataset: OfflineDataset): OfflineCaseTable {
  if (dataset instanceof TableDataset) return dataset.table;
  let table = tables.get(dataset);
  if (table === undefined) {
    table = new OfflineCaseTable();
    for (const c of dataset.cases) table.pushCase(c, 0);
    tables.set(dataset, table);
  }
  return table;
}

/** Number of cases, without making the case objects. */
export function datasetSize(dataset: OfflineDataset): number {
  return caseTableOf(dataset).size;
}

/**
 * Loads a dataset file (`.gz` is gunzipped). Throws InvalidInputError listing every problem
 * (capped at 50, the rest counted), or a DecidekitError when the file cannot be read.
 */
export async function loadOfflineDataset(path: string): Promise<OfflineDataset> {
  if (await isParquetFile(path)) return loadParquetDataset(path);
  const problems = new ProblemList();
  const table = new OfflineCaseTable(...(await capacityHint(path)));
  const fast = new FastCaseReader(table);
  const check = caseChecker(path, problems, table);

  const slow = (line: string | null, lineNumber: number): void => {
    const value = parseJsonLine(line, lineNumber, path, problems);
    if (value === NOT_JSON) return;
    check(value, lineNumber);
  };

  await readLineBytes(path, (bytes, start, end, lineNumber) => {
    // Blank lines, invalid lines and duplicates take the slow path (which skips or words them).
    if (fast.read(bytes, start, end) && table.findId(bytes, fast.idStart, fast.idEnd) === -1) {
      table.push(
        bytes,
        fast.idStart,
        fast.idEnd,
        fast.kind,
        fast.correct,
        fast.aux,
        fast.prompt,
        fast.group,
        fast.field,
        lineNumber,
      );
    } else {
      const line = utf8Text(bytes, start, end);
      if (line === null || !isBlank(line)) slow(line, lineNumber);
    }
  });
  if (table.size === 0 && problems.count === 0)
    problems.add({ file: path, line: null, message: 'no cases (the dataset is empty)' });
  problems.throwIfAny();
  return new TableDataset(path, table);
}

/**
 * Checks one parsed line (or Parquet row) into the table, reporting every problem; a
 * duplicate id names the line (row) of the first.
 */
function caseChecker(
  path: string,
  problems: ProblemList,
  table: OfflineCaseTable,
  unit?: 'row',
): (value: unknown, lineNumber: number) => void {
  return (value, lineNumber) => {
    const id = isRecord(value) && isNonEmptyString(value['id']) ? value['id'] : undefined;
    const report: ReportProblem = (field, message) =>
      problems.add({
        file: path,
        line: lineNumber,
        ...given({ unit, caseId: id, field }),
        message,
      });
    const c = parseOfflineCase(value, report);
    if (c === null) return;
    const first = table.findIdString(c.id);
    if (first !== -1) {
      report('id', `duplicate id ${JSON.stringify(c.id)} (first on ${unit ?? 'line'} ${table.line[first]})`);
      return;
    }
    table.pushCase(c, lineNumber);
  };
}

/** Columns a Parquet dataset must have (the rest are optional, as keys of a JSONL line). */
const DATASET_COLUMNS = ['id', 'kind', 'correct'];

/** A dataset stored as Parquet: each row checked as the JSONL line of the same values. */
async function loadParquetDataset(path: string): Promise<OfflineDataset> {
  const problems = new ProblemList();
  const table = new OfflineCaseTable();
  const check = caseChecker(path, problems, table, 'row');
  await readParquetRows(
    path,
    (value, row) => {
      if (reportBadJson(value, path, row, problems)) check(value, row);
    },
    { check: (info) => requireColumns(path, info.columns, DATASET_COLUMNS), jsonTextColumns: ['options'] },
  );
  if (table.size === 0 && problems.count === 0)
    problems.add({ file: path, line: null, message: 'no cases (the dataset is empty)' });
  problems.throwIfAny();
  return new TableDataset(path, table);
}

/** Reports each JSON column of the row that is not strict JSON; true when there is none. */
export function reportBadJson(
  value: Record<string, unknown>,
  path: string,
  row: number,
  problems: ProblemList,
): boolean {
  let ok = true;
  for (const [column, v] of Object.entries(value)) {
    if (!(v instanceof BadJsonValue)) continue;
    ok = false;
    problems.add({ file: path, line: row, unit: 'row', field: column, message: `column ${column}: ${v.message}` });
  }
  return ok;
}

/**
 * Room to reserve for the cases of a file, from its size: a case line has at least 42
 * bytes. Reserving costs nothing until used, growing copies (see ByteKeys).
 */
async function capacityHint(path: string): Promise<[cases: number, idBytes: number]> {
  if (path.endsWith('.gz')) return [1024, 1 << 14];
  try {
    const bytes = (await stat(path)).size;
    return [Math.min(Math.ceil(bytes / 40), 1 << 24), Math.min(Math.ceil(bytes / 2), 1 << 30)];
  } catch {
    return [1024, 1 << 14]; // readLineBytes words the error
  }
}

const CASE_KEYS = encodeKeys([
  'id',
  'kind',
  'prompt',
  'correct',
  'options',
  'score_min',
  'score_max',
  'group',
  'field',
]);
const C_ID = 0;
const C_KIND = 1;
const C_PROMPT = 2;
const C_CORRECT = 3;
const C_OPTIONS = 4;
const C_MIN = 5;
const C_MAX = 6;
const C_GROUP = 7;
const C_FIELD = 8;
const KIND_NAMES = encodeKeys(['yes_no', 'choice', 'score']);
const COMMON_KEYS = (1 << C_ID) | (1 << C_KIND) | (1 << C_PROMPT) | (1 << C_CORRECT) | (1 << C_GROUP) | (1 << C_FIELD);
const ALLOWED_KEYS = [COMMON_KEYS, COMMON_KEYS | (1 << C_OPTIONS), COMMON_KEYS | (1 << C_MIN) | (1 << C_MAX)] as const;
const REQUIRED_KEYS = [
  (1 << C_ID) | (1 << C_KIND) | (1 << C_CORRECT),
  (1 << C_ID) | (1 << C_KIND) | (1 << C_CORRECT) | (1 << C_OPTIONS),
  (1 << C_ID) | (1 << C_KIND) | (1 << C_CORRECT) | (1 << C_MIN) | (1 << C_MAX),
] as const;

/**
 * Reads a valid dataset line of the usual shape straight from its bytes into its fields
 * (ready for OfflineCaseTable.push); false (bail out) for anything it does not fully check
 * itself, which the caller then parses with JSON.parse and the full validation. Ids must
 * be valid UTF-8 (so equal ids are equal bytes). See offline-fast-json.ts.
 */
export class FastCaseReader {
  private readonly cur = new ByteCursor();
  private readonly sub = new ByteCursor();
  idStart = 0;
  idEnd = 0;
  kind = -1;
  correct = 0;
  /** See OfflineCaseTable.aux. */
  aux = 0;
  prompt = -1;
  group: string | undefined = undefined;
  field: string | undefined = undefined;

  constructor(private readonly table: OfflineCaseTable) {}

  read(bytes: Buffer, start: number, end: number): boolean {
    const cur = this.cur;
    cur.reset(bytes, start, end);
    if (!cur.eat(0x7b)) return false;
    let seen = 0;
    let kind = -1;
    let prompt = -1;
    let group: string | undefined;
    let field: string | undefined;
    let correctBool = -1;
    let correctNum = NaN;
    let correctStart = -1;
    let correctEnd = -1;
    let min = NaN;
    let max = NaN;
    let list = -1;
    for (;;) {
      const k = cur.key(CASE_KEYS);
      if (k === -1 || (seen & (1 << k)) !== 0) return false;
      seen |= 1 << k;
      switch (k) {
        case C_ID:
          if (
            !cur.string() ||
            cur.strEnd === cur.strStart ||
            !isCanonicalUtf8(bytes, cur.strStart, cur.strEnd, cur.strAscii)
          )
            return false;
          this.idStart = cur.strStart;
          this.idEnd = cur.strEnd;
          break;
        case C_KIND:
          if (!cur.string()) return false;
          kind = cur.stringIndex(KIND_NAMES);
          if (kind === -1) return false;
          break;
        case C_PROMPT:
          if (!this.utf8String()) return false;
          prompt = this.table.promptOf(bytes, cur.strStart, cur.strEnd, cur.strAscii);
          break;
        case C_GROUP:
        case C_FIELD: {
          if (!this.utf8String() || cur.strEnd === cur.strStart) return false;
          if (k === C_GROUP) group = cur.stringValue();
          else field = cur.stringValue();
          break;
        }
        case C_CORRECT: {
          const c = cur.peek();
          if (c === 0x22) {
            if (!this.utf8String()) return false;
            correctStart = cur.strStart;
            correctEnd = cur.strEnd;
          } else if (c === 0x74 || c === 0x66) {
            correctBool = cur.boolean();
            if (correctBool === -1) return false;
          } else {
            correctNum = cur.number();
            if (!Number.isFinite(correctNum)) return false;
          }
          break;
        }
        case C_OPTIONS:
          list = this.readOptions();
          if (list === -1) return false;
          break;
        default: {
          const v = cur.number();
          if (!Number.isFinite(v)) return false;
          if (k === C_MIN) min = v;
          else max = v;
        }
      }
      if (cur.eat(0x2c)) continue;
      if (!cur.eat(0x7d)) return false;
      break;
    }
    if (
      !cur.atEnd() ||
      kind === -1 ||
      (seen & ~ALLOWED_KEYS[kind]!) !== 0 ||
      (seen & REQUIRED_KEYS[kind]!) !== REQUIRED_KEYS[kind]
    )
      return false;
    if (group !== undefined && field === undefined) {
      const id = bytes.toString('utf8', this.idStart, this.idEnd);
      field = id.slice(id.lastIndexOf(':') + 1);
      if (field.length === 0) return false;
    }
    this.kind = kind;
    this.prompt = prompt;
    this.group = group;
    this.field = field;
    this.aux = 0;
    if (kind === KIND_YES_NO) {
      if (correctBool === -1) return false;
      this.correct = correctBool;
      return true;
    }
    if (kind === KIND_CHOICE) {
      if (correctStart === -1 || list === -1) return false;
      const sub = this.sub;
      sub.reset(bytes, correctStart - 1, correctEnd + 1);
      if (!sub.string()) return false;
      const correctIndex = sub.stringIndex(this.table.optionBytes[list]!);
      if (correctIndex === -1) return false;
      this.correct = correctIndex;
      this.aux = list;
      return true;
    }
    if (kind !== KIND_SCORE || !isScoreRangeHolding(min, max, correctNum)) return false;
    this.correct = correctNum;
    this.aux = this.table.rangeOf(min, max);
    return true;
  }

  /** A list of 2+ distinct non-empty strings, shared with earlier identical lists; -1 to bail out. */
  /** Reads a string that is valid UTF-8; anything else goes the slow way, which reports bytes that are not. */
  private utf8String(): boolean {
    const cur = this.cur;
    return cur.string() && isCanonicalUtf8(cur.buf, cur.strStart, cur.strEnd, cur.strAscii);
  }

  private readOptions(): number {
    const cur = this.cur;
    if (cur.peek() !== 0x5b) return -1;
    const segStart = cur.pos;
    cur.pos++;
    let n = 0;
    if (cur.peek() !== 0x5d) {
      for (;;) {
        if (!this.utf8String() || cur.strEnd === cur.strStart) return -1;
        n++;
        if (cur.eat(0x2c)) continue;
        break;
      }
    }
    if (!cur.eat(0x5d) || n < 2) return -1;
    const hit = this.table.listOfSegment(cur.buf, segStart, cur.pos);
    if (hit !== -1) return hit;
    // First time this list is seen: decode and check its options.
    const sub = this.sub;
    sub.reset(cur.buf, segStart + 1, cur.pos - 1);
    const options: string[] = [];
    for (let i = 0; i < n; i++) {
      if (i > 0) sub.eat(0x2c);
      sub.string();
      const name = sub.stringValue();
      if (options.includes(name)) return -1;
      options.push(name);
    }
    return this.table.listOf(options, { b: cur.buf, start: segStart, end: cur.pos });
  }
}

const KINDS = new Set(['yes_no', 'choice', 'score']);

/**
 * Checks one parsed dataset line into a case, reporting every problem; null when invalid.
 */
/** A score case's bounds (within ±MAX_SCORE_BOUND, min below max) around its finite correct value. */
function isScoreRangeHolding(min: number, max: number, correct: number): boolean {
  const inBound = (x: number) => Math.abs(x) <= MAX_SCORE_BOUND;
  return Number.isFinite(correct) && inBound(min) && inBound(max) && min < max && correct >= min && correct <= max;
}

export function parseOfflineCase(value: unknown, report: ReportProblem): OfflineCase | null {
  if (!isRecord(value)) {
    report(undefined, `expected a JSON object, got ${preview(value)}`);
    return null;
  }
  let ok = true;
  const fail: ReportProblem = (field, message) => {
    ok = false;
    report(field, message);
  };
  const id = value['id'];
  if (!isNonEmptyString(id))
    fail('id', id === undefined ? 'id is missing' : `id must be a non-empty string, got ${preview(id)}`);
  const kind = value['kind'];
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    fail(
      'kind',
      kind === undefined
        ? 'kind is missing (yes_no, choice or score)'
        : `kind must be yes_no, choice or score, got ${preview(kind)}`,
    );
  }
  const base = parseBase(value, typeof id === 'string' ? id : '', fail);
  if (!ok || !isNonEmptyString(id)) return null;

  if (kind === 'yes_no') {
    const correct = value['correct'];
    if (typeof correct !== 'boolean') {
      fail(
        'correct',
        correct === undefined
          ? 'correct is missing (true or false)'
          : `correct must be true or false, got ${preview(correct)}`,
      );
      return null;
    }
    const c: YesNoCase = { id, kind: 'yes_no', correct, ...base };
    return c;
  }

  if (kind === 'choice') {
    const options = parseOptions(value['options'], fail);
    const correct = value['correct'];
    if (typeof correct !== 'string') {
      fail(
        'correct',
        correct === undefined
          ? 'correct is missing (one of the options)'
          : `correct must be one of the options, got ${preview(correct)}`,
      );
      return null;
    }
    if (options === null) return null;
    const correctIndex = options.indexOf(correct);
    if (correctIndex === -1) {
      fail('correct', `correct ${JSON.stringify(correct)} is not one of the options ${preview(options)}`);
      return null;
    }
    const c: ChoiceCase = { id, kind: 'choice', options, correct: options[correctIndex]!, correctIndex, ...base };
    return c;
  }

  // score
  const min = value['score_min'];
  const max = value['score_max'];
  const correct = value['correct'];
  if (!isFiniteNumber(min))
    fail(
      'score_min',
      min === undefined ? 'score_min is missing' : `score_min must be a finite number, got ${preview(min)}`,
    );
  if (!isFiniteNumber(max))
    fail(
      'score_max',
      max === undefined ? 'score_max is missing' : `score_max must be a finite number, got ${preview(max)}`,
    );
  if (!isFiniteNumber(correct))
    fail(
      'correct',
      correct === undefined
        ? 'correct is missing (a number)'
        : `correct must be a finite number, got ${preview(correct)}`,
    );
  if (!isFiniteNumber(min) || !isFiniteNumber(max) || !isFiniteNumber(correct)) return null;
  let outOfRange = false;
  for (const [key, bound] of [['score_min', min] as const, ['score_max', max] as const]) {
    if (Math.abs(bound) <= MAX_SCORE_BOUND) continue;
    fail(
      key,
      `${key} must be within ±${SCORE_BOUND_TEXT} (a wider range would overflow the error sums), got ${preview(bound)}`,
    );
    outOfRange = true;
  }
  if (outOfRange) return null;
  if (!(min < max)) {
    fail('score_min', `score_min ${min} must be below score_max ${max}`);
    return null;
  }
  if (correct < min || correct > max) {
    fail('correct', `correct ${correct} is outside [${min}, ${max}]`);
    return null;
  }
  const c: ScoreCase = { id, kind: 'score', scoreMin: min, scoreMax: max, correct, ...base };
  return c;
}

interface Base {
  prompt?: string;
  group?: string;
  field?: string;
}

function parseBase(value: JsonRecord, id: string, fail: ReportProblem): Base {
  const base: Base = {};
  const prompt = value['prompt'];
  if (prompt !== undefined && prompt !== null) {
    if (typeof prompt === 'string') base.prompt = prompt;
    else fail('prompt', `prompt must be a string, got ${preview(prompt)}`);
  }
  const group = value['group'];
  if (group !== undefined && group !== null) {
    if (isNonEmptyString(group)) base.group = group;
    else fail('group', `group must be a non-empty string, got ${preview(group)}`);
  }
  const field = value['field'];
  if (field !== undefined && field !== null) {
    if (isNonEmptyString(field)) base.field = field;
    else fail('field', `field must be a non-empty string, got ${preview(field)}`);
  } else if (base.group !== undefined) {
    // Spec: with a group and no field, the field is the part of the id after its last ':'.
    const derived = id.slice(id.lastIndexOf(':') + 1);
    if (derived.length > 0) base.field = derived;
    else fail('field', `field is missing and id ${JSON.stringify(id)} has nothing after its last ':'`);
  }
  return base;
}

function parseOptions(options: unknown, fail: ReportProblem): string[] | null {
  if (!Array.isArray(options)) {
    fail(
      'options',
      options === undefined
        ? 'options is missing (a list of 2 or more names)'
        : `options must be a list of 2 or more names, got ${preview(options)}`,
    );
    return null;
  }
  if (options.length < 2) {
    fail('options', `options must list 2 or more names, got ${options.length}`);
    return null;
  }
  const seen = new Set<string>();
  let ok = true;
  for (const [i, o] of options.entries()) {
    if (!isNonEmptyString(o)) {
      fail('options', `options[${i}] must be a non-empty string, got ${preview(o)}`);
      ok = false;
    } else if (seen.has(o)) {
      fail('options', `options lists ${JSON.stringify(o)} twice`);
      ok = false;
    } else {
      seen.add(o);
    }
  }
  return ok ? (options as string[]) : null;
}

/**
 * Blank lines are skipped by every offline JSONL reader: lines of only spaces, tabs, carriage
 * returns, form feeds and vertical tabs (the white space DuckDB's reader skips too, so both
 * engines skip the same lines). Other characters, such as a no-break space, make the line
 * one that is not JSON.
 */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (!isLineSpace(line.charCodeAt(i))) return false;
  return true;
}

/** Space, tab, carriage return, vertical tab, form feed. */
export function isLineSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d && c !== 0x0a);
}

export function jsonErrorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Sentinel for a line that is not JSON (already reported). */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * A line's JSON value may have form feeds and vertical tabs around it, as DuckDB's reader
 * allows (JSON itself allows only spaces, tabs and line ends there): they are cut off, so
 * both engines read the same lines. Within the value they stay errors.
 */
function withoutEdgeSpace(line: string): string {
  const n = line.length;
  if (n === 0 || (!isEdgeOnlySpace(line.charCodeAt(0)) && !isEdgeOnlySpace(line.charCodeAt(n - 1)))) return line;
  let start = 0;
  let end = n;
  while (start < end && isLineSpace(line.charCodeAt(start))) start++;
  while (end > start && isLineSpace(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end);
}

function isEdgeOnlySpace(c: number): boolean {
  return c === 0x0b || c === 0x0c;
}

/**
 * Strict JSON of one line of `path`: a syntax error, nesting deeper than MAX_JSON_DEPTH or a
 * repeated key becomes that line's problem; `null` is a line whose bytes are not valid UTF-8
 * (a problem, as invalid JSON is).
 */
export function parseJsonLine(line: string | null, lineNumber: number, path: string, problems: ProblemList): unknown {
  if (line === null) {
    problems.add({ file: path, line: lineNumber, message: 'not valid UTF-8 (save the file as UTF-8)' });
    return NOT_JSON;
  }
  const r = parseStrictJson(withoutEdgeSpace(line));
  if (r.ok) return r.value;
  problems.add({ file: path, line: lineNumber, message: jsonProblemMessage(r) });
  return NOT_JSON;
}
