/**
 * The conformance checks of `decidekit probe`: the wire rules of docs/system-one.md, each
 * judged on what a server answered. Pure: the app sends, these functions judge one exchange
 * at a time and `summarizeConformance` counts. Each failure keeps an example: the request
 * (cut) and the offending answer.
 */
import { isFiniteNumber, isProbability, isRecord, preview } from '../json-value.js';
import { PROBABILITY_SUM_TOLERANCE, answersOf, assertNever, type QuestionSet } from '../question.js';
import { MAX_CHOICE_OPTIONS, MAX_SCORE_LEVELS } from '../question-rules.js';
import { parseStrictJson } from '../strict-json.js';

/** How far a `score` may sit from the expected level of its (normalised) probabilities. */
export const SCORE_TOLERANCE = 0.01;
/** How far below the top probability the server's `choice` may be (rounding). */
export const CHOICE_TOLERANCE = 1e-9;

/** The invalid requests every server must refuse with a 4xx and an error body. */
export const INVALID_REQUEST_KINDS = [
  'unknown-type',
  'missing-instructions',
  'one-option',
  'too-many-options',
  'too-many-levels',
  'non-object-questions',
  'oversized-body',
] as const;
export type InvalidRequestKind = (typeof INVALID_REQUEST_KINDS)[number];

/** Every check, in report order, with the rule it checks. */
export const CONFORMANCE_CHECKS = {
  'valid-request-answered': 'a valid request gets a 2xx whose body is a JSON object',
  'all-questions-answered': 'every asked question has an answer object under "answers"',
  'no-unasked-answers': 'no answer to a question that was not asked',
  'answer-type': 'an answer\'s "type", when given, is the asked type',
  'probabilities-cover': 'choice and score "probabilities" name exactly the options or levels "0".."K-1"',
  'probabilities-in-range': 'every probability is a finite number in [0, 1]',
  'probabilities-sum': `choice and score probabilities sum to 1 within ${PROBABILITY_SUM_TOLERANCE}`,
  'choice-is-top': 'a choice answer\'s "choice" is a most probable option',
  'score-is-expected-level': `a score answer's "score" is the expected level Σ i·p_i (probabilities normalised) within ${SCORE_TOLERANCE}`,
  'noul-in-range': '"noul" is a finite number in [0, 1]',
  'output-tokens-zero': 'usage.output_tokens is 0',
  'rejects-unknown-type': 'a question of an unknown type gets a 4xx with an error body',
  'rejects-missing-instructions': 'a question without instructions gets a 4xx with an error body',
  'rejects-one-option': 'a choice with one option gets a 4xx with an error body',
  'rejects-too-many-options': `a choice with ${MAX_CHOICE_OPTIONS + 1} options gets a 4xx with an error body`,
  'rejects-too-many-levels': `a score with ${MAX_SCORE_LEVELS + 1} levels gets a 4xx with an error body`,
  'rejects-non-object-questions': '"questions" that is not an object gets a 4xx with an error body',
  'rejects-oversized-body': 'a body over the size cap gets a 4xx with an error body',
  health: 'GET /health answers 200 {"status":"ok"}',
  models: 'GET /v1/models lists models by id, at least one with the "decisions" output modality',
} as const;

export type ConformanceCheckId = keyof typeof CONFORMANCE_CHECKS;
export const CONFORMANCE_CHECK_IDS = Object.keys(CONFORMANCE_CHECKS) as ConformanceCheckId[];

export function rejectionCheckOf(kind: InvalidRequestKind): ConformanceCheckId {
  return `rejects-${kind}`;
}

/** One check judged on one item (a response, an answer, an invalid request). */
export interface CheckResult {
  readonly check: ConformanceCheckId;
  /** Null when it passed. */
  readonly failure: string | null;
  /** The offending answer (a question's answer, or the status and body), cut. */
  readonly answer?: string;
}

/** A failure as the report shows it. */
export interface ConformanceExample {
  /** What was sent (cut, or described when too large to show). */
  readonly request: string;
  readonly answer: string;
  readonly message: string;
}

