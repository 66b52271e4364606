/**
 * Deliberate protocol violations of the reference server, one rule broken per switch, so a
 * conformance or robustness probe can be shown to catch exactly its own violation
 * (`serve --violate first-option-bias,output-tokens`). Each robustness violation keeps the
 * answers a valid distribution whose top answer is the server's `choice`; each conformance
 * violation breaks one wire rule and leaves the others intact.
 */
import type { Question, QuestionSet } from '../../core/question.js';
import { answersOf, assertNever } from '../../core/question.js';
import { createSeededRandom, hashString } from '../../core/seeded-random.js';

export const VIOLATIONS = {
  // Conformance: one wire rule each.
  'missing-answer': 'the last asked question gets no answer',
  'extra-answer': 'an answer to a question that was not asked is added',
  'wrong-type': 'the first answer names another question type',
  'missing-option': "a choice answer's least likely option is left out of its probabilities (the rest renormalised)",
  'probability-out-of-range':
    "a choice answer's least likely option gets a probability below 0 (the top one makes up for it)",
  'sum-1.05': 'choice and score probabilities are scaled by 1.05 (each capped at 1)',
  'choice-not-argmax': 'a choice answer names its least likely option as "choice"',
  'score-not-expected': 'a score answer reports its most likely level as "score" instead of the expected level',
  'noul-out-of-range': '"noul" is P(true) + 1',
  'output-tokens': 'usage.output_tokens is 1',
  '500-on-invalid': 'invalid requests (and bodies over the cap) get a 500 instead of a 4xx',
  'no-health': 'GET /health answers 404',
  'models-without-decisions': 'GET /v1/models lists no "decisions" output modality',
  // Robustness: answers stay valid distributions, but move.
  drift: 'every answer is sharpened or flattened by a per-request random amount (run-to-run drift)',
  'stale-cache': 'a one-entry response cache replays a repeated request; any other request drifts',
  'question-order': 'answers move toward their runner-up when the questions are not listed in id order',
  'question-names': 'answers move toward their runner-up by an amount drawn from a hash of the question id',
  'sibling-bleed': 'answers move toward their runner-up when the request has other questions',
  'first-option-bias': 'choice answers move toward their first listed option',
} as const;

export type Violation = keyof typeof VIOLATIONS;
export const VIOLATION_NAMES = Object.keys(VIOLATIONS) as Violation[];

export function isViolation(name: string): name is Violation {
  return Object.prototype.hasOwnProperty.call(VIOLATIONS, name);
}

/** The id every `extra-answer` response adds. */
export const UNASKED_QUESTION_ID = 'decidekit_unasked';

/** Which violations are on, and the server's memory for the stateful ones. */
export interface ViolationState {
  readonly on: ReadonlySet<Violation>;
  /** Decide requests answered so far (the drift's seed). */
  answered: number;
  /** `stale-cache`: the last request body and the response it got. */
  last: { readonly body: string; readonly response: string } | null;
}

export function createViolationState(violations: readonly Violation[], seed = 1): ViolationState & { seed: number } {
  return { on: new Set(violations), answered: 0, last: null, seed };
}

/**
 * `d` moved a share `w` of the way to its runner-up: the answers just below the top one
 * (ties within 1e-9 share it), so reordering the answers moves it the same way.
 */
function towardRunnerUp(d: readonly number[], w: number): number[] {
  if (d.length < 2 || w <= 0) return [...d];
  const top = Math.max(...d);
  const rest = d.filter((p) => p < top - 1e-9);
  if (rest.length === 0) return [...d];
  const second = Math.max(...rest);
  const runnersUp = d.map((p) => p < top - 1e-9 && p >= second - 1e-9);
  const share = w / runnersUp.filter(Boolean).length;
  return d.map((p, i) => (1 - w) * p + (runnersUp[i] ? share : 0));
}

/** p_i^t renormalised: a temperature change that keeps the order of the answers. */
function sharpen(d: readonly number[], t: number): number[] {
  const powered = d.map((p) => p ** t);
  const sum = powered.reduce((a, b) => a + b, 0);
  return sum > 0 ? powered.map((p) => p / sum) : [...d];
}

const ascending = (ids: readonly string[]) => ids.every((id, i) => i === 0 || ids[i - 1]! <= id);

/**
 * The distributions after the robustness violations that are on. `drifting` is true for a
 * request the `stale-cache` violation did not replay (and always under `drift`).
 */
