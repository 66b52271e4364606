import { given } from '../../core/given.js';
import { UsageError } from '../../core/errors.js';
import { outFileOf } from '../out-file.js';
import { DEFAULT_FOLDS, DEFAULT_SEED, thresholdCurve, type TuneOptions } from '../../core/offline/threshold-tuning.js';
import { decimal, defineCommand, flag, integer, text } from '../define-command.js';
import { colourEnabled } from '../io.js';
import { filesReadBy, refuseWrongFilesOf } from '../wrong-file.js';
import { tuneThreshold } from '../../app/offline/tune-threshold.js';
import { tuneStoredRun } from '../../app/offline/tune-stored-run.js';
import { storeOption, outputPathOption } from '../shared-options.js';
import { storePathOf } from '../locations.js';
import { renderTuneJson, renderTunedRunJson } from '../../reports/offline/tuning-json.js';
import { renderTuneText, renderTunedRunText } from '../../reports/offline/tuning-text.js';
import { renderTuneHtml } from '../../reports/offline/offline-html.js';
import { writeHtmlReport } from '../write-html.js';

const FILES_OR_RUN = 'tune needs --dataset and --results, or a stored run (tune RUN)';

/** Files or a stored run, not both; --store and --html each go with one of them. */
function refuseMixedSources(
  run: string | undefined,
  v: { readonly [k in 'dataset' | 'results' | 'store' | 'html']: string | undefined },
): void {
  if (run !== undefined && (v.dataset !== undefined || v.results !== undefined))
    throw new UsageError('tune takes a stored run or --dataset and --results, not both');
  if (run === undefined && v.store !== undefined) throw new UsageError('--store goes with a stored run (tune RUN)');
  if (run !== undefined && v.html !== undefined)
    throw new UsageError('--html goes with --dataset and --results; tune RUN prints its report (or --json)');
}

export const command = defineCommand({
  name: 'tune',
  summary: 'find the yes/no threshold your saved scores support (with cross-validation)',
  usage: [
    'tune --dataset FILE --results FILE [--min-precision P] [--min-recall R]',
    '     [--folds K] [--seed S] [--cost-fp X --cost-fn Y] [--json] [--html FILE]',
    'tune RUN [--store S] [--min-precision P] [--min-recall R]',
    '     [--folds K] [--seed S] [--cost-fp X --cost-fn Y] [--json]',
  ],
  description: `Tunes the yes/no threshold of one model from its saved probabilities (yes_no cases only;
never calls a model). Candidates are the observed probabilities; a case is yes iff p >= t.
Picks the best F1 among thresholds meeting the floors (ties: higher accuracy, then closer
to 0.5); when none meets them, the best-F1 threshold is still shown and flagged.

Rows: default (0.5), tuned (chosen on all data: optimistic) and cross-validated
(stratified k-fold, k = min(K, yes cases, no cases); chosen on the training folds, scored on
the held-out fold: the honest estimate). $/100 is 100 x mean cost per call. ROC AUC and
average precision (with 95% intervals) say how well the scores rank, whatever the threshold.

tune RUN tunes each yes/no question of a stored benchmark run (RUN: a run id or a unique
prefix, see 'decidekit runs list') on its own: a decision's score is its P(true), and it is
a yes when its gold label (the dataset's most likely answer) is true.`,
  options: {
    dataset: text('FILE', 'dataset JSONL or Parquet'),
    results: text('FILE', "one model's results, JSONL or Parquet"),
    store: storeOption,
    'min-precision': decimal('P', 'precision floor in [0, 1]', { min: 0, max: 1, defaultText: '0' }),
    'min-recall': decimal('R', 'recall floor in [0, 1]', { min: 0, max: 1, defaultText: '0' }),
    folds: integer('K', 'folds wanted, an integer >= 2', { min: 2, defaultText: String(DEFAULT_FOLDS) }),
    seed: integer('S', 'fold assignment seed, an integer in [0, 2^32)', {
      min: 0,
      max: 2 ** 32 - 1,
      defaultText: String(DEFAULT_SEED),
    }),
    'cost-fp': decimal(
      'X',
      'cost of a false yes (>= 0); with --cost-fn, pick the threshold with\nthe lowest expected error cost instead of the best F1',
      { min: 0 },
    ),
    'cost-fn': decimal('Y', 'cost of a false no (>= 0); goes with --cost-fp', { min: 0 }),
    json: flag('one JSON document, unrounded numbers'),
    html: outputPathOption(
      text('FILE', 'also write an HTML report (P/R/F1 against the threshold) to FILE (into a folder: tune.html)'),
      'file',
    ),
  },
  positionals: { min: 0, max: 1, names: '[RUN]' },
  exitCodes:
    '0 ok, 1 invalid input (every problem listed), a single class, or an unknown run or unreadable store, 2 usage error, 130 interrupted.',
  examples: [
    'decidekit tune --dataset data/moderation/dataset.jsonl \\\n' +
      '               --results data/moderation/results-budget-1.jsonl \\\n' +
      '               --min-precision 0.8 --min-recall 0.8',
  ],
  async run({ values: v, positionals: [run] }, io) {
    const datasetPath = v.dataset;
    const resultsPath = v.results;
    refuseMixedSources(run, v);
    const costFp = v['cost-fp'];
    const costFn = v['cost-fn'];
    if ((costFp === undefined) !== (costFn === undefined))
      throw new UsageError('--cost-fp and --cost-fn go together (give both or neither)');
    const options: TuneOptions = {
      ...given({ minPrecision: v['min-precision'], minRecall: v['min-recall'], folds: v.folds, seed: v.seed }),
      ...(costFp === undefined || costFn === undefined
        ? {}
        : { costs: { falsePositive: costFp, falseNegative: costFn } }),
    };
    if (run !== undefined) {
      const tunedRun = tuneStoredRun(storePathOf(v.store, io), run, options, { command: 'tune', storeArg: v.store });
      const text = { colour: colourEnabled(io.stdout, io.env), ...given({ width: io.stdout.columns }) };
      io.stdout.write(v.json ? renderTunedRunJson(tunedRun) : renderTunedRunText(tunedRun, text));
      return 0;
    }
    if (datasetPath === undefined || resultsPath === undefined) throw new UsageError(FILES_OR_RUN);
    await refuseWrongFilesOf('tune', v, io.cwd);
    const htmlFile = await outFileOf('htmlPath', v.html, io.cwd, 'tune.html', filesReadBy('tune', v));
    const tuned = await tuneThreshold(datasetPath, resultsPath, options);
    if (v.json) {
      io.stdout.write(renderTuneJson(tuned));
    } else {
      io.stdout.write(
        renderTuneText(tuned, { colour: colourEnabled(io.stdout, io.env), ...given({ width: io.stdout.columns }) }),
      );
    }
    if (htmlFile !== undefined) {
      await writeHtmlReport(io, htmlFile, renderTuneHtml(tuned, thresholdCurve(tuned.points, options)));
    }
    return 0;
  },
});
