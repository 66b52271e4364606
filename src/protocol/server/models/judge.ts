import { answersOf, type ChoiceQuestion } from '../../../core/question.js';
import type { DecisionModel } from './decision-model.js';
import { uniformDistribution } from './distribution.js';

/** Weight of an option per cue found in the evidence. */
const CUE_WEIGHT = 3;
/** Weight of `unclear` when no option has a cue in the evidence. */
const UNCLEAR_WEIGHT = 6;
/**
 * Extra weight of the first-listed option among those tied on cues: the deliberate
 * position bias of a small judge, which `decidekit audit --order-probe` measures.
 */
const PRIMACY_BONUS = 0.5;

/**
 * The built-in judge for answer audits: reads the evidence text for the options. An
 * option's cues are its name and every phrase quoted in its description
 * (`"payment succeeded"`); each whole-word occurrence in the state's text (case-insensitive) adds
 * weight. No cue at all puts the mass on `unclear` when offered, or ties every option.
 * Options tied on a non-zero count favour the first listed, so its answer can depend on
 * option order. Deterministic and pure; non-choice questions are answered uniformly.
 */
export const judgeModel: DecisionModel = {
  name: 'judge',
  description: 'answer-audit judge: counts quoted cue phrases of each choice option in the state text',
  answer: (state, questions) => {
    const text = textOf(state).toLowerCase();
    return questions.map(([, q]) =>
      q.type === 'choice' ? judgeChoice(q, text) : uniformDistribution(answersOf(q).length),
    );
  },
};

function judgeChoice(q: ChoiceQuestion, text: string): number[] {
  const counts = q.options.map((o, i) =>
    o === 'unclear' ? 0 : cuesOf(o, q.descriptions[i] ?? null).reduce((n, cue) => n + occurrences(text, cue), 0),
  );
  const max = Math.max(...counts);
  const unclear = q.options.indexOf('unclear');
  let weights: number[];
  if (max === 0) {
    weights = q.options.map((_, i) => (unclear < 0 ? 1 : i === unclear ? UNCLEAR_WEIGHT : 1));
  } else {
    weights = counts.map((c) => 1 + CUE_WEIGHT * c);
    const tied = counts.flatMap((c, i) => (c === max ? [i] : []));
    if (tied.length > 1) weights[tied[0]!]! += PRIMACY_BONUS;
  }
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

function cuesOf(option: string, description: string | null): string[] {
  const quoted = [...(description ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]!.toLowerCase());
  return [option.toLowerCase(), ...quoted];
}

const WORD = /[\p{L}\p{N}_]/u;

/** Occurrences of `cue` as whole words (`claimed` is not found in `not_claimed`). */
function occurrences(text: string, cue: string): number {
  if (cue === '') return 0;
  let n = 0;
  for (let at = text.indexOf(cue); at >= 0; at = text.indexOf(cue, at + 1)) {
    const before = text[at - 1];
    const after = text[at + cue.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after))) n++;
  }
  return n;
}

/** Every string in the state, joined by newlines (a text state is itself). */
function textOf(state: unknown): string {
  if (typeof state === 'string') return state;
  if (Array.isArray(state)) return state.map(textOf).join('\n');
  if (typeof state === 'object' && state !== null) return Object.values(state).map(textOf).join('\n');
  return '';
}
