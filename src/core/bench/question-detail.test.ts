import { describe, expect, it } from 'vitest';
import { confusionMatrices, majorityRates } from './question-detail.js';
import type { CaseResult, Decision } from '../typed-decisions/case-result.js';

const answered = (questionId: string, gold: string, predicted: string, answers = ['a', 'b', 'c']): Decision => ({
  questionId,
  type: 'choice',
  answers,
  gold: { label: gold, probabilities: answers.map((x) => (x === gold ? 1 : 0)) },
  outcome: {
    status: 'answered',
    probabilities: answers.map((x) => (x === predicted ? 1 : 0)),
    predicted,
    confidence: 1,
    correct: gold === predicted,
    kl: 0,
    brier: 0,
  },
});
const failed = (questionId: string, gold: string): Decision => ({
  questionId,
  type: 'choice',
  answers: ['a', 'b', 'c'],
  gold: { label: gold, probabilities: [1, 0, 0] },
  outcome: { status: 'failed', failure: { kind: 'timeout', message: 'timed out' } },
});
const caseOf = (id: string, decisions: Decision[]): CaseResult => ({
  caseId: id,
  workflow: 'w',
  request: { status: 'answered', latencyMs: 1, inputTokens: null },
  decisions,
});

describe('majorityRates', () => {
  it('counts the most common gold label over every decision, failed ones included', () => {
    const cases = [
      caseOf('1', [answered('q', 'b', 'a')]),
      caseOf('2', [answered('q', 'b', 'b')]),
      caseOf('3', [failed('q', 'a')]),
      caseOf('4', [answered('q', 'c', 'c')]),
    ];
    expect(majorityRates(cases)).toEqual({ 'w/q': { label: 'b', rate: 0.5, total: 4 } });
  });

  it('breaks ties by the answer order', () => {
    const cases = [caseOf('1', [answered('q', 'c', 'a')]), caseOf('2', [answered('q', 'b', 'b')])];
    expect(majorityRates(cases)['w/q']!.label).toBe('b');
  });
});

describe('confusionMatrices', () => {
  it('counts gold rows against predicted columns over answered decisions only', () => {
    const cases = [
      caseOf('1', [answered('q', 'a', 'b')]),
      caseOf('2', [answered('q', 'a', 'a')]),
      caseOf('3', [answered('q', 'c', 'b')]),
      caseOf('4', [failed('q', 'a')]),
    ];
    const [m] = confusionMatrices(cases);
    expect(m).toEqual({
      key: 'w/q',
      type: 'choice',
      answers: ['a', 'b', 'c'],
      counts: [
        [1, 1, 0],
        [0, 0, 0],
        [0, 1, 0],
      ],
      answered: 3,
      correct: 1,
    });
  });
});
