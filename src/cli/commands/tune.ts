import { basename } from 'node:path';
import { DecidekitError, InvalidInputError, UsageError } from '../../core/errors.js';
import {
  DEFAULT_FOLDS,
  DEFAULT_SEED,
  thresholdCurve,
  tunePointOf,
  tunePoints,
  type TuneOptions,
  type TunePoint,
} from '../../core/offline/threshold-tuning.js';
import { loadOfflineDataset } from '../../datasets/offline/dataset.js';
import { readResults } from '../../datasets/offline/results.js';
import { renderTuneJson } from '../../reports/offline/tuning-json.js';
import { renderTuneText } from '../../reports/offline/tuning-text.js';
import { numberOption, parseCommandArgs, type Command } from '../command.js';
import { colourEnabled } from '../io.js';
import { requireOption } from '../command.js';

const OPTIONS = {
  dataset: { type: 'string' },
  results: { type: 'string' },
  'min-precision': { type: 'string' },
  'min-recall': { type: 'string' },
  folds: { type: 'string' },
  seed: { type: 'string' },
  'cost-fp': { type: 'string' },
  'cost-fn': { type: 'string' },
  json: { type: 'boolean', default: false },
  html: { type: 'string' },
} as const;

const isFraction = (n: number) => n >= 0 && n <= 1;

export const command: Command = {
  name: 'tune',
  summary: 'find the yes/no threshold your saved scores support (with cross-validation)',
  help: `Usage: decidekit tune --dataset FILE --results FILE [--min-precision P] [--min-recall R]
                      [--folds K] [--seed S] [--cost-fp X --cost-fn Y] [--json] [--html FILE]

Tunes the yes/no threshold of one model from its saved probabilities (yes_no cases only;
never calls a model). Candidates are the observed probabilities; a case is yes iff p >= t.
Picks the best F1 among thresholds meeting the floors (ties: higher accuracy, then closer
to 0.5); when none meets them, the best-F1 threshold is still shown and flagged.

Rows: default (0.5), tuned (chosen on all data: optimistic) and cross-validated
(stratified k-fold, k = min(K, yes cases, no cases); chosen on the training folds, scored on
the held-out fold: the honest estimate). $/100 is 100 x mean cost per call.

Options:
  --dataset FILE       dataset JSONL (required)
  --results FILE       one model's results JSONL (required)
  --min-precision P    precision floor in [0, 1] (default 0)
  --min-recall R       recall floor in [0, 1] (default 0)
  --folds K            folds wanted, an integer >= 2 (default ${DEFAULT_FOLDS})
  --seed S             fold assignment seed, an integer in [0, 2^32) (default ${DEFAULT_SEED})
  --cost-fp X          cost of a false yes; with --cost-fn, pick the threshold with the
  --cost-fn Y          lowest expected error cost instead of the best F1 (both >= 0)
  --json               one JSON document, unrounded numbers
  --html FILE          also write an HTML report (P/R/F1 against the threshold) to FILE

Exit codes: 0 ok, 1 invalid input (every problem listed) or a single class, 2 usage error.

Example:
  decidekit tune --dataset data/moderation/dataset.jsonl \\
                 --results data/moderation/results-budget-1.jsonl \\
                 --min-precision 0.8 --min-recall 0.8
`,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS);
    const datasetPath = requireOption('dataset', values.dataset);
    const resultsPath = requireOption('results', values.results);
    const minPrecision = numberOption('min-precision', values['min-precision'], isFraction, 'a fraction in [0, 1]');
    const minRecall = numberOption('min-recall', values['min-recall'], isFraction, 'a fraction in [0, 1]');
    const folds = numberOption('folds', values.folds, (n) => Number.isInteger(n) && n >= 2, 'an integer >= 2');
    const seed = numberOption(
      'seed',
      values.seed,
      (n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32,
      'an integer in [0, 2^32)',
    );
    const costFp = numberOption('cost-fp', values['cost-fp'], (n) => n >= 0, 'a cost >= 0');
    const costFn = numberOption('cost-fn', values['cost-fn'], (n) => n >= 0, 'a cost >= 0');
    if ((costFp === undefined) !== (costFn === undefined))
      throw new UsageError('--cost-fp and --cost-fn go together (give both or neither)');
    const options: TuneOptions = {
      ...(minPrecision === undefined ? {} : { minPrecision }),
      ...(minRecall === undefined ? {} : { minRecall }),
      ...(folds === undefined ? {} : { folds }),
      ...(seed === undefined ? {} : { seed }),
      ...(costFp === undefined || costFn === undefined
        ? {}
        : { costs: { falsePositive: costFp, falseNegative: costFn } }),
    };

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
    const tuned = { model: model ?? basename(resultsPath), datasetPath, resultsPath, report };
    if (values.html !== undefined) {
      const { renderTuneHtml } = await import('../../reports/html/offline-html.js');
      const { writeHtmlReport } = await import('../write-html.js');
      await writeHtmlReport(io, values.html, renderTuneHtml(tuned, thresholdCurve(points, options)));
    }
    io.stdout.write(
      values.json ? renderTuneJson(tuned) : renderTuneText(tuned, { colour: colourEnabled(io.stdout, io.env) }),
    );
    return 0;
  },
};
