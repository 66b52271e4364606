/**
 * The offline scoring use case shared by `score` and `compare`: load the dataset while a
 * worker thread pre-parses the first results file, then score every results file against
 * it, gathering the problems of every file before failing. With intervals on (the default),
 * each model's per-case numbers are kept in typed arrays for the bootstrap, the ECE noise
 * floor and the paired comparison; with them off, scoring streams as before.
 */
import { given } from '../../core/given.js';
import { basename } from 'node:path';
import { calibrationOptionsOf, DEFAULT_CONVENTIONS, type Conventions } from '../../core/stats/conventions.js';
import { InvalidInputError } from '../../core/errors.js';
import {
  offlineCalibration,
  offlineCaseSample,
  OfflineCaseRecord,
  perQuestionEceDegenerate,
  type OfflineCaseKeys,
} from '../../core/offline/case-record.js';
import { offlineIntervals, pairOffline, type OfflinePairing } from '../../core/offline/statistics.js';
import { rankByAccuracy } from '../../core/stats/accuracy-ranking.js';
import { decidedCases, withCalibration } from '../../core/offline/summary.js';
import type { CaseSample } from '../../core/stats/case-sample.js';
import { ProblemList } from '../../core/problem-list.js';
import { caseTableOf, loadOfflineDataset, type OfflineDataset } from '../../datasets/offline/dataset.js';
import { prefetchResults, scoreResults, type PrefetchedResults } from '../../datasets/offline/results.js';
import type { ComparedModels, ScoredModel } from '../../core/offline/scored-files.js';
import type { LoadedCalibrationMap } from '../../datasets/calibration-map-file.js';
import { loadOfflineRecalibration, offlineRecalibrationOf } from './recalibration.js';

export interface ScoreFilesOptions {
  /** yes/no cases: predicted yes iff P(yes) >= threshold (default 0.5). */
  readonly threshold?: number;
  /** ECE conventions, bootstrap resamples and seed; default DEFAULT_CONVENTIONS. */
  readonly conventions?: Conventions;
  /** 95% intervals and the ECE noise floor; default true. */
  readonly intervals?: boolean;
  /** A calibration map (docs/calibrate.md) applied to every decision before scoring. */
  readonly calibrationPath?: string;
}

/** Scores each results file against the dataset at `datasetPath`, in the order given. */
export async function scoreResultsFiles(
  datasetPath: string,
  resultsPaths: readonly string[],
  options: ScoreFilesOptions = {},
): Promise<{ dataset: OfflineDataset; scored: ScoredModel[] }> {
  const map = options.calibrationPath === undefined ? null : await loadOfflineRecalibration(options.calibrationPath);
  const { dataset, prefetched } = await loadWithPrefetch(datasetPath, resultsPaths[0]!);
  const runs = await scoreRuns(dataset, resultsPaths, options, prefetched, map);
  return { dataset, scored: runs.map((r) => r.scored) };
}

/** `compare`: every model scored, each paired with the first one given, and the leaderboard. */
export interface OfflineComparison extends ComparedModels {
  readonly dataset: OfflineDataset;
  /** Model names that several files carry, with those files: their rows name the file too. */
  readonly sameModels: readonly { readonly model: string; readonly files: readonly string[] }[];
}

export async function compareResultsFiles(
  datasetPath: string,
  resultsPaths: readonly string[],
  options: ScoreFilesOptions = {},
): Promise<OfflineComparison> {
  const map = options.calibrationPath === undefined ? null : await loadOfflineRecalibration(options.calibrationPath);
  const { dataset, prefetched } = await loadWithPrefetch(datasetPath, resultsPaths[0]!);
  const runs = await scoreRuns(dataset, resultsPaths, options, prefetched, map);
  const conventions = options.conventions ?? DEFAULT_CONVENTIONS;
  const base = runs[0]!;
  const pairings: { index: number; pairing: OfflinePairing }[] = [];
  let ids: readonly string[] | null = null;
  if (options.intervals !== false && base.kept !== null)
    runs.forEach((r, index) => {
      if (index > 0 && r.kept !== null)
        pairings.push({
          index,
          pairing: pairOffline(base.kept!, r.kept, conventions, (ids ??= caseTableOf(dataset).allIds())),
        });
    });
  const scored = labelSameModels(runs.map((r) => r.scored));
  const names = [...new Set(runs.map((r) => r.scored.model))];
  return {
    dataset,
    sameModels: names.flatMap((model) => {
      const files = runs.filter((r) => r.scored.model === model).map((r) => r.scored.resultsPath);
      return model === null || files.length < 2 ? [] : [{ model, files }];
    }),
    datasetPath: dataset.path,
    scored,
    pairings,
    leaderboard: rankByAccuracy(scored, {
      accuracyOf: (m) => m.summary.accuracy,
      intervalOf: (m) => m.stats?.intervals.accuracy ?? null,
      ties: 'overlap',
      sameCases: (m, leader) => sameDecidedCases(runs[scored.indexOf(m)]!, runs[scored.indexOf(leader)]!),
    }),
  };
}

