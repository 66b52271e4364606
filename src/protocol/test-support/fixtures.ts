/** Test fixtures: the example request of docs/system-one.md and the 20 Typed Decisions question schemas (Apache-2.0 dataset, LocalLLaMA/typed-decisions). */

/** The example request of the System One spec (docs/system-one.md). */
export const SPEC_EXAMPLE_REQUEST = {
  model: 'laya',
  state: { ticket: 'I was charged twice for order A-104.' },
  questions: {
    route: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'Payments, charges and refunds', shipping: null, technical: 'Bugs' },
    },
    angry: { type: 'noul', instructions: 'Is the customer angry?' },
    urgency: {
      type: 'score',
      instructions: 'How urgent is this?',
      criteria: ['can wait', 'this week', 'today', 'right now'],
    },
  },
} as const;

/**
 * The 20 question schemas by workflow (wire form): the one copy the sample generator also
 * uses (test-support is not part of the build, so this import never ships).
 */
import { QUESTION_SCHEMAS } from '../../../scripts/typed-decisions-sample/question-schemas.js';
export const TYPED_DECISIONS_QUESTIONS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = QUESTION_SCHEMAS;
