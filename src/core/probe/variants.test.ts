import { describe, expect, it } from 'vitest';
import type { QuestionSet } from '../question.js';
import { parseStrictJson } from '../strict-json.js';
import { INVALID_REQUEST_KINDS } from './conformance.js';
import {
  aloneQuestion,
  invalidRequestBody,
  permutedOptions,
  renamedQuestions,
  reversedOptions,
  reversedQuestions,
  toOriginalOrder,
} from './variants.js';

const QS: QuestionSet = [
  ['a', { type: 'choice', instructions: 'A?', options: ['x', 'y', 'z', 'w'], descriptions: ['dx', null, 'dz', null] }],
  ['b', { type: 'noul', instructions: 'B?' }],
  ['c', { type: 'choice', instructions: 'C?', options: ['p', 'q'], descriptions: [null, null] }],
];

describe('question variants', () => {
  it('reverse, rename and isolate questions, each pointing back at its source question', () => {
    expect(reversedQuestions(QS).questions.map(([id]) => id)).toEqual(['c', 'b', 'a']);
    expect(reversedQuestions(QS).source).toEqual([2, 1, 0]);
    expect(renamedQuestions(QS).questions.map(([id]) => id)).toEqual(['renamed_1', 'renamed_2', 'renamed_3']);
    expect(aloneQuestion(QS, 1)).toMatchObject({ questions: [QS[1]], source: [1] });
  });

  it('reorders options with their descriptions and maps answers back to the original order', () => {
    const r = reversedOptions(QS)!;
    const a = r.questions[0]![1];
    expect(a.type === 'choice' && [a.options, a.descriptions]).toEqual([
      ['w', 'z', 'y', 'x'],
      [null, 'dz', null, 'dx'],
    ]);
    expect(r.order).toEqual([[3, 2, 1, 0], null, [1, 0]]);
    // Answered in the reversed order: w 0.1, z 0.2, y 0.3, x 0.4.
    expect(toOriginalOrder([0.1, 0.2, 0.3, 0.4], r.order[0]!)).toEqual([0.4, 0.3, 0.2, 0.1]);
  });

  it('draws seeded permutations that are neither the original nor the reversed order, for 3+ options only', () => {
    for (let k = 0; k < 20; k++) {
      const p = permutedOptions(QS, 'case-1', 9, k)!;
      const o = p.order[0]!;
      expect([...o].sort()).toEqual([0, 1, 2, 3]);
      expect(o).not.toEqual([0, 1, 2, 3]);
      expect(o).not.toEqual([3, 2, 1, 0]);
      expect(p.order[2]).toBeNull();
    }
    expect(permutedOptions(QS, 'case-1', 9, 0)).toEqual(permutedOptions(QS, 'case-1', 9, 0));
    expect(permutedOptions([QS[2]!], 'case-1', 9, 0)).toBeNull();
  });
});

describe('invalid requests', () => {
  it('are JSON (but the oversized one is as long as asked)', () => {
    for (const kind of INVALID_REQUEST_KINDS) {
      const body = invalidRequestBody(kind, 'm', 10_000);
      expect(parseStrictJson(body).ok).toBe(true);
      if (kind === 'oversized-body') expect(body.length).toBe(10_000);
    }
  });
});
