/**
 * Checks one decoded Typed Decisions row:
 * `{"id", "workflow", "state", "questions": {qid: wire question}, "gold": {qid: {"label", "probabilities": {answer: p}}}}`.
 */
import { parseStrictJson } from '../../core/strict-json.js';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import type { GoldAnswer } from '../../core/decision-score.js';
import { isRecord, preview } from '../../core/json-value.js';
import type { Question, QuestionSet } from '../../core/question.js';
import { answersOf, PROBABILITY_SUM_TOLERANCE } from '../../core/question.js';
import { parseWireQuestion } from '../../core/question-rules.js';

/** A label ties with the most likely answer within this. */
const TIE_TOLERANCE = 1e-9;

export interface RowProblem {
  readonly field: string;
  readonly message: string;
}

export type ParsedRow =
  | { readonly ok: true; readonly benchCase: TypedDecisionsCase }
  | { readonly ok: false; readonly caseId: string | undefined; readonly problems: readonly RowProblem[] };

/**
 * Parses a decoded row into a TypedDecisionsCase, or lists every problem found. A `state` string
 * holding a JSON object or array (the parquet form) is decoded, because the model must
 * receive the object; any other string is kept as a text state.
 */
export function parseDecodedRow(value: unknown, checkedQuestions?: QuestionSet): ParsedRow {
  if (!isRecord(value))
    return {
      ok: false,
      caseId: undefined,
      problems: [{ field: '', message: `a row must be a JSON object, got ${preview(value)}` }],
    };
  const problems: RowProblem[] = [];
  const { id, workflow } = value;
  const caseId = typeof id === 'string' && id.length > 0 ? id : undefined;
  if (caseId === undefined)
    problems.push({ field: 'id', message: `id must be a non-empty string, got ${preview(id)}` });
  if (typeof workflow !== 'string' || workflow.length === 0)
    problems.push({ field: 'workflow', message: `workflow must be a non-empty string, got ${preview(workflow)}` });

  const state = parseState(value['state'], problems);
  // Questions checked with the same text before are not read again.
  const questions = checkedQuestions ?? parseQuestions(value['questions'], problems);
  const gold = questions === null ? null : parseGold(value['gold'], questions, problems);

  if (
    problems.length > 0 ||
    caseId === undefined ||
    typeof workflow !== 'string' ||
    state === null ||
    questions === null ||
    gold === null
  ) {
    return { ok: false, caseId, problems };
  }
  return { ok: true, benchCase: { id: caseId, workflow, state, questions, gold } };
}

/**
 * The case of a row that was checked before (by `parseDecodedRow`, its bytes unchanged since),
 * with that check's questions: only its state and gold are built again; null if the row no
 * longer passes (the caller then checks it in full for the message).
 */
export function caseOfCheckedRow(value: Record<string, unknown>, questions: QuestionSet): TypedDecisionsCase | null {
  const { id, workflow } = value;
  if (typeof id !== 'string' || typeof workflow !== 'string') return null;
  const problems: RowProblem[] = [];
  const state = parseState(value['state'], problems);
  const gold = checkedGold(value['gold'], questions);
  if (state === null || gold === null || problems.length > 0) return null;
  return { id, workflow, state, questions, gold };
}

/**
 * The gold answers of a checked row, as `parseGold` gives them (probabilities in the order of
 * the question's answers, the label's index) without its checks; null if it no longer fits.
 */
function checkedGold(gold: unknown, questions: QuestionSet): GoldAnswer[] | null {
  if (!isRecord(gold)) return null;
  const out: GoldAnswer[] = [];
  for (const [qid, question] of questions) {
    const entry = gold[qid];
    if (!isRecord(entry) || !isRecord(entry['probabilities'])) return null;
    const given = entry['probabilities'];
    const answers = answersOf(question);
    const probabilities: number[] = [];
    for (const answer of answers) {
      const p = given[answer];
      if (typeof p !== 'number') return null;
      probabilities.push(p);
    }
    const labelIndex = answers.indexOf(entry['label'] as string);
    if (labelIndex === -1) return null;
    out.push({ labelIndex, probabilities });
  }
  return out;
}

function parseState(state: unknown, problems: RowProblem[]): string | object | null {
  if (typeof state === 'string') {
    const trimmed = state.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      const decoded = parseStrictJson(state);
      if (decoded.ok && typeof decoded.value === 'object' && decoded.value !== null) return decoded.value;
      if (!decoded.ok && decoded.problem !== 'syntax') {
        problems.push({ field: 'state', message: `state ${decoded.message}` });
        return null;
      }
      // Otherwise not JSON after all: a text state that happens to start with a bracket.
    }
    if (state.length === 0) {
      problems.push({ field: 'state', message: 'state must not be an empty string' });
      return null;
    }
    return state;
  }
  if (typeof state === 'object' && state !== null) return state;
  problems.push({ field: 'state', message: `state must be an object or a string, got ${preview(state)}` });
  return null;
}

