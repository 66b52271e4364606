import type { Question } from '../../../core/question.js';
import { assertNever } from '../../../core/question.js';
import { levelDistribution, softmax, softNoul } from './distribution.js';
import { countCues, wordsOf } from './state-reading.js';

const YES_CUES = [
  'error',
  'fail',
  'urgent',
  'risk',
  'violation',
  'problem',
  'complain',
  'fraud',
  'suspicious',
  'broken',
  'missing',
  'wrong',
  'angry',
  'unauthori',
];
const NO_CUES = [
  'success',
  'resolved',
  'normal',
  'fine',
  'approved',
  'expected',
  'routine',
  'thanks',
  'no issue',
  'as planned',
];
const INTENSE = [
  'urgent',
  'critical',
  'severe',
  'immediately',
  'asap',
  'emergency',
  'outage',
  'breach',
  'furious',
  'major',
];
const CALM = ['minor', 'routine', 'whenever', 'no rush', 'low priority', 'cosmetic', 'fine', 'resolved'];

/** The state's text and word set, computed once per request. */
export interface StateText {
  readonly text: string;
  readonly words: ReadonlySet<string>;
}

export function createStateText(text: string): StateText {
  return { text, words: new Set(wordsOf(text)) };
}

function overlap(words: ReadonlySet<string>, text: string): { hits: number; size: number } {
  const mine = new Set(wordsOf(text));
  let hits = 0;
  for (const w of mine) if (words.has(w)) hits++;
  return { hits, size: mine.size };
}

/**
 * The heuristic's reader for questions it does not recognise: choice by lexical overlap
 * between the state and each option's name and description (softmax, temperature 1, so
 * graded), noul by yes/no cue words and overlap with the "true"/"false" descriptions,
 * score centred and nudged by intensity words.
 */
export function readGeneric(question: Question, state: StateText): readonly number[] {
  switch (question.type) {
    case 'choice': {
      const logits = question.options.map((o, i) => {
        const { hits, size } = overlap(state.words, `${o.replace(/[_-]+/g, ' ')} ${question.descriptions[i] ?? ''}`);
        return (1.5 * hits) / Math.sqrt(Math.max(size, 1));
      });
      return softmax(logits);
    }
    case 'noul': {
      const cues = countCues(state.text, YES_CUES) - countCues(state.text, NO_CUES);
      const t = overlap(state.words, question.criteria?.true ?? '').hits;
      const f = overlap(state.words, question.criteria?.false ?? '').hits;
      const instr = Math.min(overlap(state.words, question.instructions).hits, 5);
      const p = softNoul(0.3 * Math.max(-4, Math.min(4, cues)) + 0.25 * (t - f) + 0.1 * instr - 0.3, 0.05);
      return [p, 1 - p];
    }
    case 'score': {
      const k = question.levels.length;
      const intensity = Math.max(-3, Math.min(3, countCues(state.text, INTENSE) - countCues(state.text, CALM)));
      return levelDistribution(k, (k - 1) / 2 + (0.3 * intensity * (k - 1)) / 3, Math.max(0.8, k / 4));
    }
    default:
      return assertNever(question);
  }
}
