import { outputPathOption } from '../shared-options.js';
import { given } from '../../core/given.js';
import { UsageError } from '../../core/errors.js';
import { outFileOf } from '../out-file.js';
import { decimal, defineCommand, flag, list, oneOf, text } from '../define-command.js';
import { colourEnabled } from '../io.js';
import { conventionsFromOptions, fileStatisticsOptions } from '../statistics-options.js';
import { filesReadBy, refuseWrongFilesOf } from '../wrong-file.js';
import { scoreWithDuckDb } from '../../app/offline/score-with-duckdb.js';
import { scoreResultsFiles } from '../../app/offline/score-files.js';
import { conventionNotes, renderScoreJson } from '../../reports/offline/score-json.js';
import { renderScoreHtml } from '../../reports/offline/offline-html.js';
import { writeHtmlReport } from '../write-html.js';
import { renderScoreText } from '../../reports/offline/score-text.js';

export const command = defineCommand({
  name: 'score',
  summary: "score one model's saved answers against a dataset",
  usage:
    'score --dataset FILE --results FILE [--threshold P] [--ece-bins N] [--ece-binning equal-width|equal-mass] [--ece-average pooled|per-question] [--seed S] [--no-ci] [--engine node|duckdb] [--calibration MAP] [--json] [--html FILE]',
  description: `Scores one model's saved decisions (a results JSONL or Parquet file) against a dataset with known
answers. Never calls a model. JSONL files may be gzipped (.gz).

Prints accuracy, Brier, log loss, ECE (with the reliability table), score MAE, cost per
correct decision and mean latency. Absent numbers read n/a (null in JSON). Accuracy, Brier,
log loss and ECE carry a 95% interval (2,000 seeded case-level bootstrap resamples; JSON
keys accuracy_ci, brier_ci, log_loss_ci, ece_ci), and ECE the noise floor of a perfectly
calibrated model with the same confidences. Every report states its conventions
(docs/scoring.md).

--engine duckdb scores inside DuckDB (the optional package @duckdb/node-api), for files
larger than memory, JSONL (.gz) or Parquet: the same numbers and report, without intervals
(as --no-ci) and with equal-width pooled ECE bins only. What it checks: docs/file-formats.md.`,
  options: {
    dataset: text('FILE', 'dataset JSONL (one case a line) or Parquet (one a row)', { required: true }),
    results: list('FILE', "one model's results, JSONL or Parquet", { required: true }),
    threshold: decimal('P', 'yes/no cases: predicted yes iff P(yes) >= P', { min: 0, max: 1, default: 0.5 }),
    ...fileStatisticsOptions,
    engine: oneOf('ENGINE', ['node', 'duckdb'], 'score in this process (node) or inside DuckDB (duckdb)', {
      default: 'node',
    }),
    json: flag('one JSON document, unrounded numbers'),
    html: outputPathOption(
      text('FILE', 'also write an HTML report (reliability diagram, metrics) to FILE (into a folder: score.html)'),
      'file',
    ),
    calibration: text('MAP', 'apply a calibration map written by decidekit calibrate --out before scoring'),
  },
  examples: [
    'decidekit score --dataset data/moderation/dataset.jsonl \\\n' +
      '                --results data/moderation/results-careful-1.jsonl',
    'decidekit score --engine duckdb --dataset cases.jsonl \\\n' + '    --results big-results.parquet',
  ],
  async run({ values }, io) {
    const datasetPath = values.dataset;
    if (values.results.length > 1)
      throw new UsageError(
        `score takes one --results file, got ${values.results.length} (use 'decidekit compare' for several)`,
      );
    await refuseWrongFilesOf('score', values, io.cwd);
    const htmlFile = await outFileOf('htmlPath', values.html, io.cwd, 'score.html', filesReadBy('score', values));
    let scored;
    if (values.engine === 'duckdb' && values.calibration !== undefined)
      throw new UsageError('--calibration applies a map in this process: use it with --engine node (the default)');
    if (values.engine === 'duckdb') {
      // Intervals need every decision in memory: the DuckDB engine reports none, as --no-ci.
      if (!values['no-ci']) io.stderr.write('note: --engine duckdb reports no intervals (as --no-ci)\n');
      conventionsFromOptions(values); // refuses --seed with --no-ci
      const { conventions } = conventionsFromOptions({ ...values, seed: undefined, 'no-ci': true });
      scored = [await scoreWithDuckDb(datasetPath, values.results[0]!, { threshold: values.threshold, conventions })];
    } else {
      ({ scored } = await scoreResultsFiles(datasetPath, values.results, {
        threshold: values.threshold,
        ...conventionsFromOptions(values),
        ...given({ calibrationPath: values.calibration }),
      }));
    }
    for (const note of conventionNotes(scored)) io.stderr.write(`warning: ${note}\n`);
    if (htmlFile !== undefined) {
      await writeHtmlReport(io, htmlFile, renderScoreHtml(scored[0]!));
    }
    if (values.json) {
      io.stdout.write(renderScoreJson(scored[0]!));
    } else {
      io.stdout.write(
        renderScoreText(scored[0]!, {
          colour: colourEnabled(io.stdout, io.env),
          ...given({ width: io.stdout.columns }),
        }),
      );
    }
    return 0;
  },
});
