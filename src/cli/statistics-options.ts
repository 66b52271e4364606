/**
 * The options that choose how numbers are stated: intervals on or off, the ECE convention and
 * the seed of the bootstrap and the noise floor. Declared once for every command that shows
 * them: offline `score` and `compare`, and `bench`, `report` / `runs report`, `runs show`,
 * `runs compare` and `runs gate` (where a stored run's own conventions fill what is not given).
 */
import { UsageError } from '../core/errors.js';
import {
  DEFAULT_CONVENTIONS,
  withConventions,
  type ConventionChoice,
  type Conventions,
} from '../core/stats/conventions.js';
import { flag, integer, oneOf } from './define-command.js';
import { given } from '../core/given.js';

/** Highest seed: an unsigned 32-bit integer. */
const MAX_SEED = 2 ** 32 - 1;

/**
 * `--ece-bins`, `--ece-binning`, `--ece-average`, `--seed`: undefined when not given. `stored`
 * says in the help that a stored run's own conventions fill what is not given.
 */
function conventionOptionsOf(stored: boolean) {
  const or = stored ? `, or a stored run's own` : '';
  return {
    'ece-bins': integer('N', 'ECE and reliability bins', {
      min: 1,
      max: 1000,
      defaultText: `${DEFAULT_CONVENTIONS.eceBins}${or}`,
    }),
    'ece-binning': oneOf(
      'B',
      ['equal-width', 'equal-mass'],
      'ECE bins of equal width, or holding equal numbers of decisions',
      { defaultText: `${DEFAULT_CONVENTIONS.eceBinning}${or}` },
    ),
    'ece-average': oneOf(
      'A',
      ['pooled', 'per-question'],
      'ECE pooled over decisions, or averaged over questions\n(each question weighs 1)',
      { defaultText: `${DEFAULT_CONVENTIONS.eceAverage}${or}` },
    ),
    seed: seedOption('seed of the bootstrap intervals and the ECE noise floor', or),
  };
}

/** `--seed S`: an unsigned 32-bit integer; the help says what it seeds. */
export function seedOption(help: string, defaultNote = '') {
  return integer('S', help, { min: 0, max: MAX_SEED, defaultText: `${DEFAULT_CONVENTIONS.seed}${defaultNote}` });
}

const noCi = flag('leave out the 95% intervals and the ECE noise floor (faster on very large files)');

/** The convention options of commands that read stored runs. */
export const conventionOptions = conventionOptionsOf(true);

/** `--no-ci` and the convention options, for commands that read or resume stored runs. */
export const statisticsOptions = { 'no-ci': noCi, ...conventionOptions };

/** `--no-ci` and the convention options, for commands that score files (no stored run). */
export const fileStatisticsOptions = { 'no-ci': noCi, ...conventionOptionsOf(false) };

interface ConventionValues {
  readonly 'ece-bins': number | undefined;
  readonly 'ece-binning': Conventions['eceBinning'] | undefined;
  readonly 'ece-average': Conventions['eceAverage'] | undefined;
  readonly seed: number | undefined;
}

/** The conventions a command line chose (only those given): a stored run's own fill the rest. */
export function conventionChoiceOf(values: ConventionValues): ConventionChoice {
  return given({
    eceBins: values['ece-bins'],
    eceBinning: values['ece-binning'],
    eceAverage: values['ece-average'],
    seed: values.seed,
  });
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