export type CheckStatus = 'pass' | 'fail' | 'not_run';

export interface ConformanceCheckSummary {
  readonly id: ConformanceCheckId;
  readonly rule: string;
  readonly status: CheckStatus;
  /** Items judged (responses, answers or requests). */
  readonly checked: number;
  readonly failed: number;
  /** Up to three failures, first seen first (a request repeated with the same failure once). */
  readonly examples: readonly ConformanceExample[];
}

export interface ConformanceSummary {
  readonly checks: readonly ConformanceCheckSummary[];
  readonly passed: number;
  readonly failed: number;
  readonly notRun: number;
}

export const MAX_EXAMPLES = 3;
const ANSWER_PREVIEW = 300;

const pass = (check: ConformanceCheckId): CheckResult => ({ check, failure: null });
const fail = (check: ConformanceCheckId, failure: string, answer: unknown): CheckResult => ({
  check,
  failure,
  answer: typeof answer === 'string' ? answer : preview(answer, ANSWER_PREVIEW),
});

/**
 * Judges the answer to a valid request: `outcome` is the decoded JSON of a 2xx body, or
 * why there is none (a status, a transport failure). Every check that applies gives one
 * result per item it looks at.
 */
export function checkDecideExchange(
  questions: QuestionSet,
  outcome: { readonly kind: 'body'; readonly body: unknown } | { readonly kind: 'failed'; readonly message: string },
): CheckResult[] {
  if (outcome.kind === 'failed') return [fail('valid-request-answered', outcome.message, outcome.message)];
  const body = outcome.body;
  if (!isRecord(body)) return [fail('valid-request-answered', 'the body is not a JSON object', body)];
  const out: CheckResult[] = [pass('valid-request-answered')];
  const usage = body['usage'];
  const outputTokens = isRecord(usage) ? usage['output_tokens'] : undefined;
  out.push(
    outputTokens === 0
      ? pass('output-tokens-zero')
      : fail(
          'output-tokens-zero',
          outputTokens === undefined
            ? 'usage.output_tokens is missing'
            : `usage.output_tokens is ${preview(outputTokens, 40)}`,
          { usage },
        ),
  );
  const answers = body['answers'];
  if (!isRecord(answers)) {
    out.push(fail('all-questions-answered', 'the body has no "answers" object', body));
    return out;
  }
  const asked = new Set(questions.map(([id]) => id));
  const unasked = Object.keys(answers).filter((id) => !asked.has(id));
  out.push(
    unasked.length === 0
      ? pass('no-unasked-answers')
      : fail('no-unasked-answers', `answers question ${JSON.stringify(unasked[0])}, which was not asked`, {
          [unasked[0]!]: answers[unasked[0]!],
        }),
  );
  for (const [id, q] of questions) {
    const answer = answers[id];
    const shown = { [id]: answer };
    if (!isRecord(answer)) {
      out.push(
        fail(
          'all-questions-answered',
          answer === undefined
            ? `question ${JSON.stringify(id)} has no answer`
            : `the answer to ${JSON.stringify(id)} is not an object`,
          answer === undefined ? Object.keys(answers) : shown,
        ),
      );
      continue;
    }
    out.push(pass('all-questions-answered'));
    const type = answer['type'];
    out.push(
      type === undefined || type === q.type
        ? pass('answer-type')
        : fail(
            'answer-type',
            `question ${JSON.stringify(id)} was asked as ${q.type}, answered as ${preview(type, 30)}`,
            shown,
          ),
    );
    switch (q.type) {
      case 'noul': {
        const p = answer['noul'];
        out.push(
          isProbability(p)
            ? pass('noul-in-range')
            : fail(
                'noul-in-range',
                `question ${JSON.stringify(id)}: "noul" is ${p === undefined ? 'missing' : preview(p, 30)}`,
                shown,
              ),
        );
        break;
      }
      case 'choice':
      case 'score':
        out.push(...checkProbabilities(id, q.type, answersOf(q), answer, shown));
        break;
      default:
        assertNever(q);
    }
  }
  return out;
}