export function applyRobustnessViolations(
  state: ViolationState & { seed: number },
  questions: QuestionSet,
  dists: readonly (readonly number[])[],
): (readonly number[])[] {
  const on = state.on;
  state.answered++;
  const ids = questions.map(([id]) => id);
  const drift = on.has('drift') || on.has('stale-cache');
  const random = createSeededRandom(hashString(String(state.answered), state.seed >>> 0));
  return dists.map((d0, i) => {
    const [id, q] = questions[i]!;
    let d: readonly number[] = d0;
    if (on.has('first-option-bias') && q.type === 'choice') d = d.map((p, k) => 0.7 * p + (k === 0 ? 0.3 : 0));
    if (on.has('sibling-bleed') && questions.length > 1) d = towardRunnerUp(d, 0.3);
    if (on.has('question-order') && !ascending(ids)) d = towardRunnerUp(d, 0.3);
    if (on.has('question-names')) d = towardRunnerUp(d, (hashString(id) % 1000) / 2000);
    if (drift) d = sharpen(d, 0.6 + 0.8 * random());
    return d;
  });
}

function fixed(x: number): string {
  return String(x);
}

/**
 * One wire answer with the conformance violations that are on (`renderWireAnswer`'s shape
 * otherwise): `position` is the answer's index in the request.
 */
export function renderViolatedAnswer(
  on: ReadonlySet<Violation>,
  q: Question,
  d0: readonly number[],
  position: number,
): string {
  const type = on.has('wrong-type') && position === 0 ? (q.type === 'noul' ? 'choice' : 'noul') : q.type;
  if (q.type === 'noul') {
    const p = on.has('noul-out-of-range') ? d0[0]! + 1 : d0[0]!;
    return `{"type":"${type}","noul":${fixed(p)}}`;
  }
  const names = answersOf(q);
  let d = [...d0];
  let keep = names.map((_, i) => i);
  // The least likely answer, then the most likely of the others, ties to the first name in
  // code-unit order: the same answers whatever order the options are listed in, and never
  // one answer for both (a uniform answer has a least and a most likely one too).
  const pick = (better: (a: number, b: number) => boolean, skip: number) => {
    let at = -1;
    for (let i = 0; i < d.length; i++) {
      if (i === skip) continue;
      if (at < 0 || better(d[i]!, d[at]!) || (Math.abs(d[i]! - d[at]!) <= 1e-12 && names[i]! < names[at]!)) at = i;
    }
    return at;
  };
  const low = pick((a, b) => a < b - 1e-12, -1);
  const top = pick((a, b) => a > b + 1e-12, low);
  if (q.type === 'choice' && on.has('missing-option')) {
    keep = keep.filter((i) => i !== low);
    const rest = keep.reduce((s, i) => s + d[i]!, 0);
    d = d.map((p) => p / rest);
  }
  if (q.type === 'choice' && on.has('probability-out-of-range')) {
    d[low] = -0.05;
    d[top] = d[top]! + d0[low]! + 0.05;
  }
  // Scaled by 1.05, capped at 1 so no probability leaves [0, 1]: only the sum breaks.
  if (on.has('sum-1.05')) d = d.map((p) => Math.min(1, p * 1.05));
  const probs = keep.map((i) => `${JSON.stringify(names[i])}:${fixed(d[i]!)}`).join(',');
  if (q.type === 'choice') {
    const shown = on.has('choice-not-argmax') ? low : top;
    return `{"type":"${type}","choice":${JSON.stringify(q.options[shown])},"probabilities":{${probs}},"confidence":${fixed(d0[top]!)}}`;
  }
  if (q.type === 'score') {
    let mean = 0;
    for (let i = 0; i < d0.length; i++) mean += i * d0[i]!;
    const score = on.has('score-not-expected') ? top : mean;
    const legend = q.levels.map((l, i) => `"${i}":${JSON.stringify(l)}`).join(',');
    return `{"type":"${type}","score":${fixed(score)},"legend":{${legend}},"probabilities":{${probs}},"confidence":${fixed(d0[top]!)}}`;
  }
  return assertNever(q);
}

/** True when a conformance violation changes how answers are written. */
export function changesAnswers(on: ReadonlySet<Violation>): boolean {
  return (
    [
      'wrong-type',
      'noul-out-of-range',
      'missing-option',
      'probability-out-of-range',
      'sum-1.05',
      'choice-not-argmax',
      'score-not-expected',
    ] as const
  ).some((v) => on.has(v));
}
