/**
 * The options that choose the conventions of reported numbers and their intervals, declared
 * once for every command that shows them (`score`, `compare`, and the benchmark commands).
 */
import { DEFAULT_CONVENTIONS, withConventions, type Conventions } from '../core/stats/conventions.js';
import { flag, integer, oneOf } from './define-command.js';

export const statsOptions = {
  'ece-bins': integer('N', 'ECE and reliability bins', { min: 1, max: 1000, default: DEFAULT_CONVENTIONS.eceBins }),
  'ece-binning': oneOf(
    'equal-width|equal-mass',
    ['equal-width', 'equal-mass'],
    'ECE bins of equal width, or holding equal numbers of decisions',
    {
      default: DEFAULT_CONVENTIONS.eceBinning,
    },
  ),
  'ece-average': oneOf(
    'pooled|per-question',
    ['pooled', 'per-question'],
    'ECE pooled over decisions, or averaged per question',
    {
      default: DEFAULT_CONVENTIONS.eceAverage,
    },
  ),
  seed: integer('S', 'seed of the bootstrap intervals and the ECE noise floor, an integer in [0, 2^32)', {
    min: 0,
    max: 0xffffffff,
    default: DEFAULT_CONVENTIONS.seed,
  }),
  'no-ci': flag('no 95% intervals or ECE noise floor (faster on very large files)'),
};

/** The conventions the options chose, and whether intervals are on. */
export function conventionsFromOptions(values: {
  readonly 'ece-bins': number;
  readonly 'ece-binning': Conventions['eceBinning'];
  readonly 'ece-average': Conventions['eceAverage'];
  readonly seed: number;
  readonly 'no-ci': boolean;
}): { readonly conventions: Conventions; readonly intervals: boolean } {
  const intervals = !values['no-ci'];
  return {
    conventions: withConventions({
      eceBins: values['ece-bins'],
      eceBinning: values['ece-binning'],
      eceAverage: values['ece-average'],
      seed: values.seed,
      bootstrapResamples: intervals ? DEFAULT_CONVENTIONS.bootstrapResamples : 0,
    }),
    intervals,
  };
}