function checkProbabilities(
  id: string,
  type: 'choice' | 'score',
  names: readonly string[],
  answer: Record<string, unknown>,
  shown: unknown,
): CheckResult[] {
  const q = JSON.stringify(id);
  const probs = answer['probabilities'];
  if (!isRecord(probs)) return [fail('probabilities-cover', `question ${q} has no "probabilities" object`, shown)];
  const out: CheckResult[] = [];
  const keys = Object.keys(probs);
  const missing = names.filter((n) => !Object.prototype.hasOwnProperty.call(probs, n));
  const extra = keys.filter((k) => !names.includes(k));
  out.push(
    missing.length > 0
      ? fail('probabilities-cover', `question ${q}: probabilities leave out ${JSON.stringify(missing[0])}`, shown)
      : extra.length > 0
        ? fail(
            'probabilities-cover',
            `question ${q}: probabilities name ${JSON.stringify(extra[0])}, not one of its answers`,
            shown,
          )
        : pass('probabilities-cover'),
  );
  const bad = keys.find((k) => {
    return !isProbability(probs[k]);
  });
  out.push(
    bad === undefined
      ? pass('probabilities-in-range')
      : fail(
          'probabilities-in-range',
          `question ${q}: the probability of ${JSON.stringify(bad)} is ${preview(probs[bad], 30)}`,
          shown,
        ),
  );
  const values = names.map((n) => probs[n] ?? 0);
  if (!values.every(isFiniteNumber)) return out;
  let sum = 0;
  for (const p of values) sum += p;
  out.push(
    Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE
      ? pass('probabilities-sum')
      : fail(
          'probabilities-sum',
          `question ${q}: probabilities sum to ${round(sum)}, not within ${PROBABILITY_SUM_TOLERANCE} of 1`,
          shown,
        ),
  );
  if (type === 'choice') {
    const choice = answer['choice'];
    const top = Math.max(...values);
    const at = typeof choice === 'string' ? names.indexOf(choice) : -1;
    out.push(
      at >= 0 && values[at]! >= top - CHOICE_TOLERANCE
        ? pass('choice-is-top')
        : fail(
            'choice-is-top',
            at >= 0
              ? `question ${q}: "choice" is ${JSON.stringify(choice)} (p=${round(values[at]!)}) but the top probability is ${round(top)}`
              : `question ${q}: "choice" is ${choice === undefined ? 'missing' : `${preview(choice, 30)}, not one of its options`}`,
            shown,
          ),
    );
  } else if (sum > 0) {
    let expected = 0;
    values.forEach((p, i) => (expected += (i * p) / sum));
    const score = answer['score'];
    out.push(
      typeof score === 'number' && Math.abs(score - expected) <= SCORE_TOLERANCE
        ? pass('score-is-expected-level')
        : fail(
            'score-is-expected-level',
            `question ${q}: "score" is ${score === undefined ? 'missing' : preview(score, 30)}, the expected level is ${round(expected)}`,
            shown,
          ),
    );
  }
  return out;
}

function round(x: number): string {
  return String(Math.round(x * 1e6) / 1e6);
}

/** An invalid request's answer: a 4xx whose body is a JSON object with `error` (llama.cpp) or `detail` (TypeSafe). */
export function checkRejection(
  kind: InvalidRequestKind,
  outcome:
    | { readonly kind: 'response'; readonly status: number; readonly text: string }
    | { readonly kind: 'failed'; readonly message: string },
): CheckResult {
  const check = rejectionCheckOf(kind);
  if (outcome.kind === 'failed') return fail(check, `no HTTP answer: ${outcome.message}`, outcome.message);
  const shown = `HTTP ${outcome.status} ${cut(outcome.text)}`;
  if (outcome.status < 400 || outcome.status > 499)
    return fail(check, `answered HTTP ${outcome.status}, not a 4xx`, shown);
  const json = parseStrictJson(outcome.text);
  if (!json.ok || !isRecord(json.value) || (json.value['error'] === undefined && json.value['detail'] === undefined))
    return fail(check, `answered HTTP ${outcome.status} without an error body ({"error": …} or {"detail": …})`, shown);
  return pass(check);
}

