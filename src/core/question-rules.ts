/**
 * The System One wire form of a question (`{"type", "instructions", "criteria"}`) and its
 * checked domain value. Pure, and the one place the question rules live: the protocol
 * layer (request validation) and the dataset loaders both call `parseWireQuestion`, so the
 * two never disagree on what a valid question is.
 */
import type { ChoiceQuestion, NoulQuestion, Question, QuestionSet, ScoreQuestion } from './question.js';
import { assertNever } from './question.js';
import { isRecord, preview } from './json-value.js';

/** Limits of the wire format (llama.cpp's). */
export const MIN_CHOICE_OPTIONS = 2;
export const MAX_CHOICE_OPTIONS = 255;
export const MIN_SCORE_LEVELS = 2;
export const MAX_SCORE_LEVELS = 10;

const QUESTION_TYPES = ['noul', 'choice', 'score'] as const;
const QUESTION_FIELDS = ['type', 'instructions', 'criteria'] as const;

/** A problem with one wire question: the field (relative to the question, '' for the whole) and what is wrong. */
export interface WireQuestionProblem {
  readonly field: string;
  readonly message: string;
}

export type ParsedWireQuestion =
  | { readonly ok: true; readonly question: Question }
  | { readonly ok: false; readonly problems: readonly WireQuestionProblem[] };

export interface WireQuestionOptions {
  /**
   * What a field other than `type`, `instructions` and `criteria` does. `'reject'` (the
   * default) reports it, for datasets, whose author should learn that a field is not read;
   * `'ignore'` skips it, for a server, which like llama.cpp ignores unknown keys.
   */
  readonly unknownFields?: 'reject' | 'ignore';
}

/**
 * Checks one wire question. Returns the domain question, or every problem found (a problem
 * in `instructions` does not hide one in `criteria`). Rules: `type` is `noul`, `choice` or
 * `score` (lower-case); `instructions` a string that is not blank; `choice` criteria an
 * object option -> description (a string or null) with 2..255 non-empty option names;
 * `score` criteria an array of 2..10 strings, lowest first; `noul` criteria optional (absent
 * or null), else an object with only `true`/`false` keys whose descriptions are strings
 * (a null description counts as absent, as parquet writes a missing struct field).
 *
 * Option order is the key order of the parsed object. JavaScript lists integer-like keys
 * ("0", "12") before the others, so a choice whose option names are integers keeps their
 * ascending order, not the wire order; JSON.parse has already lost it.
 */
export function parseWireQuestion(value: unknown, options: WireQuestionOptions = {}): ParsedWireQuestion {
  if (!isRecord(value)) return failed([{ field: '', message: `a question must be an object, got ${preview(value)}` }]);
  const problems: WireQuestionProblem[] = [];
  if (options.unknownFields !== 'ignore') {
    for (const key of Object.keys(value)) {
      if (!(QUESTION_FIELDS as readonly string[]).includes(key)) {
        problems.push({
          field: key,
          message: `unknown field ${JSON.stringify(key)} (a question has type, instructions, criteria)`,
        });
      }
    }
  }
  const { type, instructions, criteria } = value;
  if (typeof instructions !== 'string' || instructions.trim().length === 0) {
    problems.push({
      field: 'instructions',
      message: `instructions must be a non-empty string, got ${instructions === undefined ? 'nothing' : preview(instructions)}`,
    });
  }
  const text = typeof instructions === 'string' ? instructions : '';
  let question: Question | null;
  switch (type) {
    case 'noul':
      question = parseNoul(text, criteria, problems);
      break;
    case 'choice':
      question = parseChoice(text, criteria, problems);
      break;
    case 'score':
      question = parseScore(text, criteria, problems);
      break;
    default:
      problems.push({ field: 'type', message: unknownTypeMessage(type) });
      question = null;
  }
  return question !== null && problems.length === 0 ? { ok: true, question } : failed(problems);
}

function failed(problems: readonly WireQuestionProblem[]): ParsedWireQuestion {
  return { ok: false, problems };
}

function unknownTypeMessage(type: unknown): string {
  if (type === undefined) return 'type is missing (expected noul, choice or score)';
  const lower = typeof type === 'string' ? type.toLowerCase() : '';
  const hint = (QUESTION_TYPES as readonly string[]).includes(lower)
    ? `types are lower-case: ${lower}`
    : 'expected noul, choice or score';
  return `unknown question type ${preview(type)} (${hint})`;
}

function parseNoul(instructions: string, criteria: unknown, problems: WireQuestionProblem[]): NoulQuestion | null {
  if (criteria === undefined || criteria === null) return { type: 'noul', instructions };
  if (!isRecord(criteria)) {
    problems.push({
      field: 'criteria',
      message: `noul criteria must be an object with "true" and/or "false" descriptions, got ${preview(criteria)}`,
    });
    return null;
  }
  // Built in the wire's key order so rendering it again keeps that order.
  const out: { true?: string; false?: string } = {};
  let ok = true;
  for (const [key, description] of Object.entries(criteria)) {
    if (key !== 'true' && key !== 'false') {
      problems.push({
        field: `criteria.${key}`,
        message: `noul criteria keys are "true" and "false", got ${JSON.stringify(key)}`,
      });
      ok = false;
    } else if (typeof description === 'string') {
      out[key] = description;
    } else if (description !== null) {
      problems.push({
        field: `criteria.${key}`,
        message: `a noul description must be a string, got ${preview(description)}`,
      });
      ok = false;
    }
  }
  return ok ? { type: 'noul', instructions, criteria: out } : null;
}

