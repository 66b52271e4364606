import { answersOf } from '../../../core/question.js';
import type { DecisionModel } from './decision-model.js';
import { uniformDistribution } from './distribution.js';

/** Equal probability on every answer (noul 0.5): the leaderboard's "uniform" reference. */
export const uniformModel: DecisionModel = {
  name: 'uniform',
  description: 'equal probability on every answer (noul 0.5); ignores the state',
  answer: (_state, questions) => questions.map(([, q]) => uniformDistribution(answersOf(q).length)),
};

/** `uniform` under the name benchmarks use for a zero-work server. */
export const zeroModel: DecisionModel = {
  ...uniformModel,
  name: 'zero',
  description: 'same answers as uniform, for zero-work speed benchmarks',
};
