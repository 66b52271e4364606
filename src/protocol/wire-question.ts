import type { NoulQuestion, Question, QuestionSet } from '../core/question.js';
import { assertNever } from '../core/question.js';
import { isNonEmptyString, isRecord, preview } from '../core/json-value.js';

/** Limits of the wire format (llama.cpp's). */
export const MIN_CHOICE_OPTIONS = 2;
export const MAX_CHOICE_OPTIONS = 255;
export const MIN_SCORE_LEVELS = 2;
export const MAX_SCORE_LEVELS = 10;

/** One problem in a wire `questions` value: which question, which field, what is wrong. */
export interface WireQuestionProblem {
  /** The question id, or null for a problem with the whole `questions` value. */
  readonly questionId: string | null;
  /** Field path, e.g. `questions.route.criteria`. */
  readonly field: string;
  readonly message: string;
}

export type ParsedWireQuestions =
  | { readonly ok: true; readonly questions: QuestionSet }
  | { readonly ok: false; readonly problems: readonly WireQuestionProblem[] };

/**
 * Parses a wire `questions` object (id -> question) into domain questions, in the order
 * given. Returns every problem found, each naming the question id and field; `where` is
 * the field-path prefix of the value (e.g. `questions`).
 *
 * Limitation: the value usually comes from `JSON.parse`, which moves integer-like keys
 * ("0", "1", "12") to the front of an object in ascending numeric order. A choice whose
 * option names are such keys therefore arrives re-ordered, and so do integer-like question
 * ids. Word option names (every Typed Decisions question) are unaffected. Requests built
 * by this module (`renderDecideRequest`) keep the given order, because they are written
 * without going through an object.
 */
export function parseWireQuestions(value: unknown, where: string): ParsedWireQuestions {
  const problems: WireQuestionProblem[] = [];
  if (!isRecord(value)) {
    return {
      ok: false,
      problems: [{ questionId: null, field: where, message: `must be an object of question id -> question, got ${preview(value)}` }],
    };
  }
  const ids = Object.keys(value);
  if (ids.length === 0) {
    return { ok: false, problems: [{ questionId: null, field: where, message: 'must hold at least one question, got {}' }] };
  }
  const out: Array<readonly [string, Question]> = [];
  for (const id of ids) {
    const q = parseWireQuestion(id, value[id], `${where}.${id}`, problems);
    if (q !== null) out.push([id, q]);
  }
  return problems.length === 0 ? { ok: true, questions: out } : { ok: false, problems };
}

function parseWireQuestion(id: string, raw: unknown, field: string, problems: WireQuestionProblem[]): Question | null {
  const bad = (f: string, message: string): null => {
    problems.push({ questionId: id, field: f, message });
    return null;
  };
  if (id.length === 0) return bad(field, 'question id must be non-empty');
  if (!isRecord(raw)) return bad(field, `question ${JSON.stringify(id)} must be an object, got ${preview(raw)}`);
  const { type, instructions, criteria } = raw;
  const before = problems.length;
  if (!isNonEmptyString(instructions)) {
    bad(`${field}.instructions`, `question ${JSON.stringify(id)}: instructions must be a non-empty string, got ${instructions === undefined ? 'nothing' : preview(instructions)}`);
  }
  const instr = typeof instructions === 'string' ? instructions : '';
  switch (type) {
    case 'noul': {
      const q = parseNoulCriteria(id, criteria, `${field}.criteria`, problems);
      if (q === null || problems.length > before) return null;
      return q.criteria === undefined ? { type: 'noul', instructions: instr } : { type: 'noul', instructions: instr, criteria: q.criteria };
    }
    case 'choice': {
      const c = parseChoiceCriteria(id, criteria, `${field}.criteria`, problems);
      if (c === null || problems.length > before) return null;
      return { type: 'choice', instructions: instr, options: c.options, descriptions: c.descriptions };
    }
    case 'score': {
      const levels = parseScoreCriteria(id, criteria, `${field}.criteria`, problems);
      if (levels === null || problems.length > before) return null;
      return { type: 'score', instructions: instr, levels };
    }
    default:
      return bad(
        `${field}.type`,
        `question ${JSON.stringify(id)}: ${type === undefined ? 'type is missing' : `unknown type ${preview(type)}`} (expected "noul", "choice" or "score")`,
      );
  }
}

function parseNoulCriteria(
  id: string,
  criteria: unknown,
  field: string,
  problems: WireQuestionProblem[],
): { criteria: NoulQuestion['criteria'] } | null {
  if (criteria === undefined || criteria === null) return { criteria: undefined };
  if (!isRecord(criteria)) {
    problems.push({ questionId: id, field, message: `question ${JSON.stringify(id)}: noul criteria must be an object with "true" and/or "false" descriptions, got ${preview(criteria)}` });
    return null;
  }
  // Built in the wire's key order, so rendering it again keeps that order.
  const out: { true?: string; false?: string } = {};
  for (const key of Object.keys(criteria)) {
    const v = criteria[key];
    if (key !== 'true' && key !== 'false') {
      problems.push({ questionId: id, field: `${field}.${key}`, message: `question ${JSON.stringify(id)}: noul criteria may only have "true" and "false", got ${JSON.stringify(key)}` });
    } else if (typeof v === 'string') {
      out[key] = v;
    } else if (v !== null) {
      problems.push({ questionId: id, field: `${field}.${key}`, message: `question ${JSON.stringify(id)}: noul criteria ${JSON.stringify(key)} must be a string, got ${preview(v)}` });
    }
  }
  return { criteria: out };
}

