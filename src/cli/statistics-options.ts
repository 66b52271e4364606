/**
 * The options that choose how numbers are stated: intervals on or off, the ECE convention and
 * the seed of the bootstrap and the noise floor. Declared once for every command that shows
 * them: offline `score` and `compare`, and `bench`, `report` / `runs report`, `runs show`,
 * `runs compare` and `runs gate` (where a stored run's own conventions fill what is not given).
 */
import type { ConventionChoice } from '../core/bench/run-conventions.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_CONVENTIONS, withConventions, type Conventions } from '../core/stats/conventions.js';
import { flag, integer, oneOf } from './define-command.js';

/** Highest seed: an unsigned 32-bit integer. */
const MAX_SEED = 2 ** 32 - 1;

/** `--ece-bins`, `--ece-binning`, `--ece-average`, `--seed`: undefined when not given. */
export const conventionOptions = {
  'ece-bins': integer('N', 'ECE and reliability bins', {
    min: 1,
    max: 1000,
    defaultText: `${DEFAULT_CONVENTIONS.eceBins}, or a stored run's own`,
  }),
  'ece-binning': oneOf(
    'B',
    ['equal-width', 'equal-mass'],
    'ECE bins of equal width, or holding equal numbers of decisions',
    { defaultText: `${DEFAULT_CONVENTIONS.eceBinning}, or a stored run's own` },
  ),
  'ece-average': oneOf(
    'A',
    ['pooled', 'per-question'],
    'ECE pooled over decisions, or averaged over questions\n(each question weighs 1)',
    { defaultText: `${DEFAULT_CONVENTIONS.eceAverage}, or a stored run's own` },
  ),
  seed: integer('S', 'seed of the bootstrap intervals and the ECE noise floor', {
    min: 0,
    max: MAX_SEED,
    defaultText: `${DEFAULT_CONVENTIONS.seed}, or a stored run's own`,
  }),
};

/** `--no-ci` and the convention options. */
export const statisticsOptions = {
  'no-ci': flag('leave out the 95% intervals and the ECE noise floor (faster on very large files)'),
  ...conventionOptions,
};

interface ConventionValues {
  readonly 'ece-bins': number | undefined;
  readonly 'ece-binning': Conventions['eceBinning'] | undefined;
  readonly 'ece-average': Conventions['eceAverage'] | undefined;
  readonly seed: number | undefined;
}

/** The conventions a command line chose (only those given): a stored run's own fill the rest. */
export function conventionChoiceOf(values: ConventionValues): ConventionChoice {
  return {
    ...(values['ece-bins'] === undefined ? {} : { eceBins: values['ece-bins'] }),
    ...(values['ece-binning'] === undefined ? {} : { eceBinning: values['ece-binning'] }),
    ...(values['ece-average'] === undefined ? {} : { eceAverage: values['ece-average'] }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
  };
}

/**
 * The conventions of a command with no stored run (offline `score`, `compare`): the defaults
 * fill what is not given. `--seed` with `--no-ci` would do nothing, so it is refused.
 */
export function conventionsFromOptions(values: ConventionValues & { readonly 'no-ci': boolean }): {
  readonly conventions: Conventions;
  readonly intervals: boolean;
} {
  const intervals = !values['no-ci'];
  if (!intervals && values.seed !== undefined)
    throw new UsageError(
      '--seed has no effect with --no-ci (it seeds the intervals and the noise floor); give one of them',
    );
  return {
    conventions: withConventions({
      ...conventionChoiceOf(values),
      bootstrapResamples: intervals ? DEFAULT_CONVENTIONS.bootstrapResamples : 0,
    }),
    intervals,
  };
}
