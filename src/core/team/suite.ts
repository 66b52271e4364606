/**
 * A suite: models (each a server, a model name and the name of the environment variable that
 * holds its key, never the key), datasets and sending options, and a gate. Every model runs on
 * every dataset as one ordinary bench run (a job), labelled so a later `--resume` finds it.
 */
import { canonicalJson } from '../canonical-json.js';
import { seededHash32 } from '../seeded-random.js';
import type { StatMetric } from '../stats/bootstrap.js';

/** One model of a suite: where it is served and under what name the suite shows it. */
export interface SuiteModel {
  /** Unique in the suite: the leaderboard, the gate and the run labels name the model by it. */
  readonly name: string;
  /** The server's base URL; null: the built-in reference server, started for the run. */
  readonly baseUrl: string | null;
  /** Sent as "model" (with the built-in server, which built-in model answers); null sends none. */
  readonly model: string | null;
  /** The environment variable that holds the server's key; null sends none. */
  readonly apiKeyEnv: string | null;
  /** Requests in flight to this model, over the suite's own. */
  readonly parallel: number | null;
}

/** One dataset of a suite, with the cases taken from it. */
export interface SuiteDataset {
  readonly name: string;
  /** `sample`, `typed-decisions`, or a path as written (relative to the suite file's folder). */
  readonly dataset: string;
  readonly limit: number | null;
  readonly sample: number | null;
  readonly workflow: string | null;
}

/** How every run of the suite sends and what it records (null: bench's default). */
export interface SuiteOptions {
  readonly parallel: number | null;
  readonly timeoutSec: number | null;
  readonly retries: number | null;
  /** Seed of a dataset's `sample`, the bootstrap intervals and the ECE noise floor. */
  readonly seed: number | null;
  readonly pricePerMtokUsd: number | null;
  /** Defaults of the datasets that give none. */
  readonly limit: number | null;
  readonly sample: number | null;
}

/** The suite's gate: every other model's run against the baseline's, per dataset, as `runs gate`. */
export interface SuiteGate {
  /** A model's name. */
  readonly baseline: string;
  readonly metric: StatMetric;
  /** How much worse a candidate may be, in the metric's units. */
  readonly maxDrop: number;
}

export interface Suite {
  /** Named in every run's label. */
  readonly name: string;
  readonly models: readonly SuiteModel[];
  readonly datasets: readonly SuiteDataset[];
  readonly options: SuiteOptions;
  /** Null: no gate; the comparisons are against the first model. */
  readonly gate: SuiteGate | null;
}

/** One model on one dataset: one bench run. */
export interface SuiteJob {
  readonly model: SuiteModel;
  readonly dataset: SuiteDataset;
  /** `suite NAME: MODEL × DATASET [work]`: the run's label, by which `--resume` finds it. */
  readonly label: string;
}

/** The model the comparisons hold the others against: the gate's baseline, else the first. */
export function baselineOf(suite: Suite): SuiteModel {
  return suite.models.find((m) => m.name === suite.gate?.baseline) ?? suite.models[0]!;
}

/** Every model on every dataset, dataset by dataset in the file's order. */
export function suiteJobsOf(suite: Suite): SuiteJob[] {
  return suite.datasets.flatMap((dataset) =>
    suite.models.map((model) => ({ model, dataset, label: jobLabel(suite, model, dataset) })),
  );
}

/**
 * The label of a job's run: the suite, the model and the dataset by name, and 8 hex digits of
 * what the run measures (server, model, dataset and its cases, seed, price), so a changed
 * entry is never taken for the run of the old one. How it sends (parallel, timeout, retries)
 * and its key are left out: they change no number.
 */
function jobLabel(suite: Suite, model: SuiteModel, dataset: SuiteDataset): string {
  const work = canonicalJson({
    baseUrl: model.baseUrl,
    model: model.model,
    dataset: dataset.dataset,
    limit: dataset.limit ?? suite.options.limit,
    sample: dataset.sample ?? suite.options.sample,
    workflow: dataset.workflow,
    seed: suite.options.seed,
    price: suite.options.pricePerMtokUsd,
  });
  const digest = seededHash32(work, 0).toString(16).padStart(8, '0');
  return `suite ${suite.name}: ${model.name} × ${dataset.name} [${digest}]`;
}