function parseChoiceCriteria(
  id: string,
  criteria: unknown,
  field: string,
  problems: WireQuestionProblem[],
): { options: string[]; descriptions: (string | null)[] } | null {
  if (!isRecord(criteria)) {
    problems.push({
      questionId: id,
      field,
      message: `question ${JSON.stringify(id)}: choice criteria must be an object of option name -> description, got ${criteria === undefined ? 'nothing' : preview(criteria)}`,
    });
    return null;
  }
  const options = Object.keys(criteria);
  if (options.length < MIN_CHOICE_OPTIONS || options.length > MAX_CHOICE_OPTIONS) {
    problems.push({
      questionId: id,
      field,
      message: `question ${JSON.stringify(id)}: a choice needs ${MIN_CHOICE_OPTIONS} to ${MAX_CHOICE_OPTIONS} options, got ${options.length}`,
    });
    return null;
  }
  const descriptions: (string | null)[] = [];
  let ok = true;
  for (const option of options) {
    const d = criteria[option];
    if (option.length === 0) {
      problems.push({ questionId: id, field, message: `question ${JSON.stringify(id)}: option names must be non-empty` });
      ok = false;
    } else if (typeof d === 'string' || d === null) {
      descriptions.push(d);
    } else {
      problems.push({ questionId: id, field: `${field}.${option}`, message: `question ${JSON.stringify(id)}: description of option ${JSON.stringify(option)} must be a string or null, got ${preview(d)}` });
      ok = false;
    }
  }
  return ok ? { options, descriptions } : null;
}

function parseScoreCriteria(id: string, criteria: unknown, field: string, problems: WireQuestionProblem[]): string[] | null {
  if (!Array.isArray(criteria)) {
    problems.push({
      questionId: id,
      field,
      message: `question ${JSON.stringify(id)}: score criteria must be an array of level descriptions, lowest first, got ${criteria === undefined ? 'nothing' : preview(criteria)}`,
    });
    return null;
  }
  if (criteria.length < MIN_SCORE_LEVELS || criteria.length > MAX_SCORE_LEVELS) {
    problems.push({ questionId: id, field, message: `question ${JSON.stringify(id)}: a score needs ${MIN_SCORE_LEVELS} to ${MAX_SCORE_LEVELS} levels, got ${criteria.length}` });
    return null;
  }
  const levels: string[] = [];
  criteria.forEach((d: unknown, i) => {
    if (typeof d === 'string') levels.push(d);
    else problems.push({ questionId: id, field: `${field}[${i}]`, message: `question ${JSON.stringify(id)}: level ${i} must be a string, got ${preview(d)}` });
  });
  return levels.length === criteria.length ? levels : null;
}

/**
 * The wire JSON of questions, in the given order: choice criteria are written option by
 * option (never via an object, so integer-like option names keep their place).
 */
export function renderWireQuestions(questions: QuestionSet): string {
  // Fast path: one native JSON.stringify of plain objects, when no key would be moved.
  if (!questions.some(([id, q]) => isIndexKey(id) || (q.type === 'choice' && q.options.some(isIndexKey)))) {
    // Null-prototype objects, so an id or option named "__proto__" stays an own key.
    const wire: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [id, q] of questions) wire[id] = wireObject(q);
    return JSON.stringify(wire);
  }
  let out = '{';
  for (let i = 0; i < questions.length; i++) {
    const [id, q] = questions[i]!;
    if (i > 0) out += ',';
    out += `${JSON.stringify(id)}:${renderWireQuestion(q)}`;
  }
  return `${out}}`;
}

/** A key JS objects order first: a canonical array index ("0", "17"; not "01" or "-1"). */
function isIndexKey(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  return String(Number(key) >>> 0) === key && key !== '4294967295';
}

function wireObject(q: Question): object {
  switch (q.type) {
    case 'noul':
      return q.criteria === undefined ? { type: 'noul', instructions: q.instructions } : { type: 'noul', instructions: q.instructions, criteria: q.criteria };
    case 'choice': {
      const criteria = Object.create(null) as Record<string, string | null>;
      for (let i = 0; i < q.options.length; i++) criteria[q.options[i]!] = q.descriptions[i] ?? null;
      return { type: 'choice', instructions: q.instructions, criteria };
    }
    case 'score':
      return { type: 'score', instructions: q.instructions, criteria: q.levels };
    default:
      return assertNever(q);
  }
}

export function renderWireQuestion(q: Question): string {
  const head = `{"type":"${q.type}","instructions":${JSON.stringify(q.instructions)}`;
  switch (q.type) {
    case 'noul': {
      if (q.criteria === undefined) return `${head}}`;
      const parts = Object.keys(q.criteria)
        .filter((k): k is 'true' | 'false' => (k === 'true' || k === 'false') && q.criteria?.[k] !== undefined)
        .map((k) => `"${k}":${JSON.stringify(q.criteria![k])}`);
      return `${head},"criteria":{${parts.join(',')}}}`;
    }
    case 'choice':
      return `${head},"criteria":{${q.options.map((o, i) => `${JSON.stringify(o)}:${JSON.stringify(q.descriptions[i] ?? null)}`).join(',')}}}`;
    case 'score':
      return `${head},"criteria":${JSON.stringify(q.levels)}}`;
    default:
      return assertNever(q);
  }
}

