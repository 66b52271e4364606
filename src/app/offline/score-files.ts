/**
 * The offline scoring use case shared by `score` and `compare`: load the dataset while a
 * worker thread pre-parses the first results file, then score every results file against
 * it, gathering the problems of every file before failing.
 */
import { InvalidInputError } from '../../core/errors.js';
import { ProblemList } from '../../core/problem-list.js';
import { loadOfflineDataset, type OfflineDataset } from '../../datasets/offline/dataset.js';
import { prefetchResults, scoreResults, type PrefetchedResults } from '../../datasets/offline/results.js';
import type { ScoredModel } from '../../reports/offline/score-json.js';

export interface ScoreFilesOptions {
  /** yes/no cases: predicted yes iff P(yes) >= threshold (default 0.5). */
  readonly threshold?: number;
}

/** Scores each results file against the dataset at `datasetPath`, in the order given. */
export async function scoreResultsFiles(
  datasetPath: string,
  resultsPaths: readonly string[],
  options: ScoreFilesOptions = {},
): Promise<{ dataset: OfflineDataset; scored: ScoredModel[] }> {
  const { dataset, prefetched } = await loadWithPrefetch(datasetPath, resultsPaths[0]!);
  return { dataset, scored: await scoreFiles(dataset, resultsPaths, options.threshold, prefetched) };
}

/**
 * Scores results files one after another against a dataset. Problems of every file are
 * gathered before failing, so one run lists everything that is wrong.
 */
export async function scoreFiles(
  dataset: OfflineDataset,
  paths: readonly string[],
  threshold?: number,
  prefetched?: PrefetchedResults,
): Promise<ScoredModel[]> {
  const scored: ScoredModel[] = [];
  const problems = new ProblemList();
  for (const [i, path] of paths.entries()) {
    try {
      // The pre-parse serves the first file only (the same path may be listed again).
      const r = await scoreResults(
        path,
        dataset,
        threshold === undefined ? {} : { threshold },
        i === 0 && prefetched?.path === path ? { prefetched } : {},
      );
      scored.push({ datasetPath: dataset.path, resultsPath: path, model: r.model, summary: r.summary });
    } catch (err) {
      if (!(err instanceof InvalidInputError) || paths.length === 1) throw err;
      for (const p of err.problems) problems.add(p);
      problems.omitted += err.omitted;
    }
  }
  problems.throwIfAny();
  return scored;
}

/**
 * Loads the dataset while a worker thread pre-parses the (first) results file, so the two
 * big reads use both cores. The worker stops if the dataset turns out to be invalid.
 */
export async function loadWithPrefetch(
  datasetPath: string,
  resultsPath: string,
): Promise<{ dataset: OfflineDataset; prefetched: PrefetchedResults }> {
  const prefetched = prefetchResults(resultsPath);
  try {
    return { dataset: await loadOfflineDataset(datasetPath), prefetched };
  } catch (err) {
    await prefetched.close();
    throw err;
  }
}
