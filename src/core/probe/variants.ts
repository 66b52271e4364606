/**
 * The requests `decidekit probe` derives from one case: the same questions reordered,
 * renamed, asked one at a time, or with their options reordered; and the invalid requests
 * every server must refuse. Pure: the seed comes in, and each variant says how to map its
 * answers back onto the case's own questions and answer order.
 */
import type { ChoiceQuestion, QuestionSet } from '../question.js';
import { MAX_CHOICE_OPTIONS, MAX_SCORE_LEVELS } from '../question-rules.js';
import { createSeededRandom, seededHash32 } from '../seeded-random.js';
import type { InvalidRequestKind } from './conformance.js';

/** Seeded option permutations per case, beside the reversed order. */
export const OPTION_PERMUTATIONS = 2;

/**
 * A variant of a case's questions. `questions[j]` asks the case's question `source[j]`;
 * `order[j]`, when given, maps the variant's answer index k to the original answer index
 * `order[j][k]` (options reordered).
 */
export interface QuestionVariant {
  readonly label: string;
  readonly questions: QuestionSet;
  readonly source: readonly number[];
  readonly order: readonly (readonly number[] | null)[];
}

const identity = (qs: QuestionSet): number[] => qs.map((_, i) => i);

/** The questions listed last to first. */
export function reversedQuestions(qs: QuestionSet): QuestionVariant {
  const source = identity(qs).reverse();
  return { label: 'questions reversed', questions: source.map((i) => qs[i]!), source, order: source.map(() => null) };
}

/** The same questions under new ids (`renamed_1`, … zero-padded so they sort as listed). */
export function renamedQuestions(qs: QuestionSet): QuestionVariant {
  const width = String(qs.length).length;
  return {
    label: 'questions renamed',
    questions: qs.map(([, q], i) => [`renamed_${String(i + 1).padStart(width, '0')}`, q] as const),
    source: identity(qs),
    order: qs.map(() => null),
  };
}

/** Question `i` asked alone, under its own id. */
export function aloneQuestion(qs: QuestionSet, i: number): QuestionVariant {
  return { label: `${qs[i]![0]} alone`, questions: [qs[i]!], source: [i], order: [null] };
}

function permuteChoice(q: ChoiceQuestion, order: readonly number[]): ChoiceQuestion {
  return { ...q, options: order.map((k) => q.options[k]!), descriptions: order.map((k) => q.descriptions[k] ?? null) };
}

function withOrders(
  qs: QuestionSet,
  label: string,
  orderOf: (q: ChoiceQuestion) => number[] | null,
): QuestionVariant | null {
  const order = qs.map(([, q]) => (q.type === 'choice' ? orderOf(q) : null));
  if (order.every((o) => o === null)) return null;
  return {
    label,
    questions: qs.map(([id, q], i) => {
      const o = order[i];
      return [id, o && q.type === 'choice' ? permuteChoice(q, o) : q] as const;
    }),
    source: identity(qs),
    order,
  };
}

/** Every choice question with its options reversed; null when the case has no choice question. */
export function reversedOptions(qs: QuestionSet): QuestionVariant | null {
  return withOrders(qs, 'options reversed', (q) => q.options.map((_, i) => q.options.length - 1 - i));
}

/**
 * Seeded random orders of every choice question with three or more options (never the
 * original or the reversed order); null when no question has one. The same case id, seed
 * and index always give the same orders.
 */
export function permutedOptions(qs: QuestionSet, caseId: string, seed: number, index: number): QuestionVariant | null {
  const random = createSeededRandom(seededHash32(`${caseId}\u0000${index}`, seed));
  return withOrders(qs, `options permuted (${index + 1})`, (q) => {
    const n = q.options.length;
    if (n < 3) return null;
    for (;;) {
      const o = q.options.map((_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [o[i], o[j]] = [o[j]!, o[i]!];
      }
      const same = o.every((k, i) => k === i);
      const reversed = o.every((k, i) => k === n - 1 - i);
      if (!same && !reversed) return o;
    }
  });
}

/**
 * A distribution answered in a variant's answer order, mapped back to the original order:
 * `original[order[k]] = answered[k]`.
 */
export function toOriginalOrder(answered: readonly number[], order: readonly number[] | null): number[] {
  if (order === null) return [...answered];
  const out = new Array<number>(answered.length).fill(0);
  order.forEach((k, j) => (out[k] = answered[j] ?? 0));
  return out;
}

/** The request sent between two identical ones by the stale-cache probe. */
export const UNRELATED_STATE =
  'decidekit probe: an unrelated request about the weather in Lisbon, sent between two repeats.';
export const UNRELATED_QUESTIONS: QuestionSet = [
  ['sunny', { type: 'noul', instructions: 'Does the text say it is sunny?' }],
];

/** The size of the oversized body: over the reference server's 8 MiB cap. */
export const OVERSIZED_BODY_BYTES = 9 * 1024 * 1024;

/** The body of an invalid request, as text (the oversized one `bytes` long). */
export function invalidRequestBody(
  kind: InvalidRequestKind,
  model: string | null,
  bytes = OVERSIZED_BODY_BYTES,
): string {
  const head = model === null ? '' : `"model":${JSON.stringify(model)},`;
  const state = '"state":"A customer writes: I was charged twice for order A-104."';
  const questions = (value: unknown) => `{${head}${state},"questions":${JSON.stringify(value)}}`;
  switch (kind) {
    case 'unknown-type':
      return questions({ q: { type: 'yes_no', instructions: 'Is the customer angry?' } });
    case 'missing-instructions':
      return questions({ q: { type: 'noul' } });
    case 'one-option':
      return questions({ q: { type: 'choice', instructions: 'Which team?', criteria: { billing: null } } });
    case 'too-many-options':
      return questions({
        q: {
          type: 'choice',
          instructions: 'Which team?',
          criteria: Object.fromEntries(
            Array.from({ length: MAX_CHOICE_OPTIONS + 1 }, (_, i) => [`team_${i + 1}`, null]),
          ),
        },
      });
    case 'too-many-levels':
      return questions({
        q: {
          type: 'score',
          instructions: 'How urgent is this?',
          criteria: Array.from({ length: MAX_SCORE_LEVELS + 1 }, (_, i) => `level ${i}`),
        },
      });
    case 'non-object-questions':
      return questions([{ type: 'noul', instructions: 'Is the customer angry?' }]);
    case 'oversized-body': {
      const shell = `{${head}"state":"","questions":{"q":{"type":"noul","instructions":"Is the customer angry?"}}}`;
      const fill = Math.max(0, bytes - shell.length);
      return `{${head}"state":"${'x'.repeat(fill)}","questions":{"q":{"type":"noul","instructions":"Is the customer angry?"}}}`;
    }
    default:
      return kind satisfies never;
  }
}

/** What an invalid request is, for a report (the oversized body is never shown). */
export function describeInvalidRequest(kind: InvalidRequestKind, body: string): string {
  if (kind !== 'oversized-body') return body.length > 600 ? `${body.slice(0, 599)}…` : body;
  return `a body of ${body.length} bytes: one noul question about a state of "x" repeated (not shown)`;
}
