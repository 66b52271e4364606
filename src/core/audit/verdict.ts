import { isRecord, preview } from '../json-value.js';
import { assertNever } from '../question.js';
import { topAnswerOf } from '../order-flips.js';
import { UNCLEAR } from './check.js';

/** How far the judge's probabilities may sum from 1. */
export const AUDIT_SUM_TOLERANCE = 0.001;

/** Why an audit has no verdict. */
export type UnavailableReason =
  | 'request_error'
  | 'timeout'
  | 'malformed_answer'
  | 'invalid_answer'
  | 'no_evidence'
  | 'empty_messages'
  | 'input_too_large';

export type AbstainReason = 'unclear' | 'tie';

/** A judge answer that passed every check. */
export interface JudgeAnswer {
  /** The top option (the server's own `choice`, checked to be the top one). */
  readonly choice: string;
  /** Probability per asked option, in asked order. */
  readonly probabilities: Readonly<Record<string, number>>;
}

/** The comparison of one audit with the deterministic label. */
export type AuditOutcome =
  | { readonly status: 'agrees'; readonly answer: JudgeAnswer }
  | { readonly status: 'disagrees'; readonly answer: JudgeAnswer }
  | { readonly status: 'abstained'; readonly reason: AbstainReason; readonly answer: JudgeAnswer }
  | { readonly status: 'unavailable'; readonly reason: UnavailableReason; readonly message: string };

/** Why a verdict is unavailable when the judge, not the input, failed to give one. */
export const JUDGE_FAILURE_REASONS: readonly UnavailableReason[] = [
  'request_error',
  'timeout',
  'malformed_answer',
  'invalid_answer',
];

/** Verdicts the judge failed to give, per reason counts given; the audit is incomplete when any. */
export function judgeFailureCount(unavailable: Readonly<Partial<Record<UnavailableReason, number>>>): number {
  return JUDGE_FAILURE_REASONS.reduce((n, reason) => n + (unavailable[reason] ?? 0), 0);
}

/** Why a verdict is unavailable when the input, not the judge, could not be judged. */
export const INPUT_FAILURE_REASONS: readonly UnavailableReason[] = ['no_evidence', 'empty_messages', 'input_too_large'];

/**
 * Whether an audit judged nothing: items were audited and not one has a verdict of the judge
 * (each is unavailable). Such an audit is incomplete even when the input alone is to blame,
 * so a CI job never passes on a judge that judged nothing.
 */
export function judgedNothing(audited: number, counts: Readonly<Record<AuditStatus, number>>): boolean {
  return audited > 0 && counts.unavailable === audited;
}

export type AuditStatus = AuditOutcome['status'];
export const AUDIT_STATUSES: readonly AuditStatus[] = ['agrees', 'disagrees', 'abstained', 'unavailable'];

/** Audits the judge answered with one of the options (agrees + disagrees): agreement's denominator. */
export function comparedCount(counts: Readonly<Record<AuditStatus, number>>): number {
  return counts.agrees + counts.disagrees;
}