function parseChoice(instructions: string, criteria: unknown, problems: WireQuestionProblem[]): ChoiceQuestion | null {
  if (!isRecord(criteria)) {
    problems.push({
      field: 'criteria',
      message: `choice criteria must be an object of option name -> description (or null), got ${criteria === undefined ? 'nothing' : preview(criteria)}`,
    });
    return null;
  }
  const options = Object.keys(criteria);
  if (options.length < MIN_CHOICE_OPTIONS || options.length > MAX_CHOICE_OPTIONS) {
    problems.push({
      field: 'criteria',
      message: `a choice question has ${MIN_CHOICE_OPTIONS} to ${MAX_CHOICE_OPTIONS} options, got ${options.length}`,
    });
    return null;
  }
  const descriptions: (string | null)[] = [];
  let ok = true;
  for (const option of options) {
    const description = criteria[option];
    if (option.length === 0) {
      problems.push({ field: 'criteria', message: 'an option name must not be empty' });
      ok = false;
    } else if (typeof description === 'string' || description === null) {
      descriptions.push(description);
    } else {
      problems.push({
        field: `criteria.${option}`,
        message: `the description of option ${JSON.stringify(option)} must be a string or null, got ${preview(description)}`,
      });
      ok = false;
    }
  }
  return ok ? { type: 'choice', instructions, options, descriptions } : null;
}

function parseScore(instructions: string, criteria: unknown, problems: WireQuestionProblem[]): ScoreQuestion | null {
  if (!Array.isArray(criteria)) {
    problems.push({
      field: 'criteria',
      message: `score criteria must be an array of level descriptions, lowest first, got ${criteria === undefined ? 'nothing' : preview(criteria)}`,
    });
    return null;
  }
  if (criteria.length < MIN_SCORE_LEVELS || criteria.length > MAX_SCORE_LEVELS) {
    problems.push({
      field: 'criteria',
      message: `a score question has ${MIN_SCORE_LEVELS} to ${MAX_SCORE_LEVELS} levels, got ${criteria.length}`,
    });
    return null;
  }
  const levels: string[] = [];
  for (let i = 0; i < criteria.length; i++) {
    const level: unknown = criteria[i];
    if (typeof level === 'string') levels.push(level);
    else problems.push({ field: `criteria[${i}]`, message: `level ${i} must be a string, got ${preview(level)}` });
  }
  return levels.length === criteria.length ? { type: 'score', instructions, levels } : null;
}

/**
 * The wire form of a question, the one place a question becomes wire JSON:
 * `parseWireQuestion(toWireQuestion(q))` equals `q`. Choice criteria are a null-prototype
 * object, so an option named `__proto__` stays an own key. (An object moves integer-like
 * keys to the front: the protocol's `renderWireQuestions` writes such options in order.)
 */
export function toWireQuestion(question: Question): Record<string, unknown> {
  switch (question.type) {
    case 'noul':
      return question.criteria === undefined
        ? { type: 'noul', instructions: question.instructions }
        : { type: 'noul', instructions: question.instructions, criteria: { ...question.criteria } };
    case 'choice': {
      const criteria = Object.create(null) as Record<string, string | null>;
      for (let i = 0; i < question.options.length; i++)
        criteria[question.options[i]!] = question.descriptions[i] ?? null;
      return { type: 'choice', instructions: question.instructions, criteria };
    }
    case 'score':
      return { type: 'score', instructions: question.instructions, criteria: [...question.levels] };
    default:
      return assertNever(question);
  }
}

/** The wire `questions` object of a request, in the set's order. */
export function toWireQuestions(questions: QuestionSet): Record<string, Record<string, unknown>> {
  // Null prototype, so a question id "__proto__" stays an own key.
  const out = Object.create(null) as Record<string, Record<string, unknown>>;
  for (const [id, question] of questions) out[id] = toWireQuestion(question);
  return out;
}

/**
 * A canonical text of a question for hashing: JSON with object keys sorted, except that a
 * choice question's options keep their order (as `[option, description]` pairs), because
 * option order is part of the question. Two questions get the same text exactly when they
 * are the same question.
 */
export function canonicalQuestionText(question: Question): string {
  switch (question.type) {
    case 'noul': {
      const c = question.criteria;
      const criteria =
        c === undefined || (c.true === undefined && c.false === undefined)
          ? null
          : { false: c.false ?? null, true: c.true ?? null };
      return JSON.stringify({ criteria, instructions: question.instructions, type: 'noul' });
    }
    case 'choice':
      return JSON.stringify({
        criteria: question.options.map((o, i) => [o, question.descriptions[i] ?? null]),
        instructions: question.instructions,
        type: 'choice',
      });
    case 'score':
      return JSON.stringify({ criteria: question.levels, instructions: question.instructions, type: 'score' });
    default:
      return assertNever(question);
  }
}
