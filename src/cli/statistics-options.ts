/**
 * The options that choose how a benchmark run's numbers are stated: intervals on or off,
 * the ECE convention and the bootstrap seed. Shared by `bench`, `report` / `runs report`,
 * `runs show`, `runs compare` and `runs gate`, so the words never drift apart.
 */
import type { ConventionChoice } from '../core/bench/run-conventions.js';
import { flag, integer, oneOf } from './define-command.js';

/** Highest seed: an unsigned 32-bit integer. */
const MAX_SEED = 2 ** 32 - 1;

/** `--ece-bins`, `--ece-binning`, `--ece-average`, `--seed`. */
export const conventionOptions = {
  'ece-bins': integer('N', 'ECE bins', { min: 2, max: 1000, defaultText: "10, or the run's own" }),
  'ece-binning': oneOf('B', ['equal-width', 'equal-mass'], 'how confidences are binned for ECE', {
    defaultText: "equal-width, or the run's own",
  }),
  'ece-average': oneOf(
    'A',
    ['pooled', 'per-question'],
    'ECE pooled over decisions, or averaged over questions\n(each question weighs 1)',
    { defaultText: "pooled, or the run's own" },
  ),
  seed: integer('S', 'seed of the bootstrap intervals and the ECE noise floor', {
    min: 0,
    max: MAX_SEED,
    defaultText: "1, or the run's own",
  }),
};

/** `--no-ci` and the convention options. */
export const statisticsOptions = {
  'no-ci': flag('leave out the 95% intervals and the ECE noise floor'),
  ...conventionOptions,
};

/** The conventions a command line chose (only those given). */
export function conventionChoiceOf(values: {
  readonly 'ece-bins': number | undefined;
  readonly 'ece-binning': 'equal-width' | 'equal-mass' | undefined;
  readonly 'ece-average': 'pooled' | 'per-question' | undefined;
  readonly seed: number | undefined;
}): ConventionChoice {
  return {
    ...(values['ece-bins'] === undefined ? {} : { eceBins: values['ece-bins'] }),
    ...(values['ece-binning'] === undefined ? {} : { eceBinning: values['ece-binning'] }),
    ...(values['ece-average'] === undefined ? {} : { eceAverage: values['ece-average'] }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
  };
}
