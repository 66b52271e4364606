/** The reference server's answers as wire text: one answer, a whole response, and their deliberately broken forms. */
import type { Question } from '../../core/question.js';
import { answersOf, assertNever } from '../../core/question.js';
import { argmaxFirst } from '../../core/decision-score.js';
import type { AcceptedDecideRequest } from '../wire/parse-decide-request.js';
import type { MalformedVariant } from './faults.js';
import { UNASKED_QUESTION_ID, changesAnswers, renderViolatedAnswer, type ViolationState } from './violations.js';

/** `usage.input_tokens`: an estimate, ceil(UTF-8 bytes of state JSON + questions JSON / 4). */
export function estimateInputTokens(state: string | object, rawQuestions: unknown): number {
  const bytes = Buffer.byteLength(JSON.stringify(state)) + Buffer.byteLength(JSON.stringify(rawQuestions) ?? '');
  return Math.ceil(bytes / 4);
}

/** One wire answer; written key by key so option order survives integer-like names. */
export function renderWireAnswer(q: Question, d: readonly number[]): string {
  switch (q.type) {
    case 'noul':
      return `{"type":"noul","noul":${d[0]}}`;
    case 'choice': {
      const top = argmaxFirst(d);
      const probs = q.options.map((o, i) => `${JSON.stringify(o)}:${d[i]}`).join(',');
      return `{"type":"choice","choice":${JSON.stringify(q.options[top])},"probabilities":{${probs}},"confidence":${d[top]}}`;
    }
    case 'score': {
      const names = answersOf(q);
      let mean = 0;
      for (let i = 0; i < d.length; i++) mean += i * d[i]!;
      const legend = q.levels.map((l, i) => `"${i}":${JSON.stringify(l)}`).join(',');
      const probs = names.map((n, i) => `"${n}":${d[i]}`).join(',');
      return `{"type":"score","score":${mean},"legend":{${legend}},"probabilities":{${probs}},"confidence":${d[argmaxFirst(d)]}}`;
    }
    default:
      return assertNever(q);
  }
}

/** A deliberately broken version of the first answer, for fault injection. */
function breakAnswer(variant: MalformedVariant, q: Question, d: readonly number[]): string | null {
  if (q.type === 'noul') {
    if (variant === 'bad_sum' || variant === 'out_of_range') return '{"type":"noul","noul":1.5}';
    if (variant === 'non_number') return '{"type":"noul","noul":"0.5"}';
    return null;
  }
  const names = answersOf(q);
  const value = (i: number) =>
    variant === 'bad_sum'
      ? '0.9'
      : variant === 'out_of_range' && i === 0
        ? '-0.2'
        : variant === 'non_number' && i === 0
          ? '"NaN"'
          : String(d[i]);
  return `{"type":"${q.type}","probabilities":{${names.map((n, i) => `${JSON.stringify(n)}:${value(i)}`).join(',')}}}`;
}

/** The response body to a decide request: the model's answers, malformed or violating the protocol when asked to. */
export function renderResponse(
  model: string,
  request: AcceptedDecideRequest,
  dists: readonly (readonly number[])[],
  inputTokens: number,
  malformed: MalformedVariant | null,
  violations: ViolationState | null,
): string {
  const on = violations?.on;
  const rewritten = on !== undefined && changesAnswers(on);
  const answers = request.questions.map(([id, q], i) => {
    let text = rewritten ? renderViolatedAnswer(on, q, dists[i]!, i) : renderWireAnswer(q, dists[i]!);
    if (i === 0 && malformed !== null) text = breakAnswer(malformed, q, dists[i]!) ?? text;
    return `${JSON.stringify(id)}:${text}`;
  });
  if (malformed === 'missing_answer') answers.shift();
  if (on?.has('missing-answer')) answers.pop();
  if (on?.has('extra-answer')) answers.push(`${JSON.stringify(UNASKED_QUESTION_ID)}:{"type":"noul","noul":0.5}`);
  const usage = `"usage":{"input_tokens":${inputTokens},"output_tokens":${on?.has('output-tokens') ? 1 : 0}}`;
  if (malformed === 'not_json') return `{"model":${JSON.stringify(model)},"answers":{${answers.join(',')}`;
  if (malformed === 'not_object') return `[{"answers":{${answers.join(',')}}}]`;
  if (malformed === 'no_answers') return `{"model":${JSON.stringify(model)},${usage}}`;
  return `{"model":${JSON.stringify(model)},"answers":{${answers.join(',')}},${usage}}`;
}
