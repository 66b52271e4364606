/** Names of the built-in models, default first (apart, so help texts need not load the models). */
export const BUILT_IN_MODEL_NAMES = ['heuristic', 'prior', 'uniform', 'zero', 'judge'] as const;
export type BuiltInModelName = (typeof BUILT_IN_MODEL_NAMES)[number];
export const DEFAULT_MODEL: BuiltInModelName = 'heuristic';
