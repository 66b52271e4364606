/**
 * The threshold tuning use case: read one model's saved yes/no probabilities and tune the
 * threshold they support (cross-validated), as `decidekit tune` reports it.
 */
import { basename } from 'node:path';
import { DecidekitError, InvalidInputError } from '../../core/errors.js';
import {
  DEFAULT_SEED,
  tunePointOf,
  tunePoints,
  type TuneOptions,
  type TunePoint,
} from '../../core/offline/threshold-tuning.js';
import { DEFAULT_CONVENTIONS } from '../../core/stats/conventions.js';
import { rankYesNo, type Ranking } from '../../core/stats/ranking.js';
import { loadOfflineDataset } from '../../datasets/offline/dataset.js';
import { readResults } from '../../datasets/offline/results.js';

/** ROC AUC and average precision of the tuned decisions, intervals seeded by the tune seed. */
export function rankTunePoints(points: readonly TunePoint[], options: TuneOptions): Ranking {
  return rankYesNo(
    {
      ids: points.map((p) => p.id),
      scores: Float64Array.from(points, (p) => p.probability),
      positive: Uint8Array.from(points, (p) => (p.positive ? 1 : 0)),
    },
    { ...DEFAULT_CONVENTIONS, seed: options.seed ?? DEFAULT_SEED },
  );
}

/** Tunes the yes/no threshold of the model in `resultsPath`; a single class is invalid input. */
export async function tuneThreshold(datasetPath: string, resultsPath: string, options: TuneOptions) {
  const dataset = await loadOfflineDataset(datasetPath);
  const points: TunePoint[] = [];
  const { model } = await readResults(resultsPath, dataset, (r, c) => {
    const p = tunePointOf(c, r);
    if (p !== null) points.push(p);
  });
  const yesNoCases = dataset.cases.filter((c) => c.kind === 'yes_no').length;
  let report;
  try {
    report = tunePoints(points, options, yesNoCases - points.length);
  } catch (err) {
    if (err instanceof DecidekitError && err.code === 'one_class') {
      throw new InvalidInputError([
        { file: resultsPath, line: null, message: `${err.message} (dataset ${datasetPath})` },
      ]);
    }
    throw err;
  }
  return {
    model: model ?? basename(resultsPath),
    datasetPath,
    resultsPath,
    report,
    points,
    ranking: rankTunePoints(points, options),
  };
}