/** `GET /health`: 200 with `{"status": "ok"}`. */
export function checkHealth(
  outcome:
    | { readonly kind: 'response'; readonly status: number; readonly text: string }
    | { readonly kind: 'failed'; readonly message: string },
): CheckResult {
  if (outcome.kind === 'failed') return fail('health', `no HTTP answer: ${outcome.message}`, outcome.message);
  const shown = `HTTP ${outcome.status} ${cut(outcome.text)}`;
  if (outcome.status === 503) return fail('health', 'answered 503: the model is still loading', shown);
  if (outcome.status !== 200) return fail('health', `answered HTTP ${outcome.status}, not 200`, shown);
  const json = parseStrictJson(outcome.text);
  if (!json.ok || !isRecord(json.value) || json.value['status'] !== 'ok')
    return fail('health', 'the body is not {"status": "ok"}', shown);
  return pass('health');
}

/** `GET /v1/models`: 200, a `data` array of models with string ids, one listing `decisions`. */
export function checkModels(
  outcome:
    | { readonly kind: 'response'; readonly status: number; readonly text: string }
    | { readonly kind: 'failed'; readonly message: string },
): CheckResult {
  if (outcome.kind === 'failed') return fail('models', `no HTTP answer: ${outcome.message}`, outcome.message);
  const shown = `HTTP ${outcome.status} ${cut(outcome.text)}`;
  if (outcome.status !== 200) return fail('models', `answered HTTP ${outcome.status}, not 200`, shown);
  const json = parseStrictJson(outcome.text);
  const data = json.ok && isRecord(json.value) ? json.value['data'] : undefined;
  if (!Array.isArray(data) || data.length === 0) return fail('models', 'the body has no non-empty "data" array', shown);
  if (!data.every((m) => isRecord(m) && typeof m['id'] === 'string' && m['id'] !== ''))
    return fail('models', 'a model in "data" has no string "id"', shown);
  const decisions = data.some((m) => {
    const arch = (m as Record<string, unknown>)['architecture'];
    const out = isRecord(arch) ? arch['output_modalities'] : undefined;
    return Array.isArray(out) && out.includes('decisions');
  });
  return decisions
    ? pass('models')
    : fail('models', 'no model lists "decisions" in architecture.output_modalities (not a decision model)', shown);
}

function cut(text: string, max = ANSWER_PREVIEW): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A judged item with the request it came from. */
export interface JudgedItem {
  readonly request: string;
  readonly result: CheckResult;
}

/** Counts every check over every judged item; a check with no item is `not_run`. */
export function summarizeConformance(
  items: Iterable<JudgedItem>,
  only?: readonly ConformanceCheckId[],
): ConformanceSummary {
  const acc = new Map<ConformanceCheckId, { checked: number; failed: number; examples: ConformanceExample[] }>();
  for (const id of CONFORMANCE_CHECK_IDS) acc.set(id, { checked: 0, failed: 0, examples: [] });
  for (const { request, result } of items) {
    const a = acc.get(result.check)!;
    a.checked++;
    if (result.failure === null) continue;
    a.failed++;
    // A repeated request that fails the same way is one example (the probe repeats requests).
    const seen = a.examples.some((e) => e.request === request && e.message === result.failure);
    if (a.examples.length < MAX_EXAMPLES && !seen)
      a.examples.push({ request, answer: result.answer ?? '', message: result.failure });
  }
  const checks = CONFORMANCE_CHECK_IDS.filter((id) => only === undefined || only.includes(id)).map((id) => {
    const a = acc.get(id)!;
    const status: CheckStatus = a.checked === 0 ? 'not_run' : a.failed > 0 ? 'fail' : 'pass';
    return { id, rule: CONFORMANCE_CHECKS[id], status, checked: a.checked, failed: a.failed, examples: a.examples };
  });
  return {
    checks,
    passed: checks.filter((c) => c.status === 'pass').length,
    failed: checks.filter((c) => c.status === 'fail').length,
    notRun: checks.filter((c) => c.status === 'not_run').length,
  };
}
