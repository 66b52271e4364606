/**
 * Loads and validates an offline dataset (spec/offline-scoring.md, "Dataset file"): JSONL,
 * one case a line. Every problem is reported (file, line, case, field), up to a cap.
 */
import type { ChoiceCase, OfflineCase, ScoreCase, YesNoCase } from '../core/offline-case.js';
import { isFiniteNumber, isNonEmptyString, isRecord, preview, type JsonRecord } from '../core/json-value.js';
import { ProblemList } from '../core/offline-problems.js';
import { readLines } from './read-lines.js';

export interface OfflineDataset {
  readonly path: string;
  readonly cases: readonly OfflineCase[];
  readonly byId: ReadonlyMap<string, OfflineCase>;
}

/** Reports one problem of the line being checked: the field it concerns and what is wrong. */
export type ReportProblem = (field: string | undefined, message: string) => void;

/**
 * Loads a dataset file (`.gz` is gunzipped). Throws InvalidInputError listing every problem
 * (capped at 50, the rest counted), or a DecidekitError when the file cannot be read.
 */
export async function loadOfflineDataset(path: string): Promise<OfflineDataset> {
  const problems = new ProblemList();
  const cases: OfflineCase[] = [];
  const byId = new Map<string, OfflineCase>();
  /** Line of each case in `cases`, for "first on line N" of a duplicate id. */
  const lineNumbers: number[] = [];
  const interned = new Map<string, readonly string[]>();

  await readLines(path, (line, lineNumber) => {
    if (isBlank(line)) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.add({ file: path, line: lineNumber, message: `not valid JSON (${jsonErrorMessage(err)})` });
      return;
    }
    const id = isRecord(value) && isNonEmptyString(value['id']) ? value['id'] : undefined;
    const report: ReportProblem = (field, message) =>
      problems.add({ file: path, line: lineNumber, ...(id === undefined ? {} : { caseId: id }), ...(field === undefined ? {} : { field }), message });
    const c = parseOfflineCase(value, report, interned);
    if (c === null) return;
    const first = byId.get(c.id);
    if (first !== undefined) {
      // Finding the first line is a scan; only pay it for problems that are kept.
      const where = problems.count < problems.cap ? ` (first on line ${caseLine(cases, first, lineNumbers)})` : '';
      report('id', `duplicate id ${JSON.stringify(c.id)}${where}`);
      return;
    }
    byId.set(c.id, c);
    cases.push(c);
    lineNumbers.push(lineNumber);
  });
  if (cases.length === 0 && problems.count === 0) problems.add({ file: path, line: null, message: 'no cases (the dataset is empty)' });
  problems.throwIfAny();
  return { path, cases, byId };
}

function caseLine(cases: readonly OfflineCase[], c: OfflineCase, lines: readonly number[]): number {
  return lines[cases.indexOf(c)] ?? 0;
}

const KINDS = new Set(['yes_no', 'choice', 'score']);

/**
 * Checks one parsed dataset line into a case, reporting every problem; null when invalid.
 * `interned` shares identical option lists between cases (memory for large datasets).
 */
export function parseOfflineCase(value: unknown, report: ReportProblem, interned?: Map<string, readonly string[]>): OfflineCase | null {
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
  if (!isNonEmptyString(id)) fail('id', id === undefined ? 'id is missing' : `id must be a non-empty string, got ${preview(id)}`);
  const kind = value['kind'];
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    fail('kind', kind === undefined ? 'kind is missing (yes_no, choice or score)' : `kind must be yes_no, choice or score, got ${preview(kind)}`);
  }
  const base = parseBase(value, typeof id === 'string' ? id : '', fail);
  if (!ok || !isNonEmptyString(id)) return null;

  if (kind === 'yes_no') {
    const correct = value['correct'];
    if (typeof correct !== 'boolean') {
      fail('correct', correct === undefined ? 'correct is missing (true or false)' : `correct must be true or false, got ${preview(correct)}`);
      return null;
    }
    const c: YesNoCase = { id, kind: 'yes_no', correct, ...base };
    return c;
  }

  if (kind === 'choice') {
    const options = parseOptions(value['options'], fail);
    const correct = value['correct'];
    if (typeof correct !== 'string') {
      fail('correct', correct === undefined ? 'correct is missing (one of the options)' : `correct must be one of the options, got ${preview(correct)}`);
      return null;
    }
    if (options === null) return null;
    const correctIndex = options.indexOf(correct);
    if (correctIndex === -1) {
      fail('correct', `correct ${JSON.stringify(correct)} is not one of the options ${preview(options)}`);
      return null;
    }
    let shared: readonly string[] = options;
    if (interned) {
      const key = options.join('\u0000');
      const hit = interned.get(key);
      if (hit) shared = hit;
      else interned.set(key, options);
    }
    const c: ChoiceCase = { id, kind: 'choice', options: shared, correct, correctIndex, ...base };
    return c;
  }

  // score
  const min = value['score_min'];
  const max = value['score_max'];
  const correct = value['correct'];
  if (!isFiniteNumber(min)) fail('score_min', min === undefined ? 'score_min is missing' : `score_min must be a finite number, got ${preview(min)}`);
  if (!isFiniteNumber(max)) fail('score_max', max === undefined ? 'score_max is missing' : `score_max must be a finite number, got ${preview(max)}`);
  if (!isFiniteNumber(correct)) fail('correct', correct === undefined ? 'correct is missing (a number)' : `correct must be a finite number, got ${preview(correct)}`);
  if (!isFiniteNumber(min) || !isFiniteNumber(max) || !isFiniteNumber(correct)) return null;
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
    fail('options', options === undefined ? 'options is missing (a list of 2 or more names)' : `options must be a list of 2 or more names, got ${preview(options)}`);
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

/** Blank lines (only whitespace) are skipped by every JSONL reader. */
export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  // Lines start with `{` in practice: only look further when the first character is space.
  return (c === 32 || c === 9 || c === 13 || c === 0xa0 || c === 0xfeff) && line.trim() === '';
}

export function jsonErrorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
