/**
 * The System One wire form of a question (`{"type", "instructions", "criteria"}`) and its
 * checked domain value. Pure: shared by the protocol layer and the dataset loaders, so the
 * two never disagree on what a valid question is.
 */
import type { ChoiceQuestion, NoulQuestion, Question, QuestionSet, ScoreQuestion } from './question.js';
import { assertNever } from './question.js';
import { isRecord, preview } from './json-value.js';

export const MIN_CHOICE_OPTIONS = 2;
export const MAX_CHOICE_OPTIONS = 255;
export const MIN_SCORE_LEVELS = 2;
export const MAX_SCORE_LEVELS = 10;

/** A problem with one wire question: the field (relative to the question) and what is wrong. */
export interface WireQuestionProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * Checks one wire question. Returns the domain question, or the first problem found.
 * Rules: `type` is `noul`, `choice` or `score` (lower-case); `instructions` a non-empty
 * string; `choice` criteria an object option -> description or null with 2..255 options;
 * `score` criteria an array of 2..10 strings; `noul` criteria optional, an object with
 * only `true`/`false` string descriptions. Unknown fields are a problem: a dataset or a
 * request that carries them is not what its author thinks it is.
 *
 * Option order is the key order of the parsed object. JavaScript lists integer-like keys
 * ("0", "12") before the others, so a choice whose option names are integers keeps their
 * ascending order, not the wire order; JSON.parse has already lost it.
 */
export function parseWireQuestion(value: unknown): Question | WireQuestionProblem {
  if (!isRecord(value)) return { field: '', message: `a question must be an object, got ${preview(value)}` };
  for (const key of Object.keys(value)) {
    if (key !== 'type' && key !== 'instructions' && key !== 'criteria') {
      return { field: key, message: `unknown field ${JSON.stringify(key)} (a question has type, instructions, criteria)` };
    }
  }
  const { type, instructions, criteria } = value;
  if (typeof instructions !== 'string' || instructions.trim().length === 0) {
    return { field: 'instructions', message: `instructions must be a non-empty string, got ${preview(instructions)}` };
  }
  switch (type) {
    case 'noul':
      return parseNoul(instructions, criteria);
    case 'choice':
      return parseChoice(instructions, criteria);
    case 'score':
      return parseScore(instructions, criteria);
    default: {
      const hint = typeof type === 'string' && ['noul', 'choice', 'score'].includes(type.toLowerCase()) ? ` (types are lower-case: ${type.toLowerCase()})` : ' (expected noul, choice or score)';
      return { field: 'type', message: `unknown question type ${preview(type)}${hint}` };
    }
  }
}

/** True when `parseWireQuestion` returned a problem. */
export function isWireQuestionProblem(v: Question | WireQuestionProblem): v is WireQuestionProblem {
  return 'message' in v;
}

function parseNoul(instructions: string, criteria: unknown): NoulQuestion | WireQuestionProblem {
  if (criteria === undefined) return { type: 'noul', instructions };
  if (!isRecord(criteria)) return { field: 'criteria', message: `noul criteria must be an object with "true"/"false" descriptions, got ${preview(criteria)}` };
  // Built in the wire's key order so re-serialising keeps it.
  const out: { true?: string; false?: string } = {};
  for (const [key, description] of Object.entries(criteria)) {
    if (key !== 'true' && key !== 'false') return { field: `criteria.${key}`, message: `noul criteria keys are "true" and "false", got ${JSON.stringify(key)}` };
    if (typeof description !== 'string') return { field: `criteria.${key}`, message: `description must be a string, got ${preview(description)}` };
    out[key] = description;
  }
  return { type: 'noul', instructions, criteria: out };
}

function parseChoice(instructions: string, criteria: unknown): ChoiceQuestion | WireQuestionProblem {
  if (!isRecord(criteria)) return { field: 'criteria', message: `choice criteria must be an object option -> description (or null), got ${preview(criteria)}` };
  const entries = Object.entries(criteria);
  if (entries.length < MIN_CHOICE_OPTIONS || entries.length > MAX_CHOICE_OPTIONS) {
    return { field: 'criteria', message: `a choice question has ${MIN_CHOICE_OPTIONS} to ${MAX_CHOICE_OPTIONS} options, got ${entries.length}` };
  }
  const options: string[] = [];
  const descriptions: (string | null)[] = [];
  for (const [option, description] of entries) {
    if (option.length === 0) return { field: 'criteria', message: 'an option name must not be empty' };
    if (description !== null && typeof description !== 'string') {
      return { field: `criteria.${option}`, message: `description must be a string or null, got ${preview(description)}` };
    }
    options.push(option);
    descriptions.push(description);
  }
  return { type: 'choice', instructions, options, descriptions };
}

function parseScore(instructions: string, criteria: unknown): ScoreQuestion | WireQuestionProblem {
  if (!Array.isArray(criteria)) return { field: 'criteria', message: `score criteria must be an array of level descriptions, got ${preview(criteria)}` };
  if (criteria.length < MIN_SCORE_LEVELS || criteria.length > MAX_SCORE_LEVELS) {
    return { field: 'criteria', message: `a score question has ${MIN_SCORE_LEVELS} to ${MAX_SCORE_LEVELS} levels, got ${criteria.length}` };
  }
  const levels: string[] = [];
  for (let i = 0; i < criteria.length; i++) {
    const level: unknown = criteria[i];
    if (typeof level !== 'string') return { field: `criteria[${i}]`, message: `a level description must be a string, got ${preview(level)}` };
    levels.push(level);
  }
  return { type: 'score', instructions, levels };
}

/** The wire form of a question: `parseWireQuestion(toWireQuestion(q))` equals `q`. */
export function toWireQuestion(question: Question): Record<string, unknown> {
  switch (question.type) {
    case 'noul':
      return question.criteria === undefined
        ? { type: 'noul', instructions: question.instructions }
        : { type: 'noul', instructions: question.instructions, criteria: { ...question.criteria } };
    case 'choice': {
      const criteria: Record<string, string | null> = {};
      question.options.forEach((option, i) => {
        criteria[option] = question.descriptions[i] ?? null;
      });
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
  const out: Record<string, Record<string, unknown>> = {};
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
      const criteria = c === undefined || (c.true === undefined && c.false === undefined) ? null : { false: c.false ?? null, true: c.true ?? null };
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