/**
 * Files that carry the same model name get their file beside it (`loud-1 (rerun.jsonl)`),
 * so no two rows, pairings or leaderboard lines read the same; the file's name when that
 * tells them apart, else its path as given.
 */
export function labelSameModels<M extends { readonly model: string | null; readonly resultsPath: string }>(
  scored: readonly M[],
): M[] {
  const count = new Map<string | null, number>();
  for (const m of scored) count.set(m.model, (count.get(m.model) ?? 0) + 1);
  return scored.map((m) => {
    if (m.model === null || count.get(m.model)! < 2) return m;
    const same = scored.filter((o) => o.model === m.model);
    const names = new Set(same.map((o) => basename(o.resultsPath)));
    const file = names.size === same.length ? basename(m.resultsPath) : m.resultsPath;
    return { ...m, model: `${m.model} (${file})` };
  });
}

/** Whether two runs decided the same cases (by the kept records, else by their counts). */
function sameDecidedCases(a: ScoredRun, b: ScoredRun): boolean {
  const decided = (r: ScoredRun) => decidedCases(r.scored.summary.counts);
  if (decided(a) !== decided(b)) return false;
  if (a.kept === null || b.kept === null) return true;
  const x = a.kept.record.decided;
  const y = b.kept.record.decided;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

interface ScoredRun {
  readonly scored: ScoredModel;
  readonly kept: { readonly sample: CaseSample; readonly record: OfflineCaseRecord } | null;
}

async function scoreRuns(
  dataset: OfflineDataset,
  paths: readonly string[],
  options: ScoreFilesOptions,
  prefetched?: PrefetchedResults,
  map: LoadedCalibrationMap | null = null,
): Promise<ScoredRun[]> {
  const conventions = options.conventions ?? DEFAULT_CONVENTIONS;
  let recalibration = null;
  try {
    recalibration = map === null ? null : offlineRecalibrationOf(map, dataset);
  } catch (err) {
    await prefetched?.close();
    throw err;
  }
  const intervals = options.intervals ?? true;
  // Equal-mass bins and per-question averaging need every decision, intervals or not.
  const streamingEce = conventions.eceBinning === 'equal-width' && conventions.eceAverage === 'pooled';
  const keep = intervals || !streamingEce;
  const table = caseTableOf(dataset);
  const questionOf = (i: number): string => table.promptTextOf(i) ?? '';
  let ids: readonly string[] | null = null;
  const keys = (): OfflineCaseKeys => ({ ids: (ids ??= table.allIds()), questionOf });
  const runs: ScoredRun[] = [];
  const problems = new ProblemList();
  for (const [i, path] of paths.entries()) {
    const record = keep ? new OfflineCaseRecord(table.size) : undefined;
    try {
      // The pre-parse serves the first file only (the same path may be listed again).
      const r = await scoreResults(
        path,
        dataset,
        {
          ...given({ threshold: options.threshold }),
          eceBins: conventions.eceBins,
          ...given({ record }),
        },
        i === 0 && prefetched?.path === path ? { prefetched } : {},
        recalibration?.recalibration,
      );
      let summary = r.summary;
      if (record !== undefined && !streamingEce)
        summary = withCalibration(
          summary,
          offlineCalibration(record, { questionOf }, calibrationOptionsOf(conventions)),
        );
      const sample =
        record !== undefined && intervals
          ? offlineCaseSample(record, keys(), conventions.eceAverage === 'per-question')
          : null;
      const stats =
        sample === null || record === undefined
          ? null
          : offlineIntervals(summary, sample, conventions, { record, ids: keys().ids });
      const perQuestionDegenerate =
        record !== undefined &&
        conventions.eceAverage === 'per-question' &&
        perQuestionEceDegenerate(record, { questionOf });
      runs.push({
        scored: {
          datasetPath: dataset.path,
          resultsPath: path,
          model: r.model,
          summary,
          conventions,
          stats,
          ...(perQuestionDegenerate ? { perQuestionDegenerate } : {}),
          ...(recalibration === null ? {} : { recalibration: recalibration.applied }),
        },
        kept: sample === null || record === undefined ? null : { sample, record },
      });
    } catch (err) {
      if (!(err instanceof InvalidInputError) || paths.length === 1) throw err;
      for (const p of err.problems) problems.add(p);
      problems.omitted += err.omitted;
    }
  }
  problems.throwIfAny();
  return runs;
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
