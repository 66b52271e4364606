import type { PredictedAnswers } from '../../core/typed-decisions/case-result.js';
import type { Question, QuestionSet } from '../../core/question.js';
import { answersOf, assertNever, PROBABILITY_SUM_TOLERANCE } from '../../core/question.js';
import { isFiniteNumber, isRecord, preview } from '../../core/json-value.js';

export interface ParsedDecideResponse {
  /** Aligned with the asked questions and each question's `answersOf` order. */
  readonly predicted: PredictedAnswers;
  /** `usage.input_tokens`; null when absent or null. Anything but a whole number in [0, MAX_INPUT_TOKENS] rejects the response. */
  readonly inputTokens: number | null;
  /** The response's `model` when it is a string, else null. */
  readonly model: string | null;
}

export type DecideResponseParse =
  { readonly ok: true; readonly value: ParsedDecideResponse } | { readonly ok: false; readonly reason: string };

/**
 * Most prompt tokens one request may report. Far above any real prompt; it keeps a run's
 * token sum exact (well inside 2^53) instead of letting a server's 1e308 overflow it.
 */
export const MAX_INPUT_TOKENS = 1_000_000_000;

function isTokenCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_INPUT_TOKENS;
}

const fail = (reason: string): DecideResponseParse => ({ ok: false, reason });
const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Strictly checks a decoded `/v1/systemone` response against the asked questions and builds
 * the predicted distributions. Rejected: not an object; `answers` missing or not an object;
 * an asked question unanswered; an answer of another type; choice/score without
 * `probabilities`, noul without `noul`; a probability that is not a finite number in [0,1];
 * a choice/score sum (over every key given) more than 0.01 from 1, or naming no known
 * answer. Answers to questions not asked are ignored. Distributions: missing answers -> 0,
 * extra keys ignored, no renormalisation; noul -> [p, 1 - p]. The server's `choice`,
 * `score` and `confidence` are never read.
 */
export function parseDecideResponse(body: unknown, questions: QuestionSet): DecideResponseParse {
  if (!isRecord(body)) return fail(`the body is not a JSON object (got ${preview(body, 40)})`);
  const answers = body['answers'];
  if (answers === undefined) return fail('the body has no "answers" object');
  if (!isRecord(answers)) return fail(`"answers" is not an object (got ${preview(answers, 40)})`);
  const predicted: (readonly number[])[] = [];
  for (const [id, question] of questions) {
    if (!own(answers, id)) return fail(`question ${id}: not answered`);
    const distribution = checkedDistribution(id, question, answers[id]);
    if (typeof distribution === 'string') return fail(distribution);
    predicted.push(distribution);
  }
  const usage = body['usage'];
  const tokens = isRecord(usage) ? usage['input_tokens'] : undefined;
  if (tokens !== undefined && tokens !== null && !isTokenCount(tokens))
    return fail(
      `usage.input_tokens is not a whole number from 0 to ${MAX_INPUT_TOKENS} (got ${describeNumber(tokens)})`,
    );
  const inputTokens = tokens === undefined || tokens === null ? null : (tokens as number);
  const model = typeof body['model'] === 'string' ? body['model'] : null;
  return { ok: true, value: { predicted, inputTokens, model } };
}

function describeNumber(v: unknown): string {
  return typeof v === 'number' ? String(v) : preview(v, 30);
}

/**
 * The distributions a decoded answer body gives, leniently (the robustness probes read
 * answers this way; the conformance checks and `parseDecideResponse` judge the rules):
 * per asked question, aligned with its answers, or null when it cannot be read (no answer,
 * `noul` not a finite number, an asked answer's probability that is not one). A missing
 * answer counts as 0; nothing is renormalised; no range or sum is checked.
 */
export function readDistributions(body: unknown, questions: QuestionSet): (number[] | null)[] {
  const answers = isRecord(body) ? body['answers'] : undefined;
  return questions.map(([id, q]) =>
    readAnswerDistribution(q, isRecord(answers) && own(answers, id) ? answers[id] : undefined),
  );
}

/** One answer's distribution, leniently (see `readDistributions`); null when it cannot be read. */
function readAnswerDistribution(question: Question, answer: unknown): number[] | null {
  if (!isRecord(answer)) return null;
  switch (question.type) {
    case 'noul': {
      const p = answer['noul'];
      return isFiniteNumber(p) ? [p, 1 - p] : null;
    }
    case 'choice':
    case 'score': {
      const probs = answer['probabilities'];
      if (!isRecord(probs)) return null;
      const out: number[] = [];
      for (const name of answersOf(question)) {
        const p = own(probs, name) ? probs[name] : 0;
        if (!isFiniteNumber(p)) return null;
        out.push(p);
      }
      return out;
    }
    default:
      return assertNever(question);
  }
}

/**
 * The answer's distribution (as `readAnswerDistribution` reads it) when it keeps every rule,
 * else the reason it is rejected: checked and read in one pass over its probabilities.
 */
function checkedDistribution(id: string, question: Question, answer: unknown): number[] | string {
  if (!isRecord(answer)) return `question ${id}: answer is not an object (got ${preview(answer, 40)})`;
  const type = answer['type'];
  if (type !== undefined && type !== question.type)
    return `question ${id}: answered as type ${preview(type, 20)}, asked as ${question.type}`;
  switch (question.type) {
    case 'noul': {
      if (!own(answer, 'noul')) return `question ${id}: noul answer has no "noul" probability`;
      const p = answer['noul'];
      if (typeof p !== 'number' || !Number.isFinite(p))
        return `question ${id}: "noul" is not a finite number (got ${describeNumber(p)})`;
      if (p < 0 || p > 1) return `question ${id}: "noul" ${p} is outside [0, 1]`;
      return [p, 1 - p];
    }
    case 'choice':
    case 'score':
      return checkedProbabilities(id, question.type, answersOf(question), answer);
    default:
      return assertNever(question);
  }
}

function checkedProbabilities(
  id: string,
  type: string,
  names: readonly string[],
  answer: Record<string, unknown>,
): number[] | string {
  const probs = answer['probabilities'];
  if (probs === undefined) return `question ${id}: ${type} answer has no "probabilities"`;
  if (!isRecord(probs)) return `question ${id}: "probabilities" is not an object (got ${preview(probs, 40)})`;
  for (const key in probs) {
    if (!own(probs, key)) continue;
    const p = probs[key];
    if (typeof p !== 'number' || !Number.isFinite(p))
      return `question ${id}: probability of ${JSON.stringify(key)} is not a finite number (got ${describeNumber(p)})`;
    if (p < 0 || p > 1) return `question ${id}: probability of ${JSON.stringify(key)} is ${p}, outside [0, 1]`;
  }
  // The sum covers the asked answers only: mass on keys that are not answers is ignored for
  // scoring, so it must not make a short distribution look whole. A missing answer is 0.
  let sum = 0;
  let known = 0;
  const out: number[] = [];
  for (const name of names) {
    if (!own(probs, name)) {
      out.push(0);
      continue;
    }
    const p = probs[name] as number;
    sum += p;
    known++;
    out.push(p);
  }
  if (known === 0)
    return `question ${id}: probabilities name none of the answers (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''})`;
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE)
    return `question ${id}: probabilities of its answers sum to ${sum}, not within ${PROBABILITY_SUM_TOLERANCE} of 1`;
  return out;
}
