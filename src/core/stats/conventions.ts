import { DEFAULT_CALIBRATION, type EceAverage, type EceBinning } from '../calibration.js';
import { DecidekitError } from '../errors.js';

/**
 * Every choice behind a reported number that another tool could make differently. Reports
 * state it (`describeConventions`), stores save it (`conventionsText`, read back with
 * `parseConventions`), and JSON carries it (`conventionsJson`, snake_case).
 */
export interface Conventions {
  /** ECE bins; default 10. */
  readonly eceBins: number;
  /** Default `equal-width`. */
  readonly eceBinning: EceBinning;
  /** Default `pooled` (over decisions). */
  readonly eceAverage: EceAverage;
  /** Floor on a predicted probability inside KL; 1e-12. */
  readonly klFloor: number;
  /** Floor on p(true answer) inside log loss; 1e-15. */
  readonly logLossFloor: number;
  /** When gold answers tie, the correct answer is the dataset's own label. */
  readonly goldTies: 'dataset-label';
  /** When predicted probabilities tie, the prediction is the answer listed first. */
  readonly predictionTies: 'first-listed';
  /** Bootstrap resamples; default 2,000; 0 means no intervals. */
  readonly bootstrapResamples: number;
  /** Seed of the bootstrap and the noise floor, an integer in [0, 2^32). */
  readonly seed: number;
}

export const DEFAULT_BOOTSTRAP_RESAMPLES = 2000;
export const DEFAULT_STATS_SEED = 1;

export const DEFAULT_CONVENTIONS: Conventions = Object.freeze({
  eceBins: DEFAULT_CALIBRATION.bins,
  eceBinning: DEFAULT_CALIBRATION.binning,
  eceAverage: DEFAULT_CALIBRATION.average,
  klFloor: 1e-12,
  logLossFloor: 1e-15,
  goldTies: 'dataset-label',
  predictionTies: 'first-listed',
  bootstrapResamples: DEFAULT_BOOTSTRAP_RESAMPLES,
  seed: DEFAULT_STATS_SEED,
});

/** The calibration options inside a set of conventions. */
export function calibrationOptionsOf(c: Conventions): {
  readonly bins: number;
  readonly binning: EceBinning;
  readonly average: EceAverage;
} {
  return { bins: c.eceBins, binning: c.eceBinning, average: c.eceAverage };
}

/** The conventions with some fields replaced (the given ones win). */
export function withConventions(overrides: Partial<Conventions>, base: Conventions = DEFAULT_CONVENTIONS): Conventions {
  return Object.freeze({ ...base, ...overrides });
}

/** snake_case JSON object of the conventions, keys in a fixed order. */
export function conventionsJson(c: Conventions): {
  ece_bins: number;
  ece_binning: EceBinning;
  ece_average: EceAverage;
  kl_floor: number;
  log_loss_floor: number;
  gold_ties: 'dataset-label';
  prediction_ties: 'first-listed';
  bootstrap_resamples: number;
  seed: number;
} {
  return {
    ece_bins: c.eceBins,
    ece_binning: c.eceBinning,
    ece_average: c.eceAverage,
    kl_floor: c.klFloor,
    log_loss_floor: c.logLossFloor,
    gold_ties: c.goldTies,
    prediction_ties: c.predictionTies,
    bootstrap_resamples: c.bootstrapResamples,
    seed: c.seed,
  };
}

/**
 * The canonical one-line form, for stores and for telling whether two runs used the same
 * conventions: `key=value` pairs of `conventionsJson`, in its order, joined by `;`.
 * Equal conventions give equal text.
 */
export function conventionsText(c: Conventions): string {
  return Object.entries(conventionsJson(c))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(';');
}

/**
 * Whether numbers made under `a` and `b` can be compared: the scoring conventions are equal.
 * The bootstrap's resamples and seed move intervals, not numbers, so they may differ.
 */
export function sameScoringConventions(a: Conventions, b: Conventions): boolean {
  const strip = (c: Conventions) => conventionsText({ ...c, bootstrapResamples: 0, seed: 0 });
  return strip(a) === strip(b);
}

/** What a reader needs to know, in words: one line for a report's "conventions" note. */
export function describeConventions(c: Conventions): string {
  const ece = `ECE over ${c.eceBins} ${c.eceBinning} ${c.eceBins === 1 ? 'bin' : 'bins'}, ${c.eceAverage === 'pooled' ? 'pooled over decisions' : 'averaged per question'}`;
  const boot =
    c.bootstrapResamples > 0
      ? `95% intervals from ${c.bootstrapResamples} case-level bootstrap resamples (seed ${c.seed})`
      : 'no intervals';
  return `${ece}; KL floor ${c.klFloor}; log loss floor ${c.logLossFloor}; gold ties: the dataset's label; prediction ties: the first listed answer; ${boot}`;
}

/** Why a stored conventions text cannot be read. */
export class ConventionsParseError extends DecidekitError {
  override readonly name = 'ConventionsParseError';
  constructor(message: string) {
    super('invalid_input', message);
  }
}

const BINNINGS: readonly EceBinning[] = ['equal-width', 'equal-mass'];
const AVERAGES: readonly EceAverage[] = ['pooled', 'per-question'];

/** Reads `conventionsText` back; keys left out take their defaults. Throws ConventionsParseError. */
export function parseConventions(text: string): Conventions {
  const fields = new Map<string, string>();
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new ConventionsParseError(`conventions: "${part}" is not key=value`);
    const key = part.slice(0, eq).trim();
    if (fields.has(key)) throw new ConventionsParseError(`conventions: ${key} is given twice`);
    fields.set(key, part.slice(eq + 1).trim());
  }
  const d = DEFAULT_CONVENTIONS;
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const v = fields.get(key);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max)
      throw new ConventionsParseError(`conventions: ${key} must be an integer in [${min}, ${max}], not "${v}"`);
    return n;
  };
  const positive = (key: string, fallback: number): number => {
    const v = fields.get(key);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (v === '' || !(n > 0 && n < 1))
      throw new ConventionsParseError(`conventions: ${key} must be a number in (0, 1), not "${v}"`);
    return n;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const v = fields.get(key);
    if (v === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(v))
      throw new ConventionsParseError(`conventions: ${key} must be one of ${allowed.join(', ')}, not "${v}"`);
    return v as T;
  };
  const known = new Set(Object.keys(conventionsJson(d)));
  for (const key of fields.keys())
    if (!known.has(key)) throw new ConventionsParseError(`conventions: unknown key ${key}`);
  return Object.freeze({
    eceBins: int('ece_bins', d.eceBins, 1, 1000),
    eceBinning: oneOf('ece_binning', BINNINGS, d.eceBinning),
    eceAverage: oneOf('ece_average', AVERAGES, d.eceAverage),
    klFloor: positive('kl_floor', d.klFloor),
    logLossFloor: positive('log_loss_floor', d.logLossFloor),
    goldTies: oneOf('gold_ties', ['dataset-label'] as const, d.goldTies),
    predictionTies: oneOf('prediction_ties', ['first-listed'] as const, d.predictionTies),
    bootstrapResamples: int('bootstrap_resamples', d.bootstrapResamples, 0, 1_000_000),
    seed: int('seed', d.seed, 0, 0xffffffff),
  });
}

/** Conventions a command line may choose; the rest are fixed (floors, tie rules). */
export type ConventionChoice = Partial<Pick<Conventions, 'eceBins' | 'eceBinning' | 'eceAverage' | 'seed'>>;