function parseQuestions(questions: unknown, problems: RowProblem[]): [string, Question][] | null {
  if (!isRecord(questions)) {
    problems.push({
      field: 'questions',
      message: `questions must be an object question id -> question, got ${preview(questions)}`,
    });
    return null;
  }
  const out: [string, Question][] = [];
  let bad = false;
  for (const [qid, wire] of Object.entries(questions)) {
    const parsed = parseWireQuestion(wire);
    if (parsed.ok) {
      out.push([qid, parsed.question]);
      continue;
    }
    bad = true;
    for (const p of parsed.problems) {
      const field = p.field === '' ? `questions.${qid}` : `questions.${qid}.${p.field}`;
      problems.push({ field, message: `question ${qid}: ${p.field === '' ? '' : `${p.field}: `}${p.message}` });
    }
  }
  if (out.length === 0 && !bad) {
    problems.push({ field: 'questions', message: 'questions must hold at least one question' });
    return null;
  }
  return bad ? null : out.slice();
}

function parseGold(
  gold: unknown,
  questions: readonly (readonly [string, Question])[],
  problems: RowProblem[],
): GoldAnswer[] | null {
  if (!isRecord(gold)) {
    problems.push({
      field: 'gold',
      message: `gold must be an object question id -> {label, probabilities}, got ${preview(gold)}`,
    });
    return null;
  }
  const asked = new Set(questions.map(([qid]) => qid));
  for (const qid of Object.keys(gold)) {
    if (!asked.has(qid))
      problems.push({ field: `gold.${qid}`, message: `question ${qid}: gold for a question that was not asked` });
  }
  const out: GoldAnswer[] = [];
  let bad = false;
  for (const [qid, question] of questions) {
    const entry = gold[qid];
    const answer = entry === undefined ? null : parseGoldAnswer(qid, question, entry, problems);
    if (entry === undefined)
      problems.push({ field: `gold.${qid}`, message: `question ${qid}: no gold for an asked question` });
    if (answer === null) bad = true;
    else out.push(answer);
  }
  return bad ? null : out;
}

function parseGoldAnswer(qid: string, question: Question, entry: unknown, problems: RowProblem[]): GoldAnswer | null {
  // Worded only when something is wrong: a valid gold answer (every one of a large file) makes no message parts.
  const fail = (sub: string, message: string): null => {
    const field = `gold.${qid}`;
    problems.push({ field: sub === '' ? field : `${field}.${sub}`, message: `question ${qid}: ${message}` });
    return null;
  };
  if (!isRecord(entry)) return fail('', `gold must be an object {label, probabilities}, got ${preview(entry)}`);
  const answers = answersOf(question);
  const { label, probabilities } = entry;
  if (!isRecord(probabilities))
    return fail(
      'probabilities',
      `gold probabilities must be an object answer -> probability, got ${preview(probabilities)}`,
    );

  const unknown = unknownAnswers(Object.keys(probabilities), answers);
  if (unknown.length > 0) {
    return fail(
      'probabilities',
      `gold has unknown answer${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (answers: ${answers.join(', ')})`,
    );
  }
  const aligned: number[] = [];
  for (const answer of answers) {
    const p = probabilities[answer];
    if (p === undefined)
      return fail(
        'probabilities',
        `gold has no probability for answer ${JSON.stringify(answer)} (answers: ${answers.join(', ')})`,
      );
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) {
      return fail(
        `probabilities.${answer}`,
        `gold probability of ${JSON.stringify(answer)} must be a finite number in [0, 1], got ${preview(p)}`,
      );
    }
    aligned.push(p);
  }
  let sum = 0;
  for (const p of aligned) sum += p;
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE + 1e-12) {
    return fail(
      'probabilities',
      `gold probabilities sum to ${formatSum(sum)}, expected 1 (within ${PROBABILITY_SUM_TOLERANCE})`,
    );
  }
  if (typeof label !== 'string') return fail('label', `gold label must be a string, got ${preview(label)}`);
  const labelIndex = answers.indexOf(label);
  if (labelIndex === -1)
    return fail('label', `gold label ${JSON.stringify(label)} is not an answer (answers: ${answers.join(', ')})`);
  let max = -Infinity;
  for (const p of aligned) if (p > max) max = p;
  if ((aligned[labelIndex] as number) < max - TIE_TOLERANCE) {
    const top = answers.filter((_, i) => (aligned[i] as number) >= max - TIE_TOLERANCE);
    return fail(
      'label',
      `gold label ${JSON.stringify(label)} (p=${aligned[labelIndex]}) is not one of the most likely answers (${top.join(', ')} at p=${max})`,
    );
  }
  // slice: an array grown by push keeps spare capacity, and a large dataset holds many.
  return { labelIndex, probabilities: aligned.slice() };
}

/** The keys that are not answers, in their order; a few answers are searched, many put in a set. */
function unknownAnswers(keys: readonly string[], answers: readonly string[]): string[] {
  if (answers.length > 16) {
    const known = new Set(answers);
    return keys.filter((k) => !known.has(k));
  }
  const unknown: string[] = [];
  for (const k of keys) if (!answers.includes(k)) unknown.push(k);
  return unknown;
}

function formatSum(sum: number): string {
  return String(Math.round(sum * 1e6) / 1e6);
}
