/**
 * The conventions of a benchmark run: the ones stored with it, or the defaults for a run
 * stored before conventions were recorded, and the ones a report asks for instead
 * (`--ece-bins`, `--ece-binning`, `--ece-average`, `--seed`).
 */
import { DecidekitError } from '../errors.js';
import {
  DEFAULT_CONVENTIONS,
  parseConventions,
  sameScoringConventions,
  withConventions,
  type ConventionChoice,
  type Conventions,
} from '../stats/conventions.js';
import type { RunConfig } from './run.js';

export interface RunConventions {
  readonly conventions: Conventions;
  /** False for a run stored before conventions were recorded (read with the defaults). */
  readonly recorded: boolean;
}

/** The conventions a run's stored numbers use. */
export function conventionsOfConfig(config: Pick<RunConfig, 'conventions'>): RunConventions {
  if (config.conventions === undefined) return { conventions: DEFAULT_CONVENTIONS, recorded: false };
  try {
    return { conventions: parseConventions(config.conventions), recorded: true };
  } catch (err) {
    throw new DecidekitError('store_corrupt', `stored run conventions are unreadable: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** The conventions a fresh run records: the defaults with the command line's choices. */
export function conventionsOfChoice(choice: ConventionChoice): Conventions {
  return withConventions(definedOnly(choice));
}

export interface ChosenConventions extends RunConventions {
  /** The run's numbers must be computed again from its decisions (the scoring conventions changed). */
  readonly recompute: boolean;
}

/** A stored run's conventions with a report's choices on top. */
export function chooseConventions(config: Pick<RunConfig, 'conventions'>, choice: ConventionChoice): ChosenConventions {
  const stored = conventionsOfConfig(config);
  const conventions = withConventions(definedOnly(choice), stored.conventions);
  return {
    conventions,
    recorded: stored.recorded,
    recompute: !sameScoringConventions(stored.conventions, conventions),
  };
}

function definedOnly(choice: ConventionChoice): Partial<Conventions> {
  const out: { -readonly [K in keyof ConventionChoice]: ConventionChoice[K] } = {};
  if (choice.eceBins !== undefined) out.eceBins = choice.eceBins;
  if (choice.eceBinning !== undefined) out.eceBinning = choice.eceBinning;
  if (choice.eceAverage !== undefined) out.eceAverage = choice.eceAverage;
  if (choice.seed !== undefined) out.seed = choice.seed;
  return out;
}
