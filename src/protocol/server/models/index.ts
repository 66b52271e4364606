import type { DecisionModel } from './decision-model.js';
import { heuristicModel } from './heuristic.js';
import { judgeModel } from './judge.js';
import { createPriorModel, type PriorTable } from './prior.js';
import { uniformModel, zeroModel } from './uniform.js';

export type { DecisionModel } from './decision-model.js';

export { BUILT_IN_MODEL_NAMES, DEFAULT_MODEL, type BuiltInModelName } from './model-names.js';

/** Every built-in model by name; `prior` answers from `priorTable` (uniform without one). */
export function createBuiltInModels(priorTable: PriorTable | null): ReadonlyMap<string, DecisionModel> {
  return new Map<string, DecisionModel>([
    ['heuristic', heuristicModel],
    ['prior', createPriorModel(priorTable)],
    ['uniform', uniformModel],
    ['zero', zeroModel],
    ['judge', judgeModel],
  ]);
}
