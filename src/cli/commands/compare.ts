import { outputPathOption } from '../shared-options.js';
import { given } from '../../core/given.js';
import { realpathSync } from 'node:fs';
import { outFileOf } from '../out-file.js';
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import {
  COMPARE_SORT_METRICS,
  isCompareSortMetric,
  sortByMetric,
  type CompareSortMetric,
} from '../../core/offline/model-ranking.js';
import { defineCommand, flag, list, oneOf, text } from '../define-command.js';
import { conventionsFromOptions, fileStatisticsOptions } from '../statistics-options.js';
import { filesReadBy, refuseWrongFilesOf } from '../wrong-file.js';
import { compareResultsFiles } from '../../app/offline/score-files.js';
import { conventionNotes, renderCompareJson } from '../../reports/offline/score-json.js';
import {
  renderCompareMarkdown,
  renderCompareNotes,
  renderCompareStatistics,
} from '../../reports/offline/score-text.js';
import { renderCompareHtml } from '../../reports/offline/offline-html.js';
import { writeHtmlReport } from '../write-html.js';

const METRICS = Object.keys(COMPARE_SORT_METRICS) as CompareSortMetric[];

const sortOption = oneOf(
  'METRIC',
  METRICS,
  `order rows best first by: ${METRICS.join(', ')}\n(absent values last; default: the order given)`,
);

export const command = defineCommand({
  name: 'compare',
  summary: "compare several models' saved answers in one table",
  usage:
    'compare --dataset FILE --results FILE [FILE ...] [--sort METRIC] [--ece-bins N] [--ece-binning equal-width|equal-mass] [--ece-average pooled|per-question] [--seed S] [--no-ci] [--calibration MAP] [--json] [--html FILE]',
  description: `Scores several results files (one model each) against the same dataset and prints one
Markdown table, one row per file in the order given: Model, Accuracy, Brier, Log loss,
ECE, Score MAE, $ / correct, Latency (ms), with a 95% interval beside accuracy, Brier, log
loss and ECE. Never calls a model.

Then, paired on the cases both decided: each model against the first one given (the
baseline), the difference in each metric with its paired 95% interval and a verdict
(better, worse, or within noise), and McNemar's exact test on accuracy; and a leaderboard
ranked by accuracy, marking models whose interval overlaps the leader's as tied.`,
  options: {
    dataset: text('FILE', 'dataset JSONL or Parquet', { required: true }),
    results: list('FILE', 'results files (JSONL or Parquet); repeat the option or list several after it', {
      required: '--results is required (one or more files)',
    }),
    sort: {
      ...sortOption,
      parse: (raw, name) => {
        if (typeof raw === 'string' && !isCompareSortMetric(raw))
          throw new UsageError(`--sort ${JSON.stringify(raw)} is not a metric (one of: ${METRICS.join(', ')})`);
        return sortOption.parse(raw, name);
      },
    },
    ...fileStatisticsOptions,
    json: flag('one JSON document, unrounded numbers'),
    html: outputPathOption(
      text('FILE', 'also write an HTML report (metrics, reliability diagrams) to FILE (into a folder: compare.html)'),
      'file',
    ),
    calibration: text(
      'MAP',
      'apply a calibration map written by decidekit calibrate --out to every model before scoring',
    ),
  },
  exitCodes: '0 ok, 1 invalid input (every problem of every file listed), 2 usage error, 130 interrupted.',
  examples: [
    'decidekit compare --dataset data/moderation/dataset.jsonl \\\n' +
      '                  --results data/moderation/results-careful-1.jsonl \\\n' +
      '                            data/moderation/results-loud-1.jsonl \\\n' +
      '                            data/moderation/results-budget-1.jsonl',
  ],
  async run({ values }, io) {
    const sort = values.sort ?? null;
    refuseRepeatedFiles(values.results, io.cwd);
    await refuseWrongFilesOf('compare', values, io.cwd);
    const htmlFile = await outFileOf('htmlPath', values.html, io.cwd, 'compare.html', filesReadBy('compare', values));
    const compared = await compareResultsFiles(values.dataset, values.results, {
      ...conventionsFromOptions(values),
      ...given({ calibrationPath: values.calibration }),
    });
    for (const { model, files } of compared.sameModels)
      io.stderr.write(
        `decidekit compare: note: ${files.join(' and ')} ${files.length === 2 ? 'both' : 'all'} carry model ${JSON.stringify(model)}: each row names its file beside the model\n`,
      );
    const rows = sort === null ? [...compared.scored] : sortByMetric(compared.scored, (r) => r.summary, sort);
    for (const note of conventionNotes(compared.scored)) io.stderr.write(`warning: ${note}\n`);
    if (values.json) {
      io.stdout.write(renderCompareJson(compared, rows, sort));
    } else {
      const width = io.stdout.columns;
      io.stdout.write(
        renderCompareMarkdown(rows, width) + renderCompareNotes(rows, width) + renderCompareStatistics(compared, width),
      );
    }
    if (htmlFile !== undefined) {
      await writeHtmlReport(io, htmlFile, renderCompareHtml(compared, rows));
    }
    return 0;
  },
});

/** The same file listed twice under --results would compare a model with itself: refused, naming it. */
function refuseRepeatedFiles(paths: readonly string[], cwd: string): void {
  const seen = new Map<string, string>();
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    let real = absolute;
    try {
      real = realpathSync(absolute);
    } catch {
      // absent: the loader says so
    }
    const before = seen.get(real);
    if (before !== undefined)
      throw new UsageError(
        before === path
          ? `--results ${path} is given twice: list each results file once`
          : `--results ${before} and ${path} are the same file: list each results file once`,
      );
    seen.set(real, path);
  }
}