/** Audits without a verdict: the judge abstained or could not be asked (abstained + unavailable). */
export function noVerdictCount(counts: Readonly<Record<AuditStatus, number>>): number {
  return counts.abstained + counts.unavailable;
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Checks a decoded response to the one-question audit request. `malformed`: no answers
 * object, no answer to the question, no probabilities object. `invalid`: the probabilities
 * do not cover exactly the asked options, one is not a finite number in [0, 1], they sum
 * more than 0.001 from 1, or the server's `choice` is missing or not a top option.
 */
export function parseJudgeAnswer(
  body: unknown,
  questionId: string,
  options: readonly string[],
):
  | { readonly ok: true; readonly answer: JudgeAnswer }
  | { readonly ok: false; readonly reason: 'malformed_answer' | 'invalid_answer'; readonly message: string } {
  const malformed = (message: string) => ({ ok: false, reason: 'malformed_answer', message }) as const;
  const invalid = (message: string) => ({ ok: false, reason: 'invalid_answer', message }) as const;
  if (!isRecord(body)) return malformed(`the body is not a JSON object (got ${preview(body, 40)})`);
  const answers = body['answers'];
  if (!isRecord(answers)) return malformed('the body has no "answers" object');
  const answer = answers[questionId];
  if (!isRecord(answer)) return malformed(`question ${questionId} is not answered`);
  const probs = answer['probabilities'];
  if (!isRecord(probs)) return malformed(`question ${questionId} has no "probabilities" object`);
  const extra = Object.keys(probs).filter((k) => !options.includes(k));
  if (extra.length > 0) return invalid(`probabilities name ${JSON.stringify(extra[0])}, not an asked option`);
  const missing = options.filter((o) => !own(probs, o));
  if (missing.length > 0) return invalid(`probabilities leave out ${JSON.stringify(missing[0])}`);
  const out: Record<string, number> = {};
  let sum = 0;
  for (const o of options) {
    const p = probs[o];
    if (typeof p !== 'number' || !Number.isFinite(p))
      return invalid(`probability of ${JSON.stringify(o)} is not a finite number (got ${preview(p, 20)})`);
    if (p < 0 || p > 1) return invalid(`probability of ${JSON.stringify(o)} is ${p}, outside [0, 1]`);
    out[o] = p;
    sum += p;
  }
  if (Math.abs(sum - 1) > AUDIT_SUM_TOLERANCE)
    return invalid(`probabilities sum to ${sum}, not within ${AUDIT_SUM_TOLERANCE} of 1`);
  const choice = answer['choice'];
  if (typeof choice !== 'string' || !options.includes(choice))
    return invalid(`"choice" is ${choice === undefined ? 'missing' : `${preview(choice, 30)}, not an asked option`}`);
  const top = Math.max(...options.map((o) => out[o]!));
  if (out[choice]! !== top)
    return invalid(`"choice" ${JSON.stringify(choice)} (p=${out[choice]}) is not the top option (p=${top})`);
  return { ok: true, answer: { choice, probabilities: out } };
}

/** The options sharing the top probability. */
export function topOptionsOf(answer: JudgeAnswer): string[] {
  const entries = Object.entries(answer.probabilities);
  const top = Math.max(...entries.map(([, p]) => p));
  return entries.filter(([, p]) => p === top).map(([o]) => o);
}

/** Compares a valid judge answer with the deterministic label: tie or `unclear` abstain. */
export function compareWithLabel(answer: JudgeAnswer, label: string): AuditOutcome {
  if (topOptionsOf(answer).length > 1) return { status: 'abstained', reason: 'tie', answer };
  if (answer.choice === UNCLEAR) return { status: 'abstained', reason: 'unclear', answer };
  return { status: answer.choice === label ? 'agrees' : 'disagrees', answer };
}

/** The judge's verdict as one word for order-swap comparisons: its choice, or `tie`. */
export function verdictWordOf(answer: JudgeAnswer): string {
  const entries = Object.entries(answer.probabilities);
  return topAnswerOf(
    entries.map(([o]) => o),
    entries.map(([, p]) => p),
  );
}

/** One line describing an outcome (for terminal and Markdown). */
export function describeOutcome(outcome: AuditOutcome): string {
  switch (outcome.status) {
    case 'agrees':
    case 'disagrees':
      return `${outcome.answer.choice} p=${outcome.answer.probabilities[outcome.answer.choice]!.toFixed(2)}`;
    case 'abstained':
      return outcome.reason === 'tie'
        ? `tied top probabilities (${topOptionsOf(outcome.answer).join(', ')})`
        : `unclear p=${outcome.answer.probabilities[UNCLEAR]!.toFixed(2)}`;
    case 'unavailable':
      return `${outcome.reason.replace(/_/g, ' ')}: ${outcome.message}`;
    default:
      return assertNever(outcome);
  }
}
