import { InvalidInputError, UsageError, type InputProblem } from '../../core/errors.js';
import { DEFAULT_PROBLEM_CAP } from '../../core/problem-list.js';
import { loadOfflineDataset, type OfflineDataset } from '../../datasets/offline/dataset.js';
import { prefetchResults, scoreResults, type PrefetchedResults } from '../../datasets/offline/results.js';
import type { ScoredModel } from '../../reports/offline/score-json.js';
import { renderScoreJson } from '../../reports/offline/score-json.js';
import { renderScoreText } from '../../reports/offline/score-text.js';
import { numberOption, parseCommandArgs, type Command } from '../command.js';
import { colourEnabled } from '../io.js';

/**
 * Lets a repeatable option take several values in a row, as the docs show
 * (`--results a.jsonl b.jsonl`): rewrites them to `--results a.jsonl --results b.jsonl`
 * for node's parseArgs. Values stop at the next token starting with `-`.
 */
export function expandRepeatedOption(argv: readonly string[], name: string): string[] {
  const flag = `--${name}`;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    out.push(token);
    if (token === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    const inline = token.startsWith(`${flag}=`);
    if (token !== flag && !inline) continue;
    if (token === flag) {
      // The first value is parseArgs' own business (it reports a missing one).
      if (i + 1 < argv.length) out.push(argv[++i]!);
    }
    while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) out.push(flag, argv[++i]!);
  }
  return out;
}

export function requireOption(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
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
  const problems: InputProblem[] = [];
  let omitted = 0;
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
      for (const p of err.problems) {
        if (problems.length < DEFAULT_PROBLEM_CAP) problems.push(p);
        else omitted++;
      }
      omitted += err.omitted;
    }
  }
  if (problems.length + omitted > 0) throw new InvalidInputError(problems, omitted);
  return scored;
}

const OPTIONS = {
  dataset: { type: 'string' },
  results: { type: 'string', multiple: true },
  threshold: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export const command: Command = {
  name: 'score',
  summary: "score one model's saved answers against a dataset",
  help: `Usage: decidekit score --dataset FILE --results FILE [--threshold P] [--json]

Scores one model's saved decisions (a results JSONL file) against a dataset with known
answers. Never calls a model. Files may be gzipped (.gz).

Prints accuracy, Brier, log loss, ECE (with the reliability table), score MAE, cost per
correct decision and mean latency. Absent numbers read n/a (null in JSON).

Options:
  --dataset FILE     dataset JSONL, one case a line (required)
  --results FILE     one model's results JSONL (required)
  --threshold P      yes/no cases: predicted yes iff P(yes) >= P (default 0.5)
  --json             one JSON document, unrounded numbers

Exit codes: 0 ok, 1 invalid input (every problem listed), 2 usage error.

Example:
  decidekit score --dataset data/moderation/dataset.jsonl \\
                  --results data/moderation/results-careful-1.jsonl
`,
  async run(argv, io) {
    const { values } = parseCommandArgs(expandRepeatedOption(argv, 'results'), OPTIONS);
    const datasetPath = requireOption('dataset', values.dataset);
    const results = values.results ?? [];
    if (results.length === 0) throw new UsageError('--results is required');
    if (results.length > 1)
      throw new UsageError(
        `score takes one --results file, got ${results.length} (use 'decidekit compare' for several)`,
      );
    const threshold = numberOption('threshold', values.threshold, (n) => n >= 0 && n <= 1, 'a probability in [0, 1]');
    const { dataset, prefetched } = await loadWithPrefetch(datasetPath, results[0]!);
    const [scored] = await scoreFiles(dataset, results, threshold, prefetched);
    io.stdout.write(
      values.json ? renderScoreJson(scored!) : renderScoreText(scored!, { colour: colourEnabled(io.stdout, io.env) }),
    );
    return 0;
  },
};

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
