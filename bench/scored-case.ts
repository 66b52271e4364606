/**
 * A scored customer_service case for the store benchmarks: five questions (noul, choice,
 * score), fixed gold and predictions that vary with `i`, as a run saves them.
 */
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../src/core/typed-decisions/case-result.js';
import type { Question } from '../src/core/question.js';

const noul: Question = { type: 'noul', instructions: 'Escalate?' };
const choice: Question = {
  type: 'choice',
  instructions: 'Route',
  options: ['billing', 'shipping', 'technical', 'other'],
  descriptions: [null, null, null, null],
};
const score: Question = { type: 'score', instructions: 'Urgency', levels: ['low', 'normal', 'high', 'critical'] };

/** `customer_service_0000042`: the case id of case `i`, its number padded to `digits`. */
export function scoredCaseId(i: number, digits: number): string {
  return `customer_service_${String(i).padStart(digits, '0')}`;
}

/** Case `i`, scored, with the id `scoredCaseId(i, digits)`. */
export function scoredCase(i: number, digits: number): CaseResult {
  const c: TypedDecisionsCase = {
    id: scoredCaseId(i, digits),
    workflow: 'customer_service',
    state: {},
    questions: [
      ['escalate', noul],
      ['route', choice],
      ['urgency', score],
      ['refund', noul],
      ['severity', score],
    ],
    gold: [
      { labelIndex: 0, probabilities: [2 / 3, 1 / 3] },
      { labelIndex: 1, probabilities: [0.1, 0.6, 0.2, 0.1] },
      { labelIndex: 2, probabilities: [0, 1 / 3, 2 / 3, 0] },
      { labelIndex: 1, probabilities: [0, 1] },
      { labelIndex: 0, probabilities: [1, 0, 0, 0] },
    ],
  };
  const p = (i % 97) / 97;
  return scoreCase(c, {
    status: 'answered',
    latencyMs: 100 + (i % 13),
    inputTokens: 900 + i,
    predicted: [
      [p, 1 - p],
      [0.1, 0.5 + p / 4, 0.3 - p / 4, 0.1],
      [0.05, 0.25, 0.6, 0.1],
      [1 - p, p],
      [0.7, 0.2, 0.1, 0],
    ],
  });
}
