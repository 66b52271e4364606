import { UsageError } from '../../core/errors.js';
import {
  COMPARE_SORT_METRICS,
  isCompareSortMetric,
  sortByMetric,
  type CompareSortMetric,
} from '../../core/offline/model-ranking.js';
import { defineCommand, flag, list, oneOf, text } from '../define-command.js';
import { requiredValue } from '../option-checks.js';

const METRICS = Object.keys(COMPARE_SORT_METRICS) as CompareSortMetric[];

const sortOption = oneOf(
  'METRIC',
  METRICS,
  `order rows best first by: ${METRICS.join(', ')}\n(absent values last; default: the order given)`,
);

export const command = defineCommand({
  name: 'compare',
  summary: "compare several models' saved answers in one table",
  usage: 'compare --dataset FILE --results FILE [FILE ...] [--sort METRIC] [--json] [--html FILE]',
  description: `Scores several results files (one model each) against the same dataset and prints one
Markdown table, one row per file in the order given: Model, Accuracy, Brier, Log loss,
ECE, Score MAE, $ / correct, Latency (ms). Never calls a model.`,
  options: {
    dataset: text('FILE', 'dataset JSONL (required)'),
    results: list('FILE', 'results JSONL files; repeat the option or list several after it'),
    sort: {
      ...sortOption,
      parse: (raw, name) => {
        if (typeof raw === 'string' && !isCompareSortMetric(raw))
          throw new UsageError(`--sort ${JSON.stringify(raw)} is not a metric (one of: ${METRICS.join(', ')})`);
        return sortOption.parse(raw, name);
      },
    },
    json: flag('one JSON document, unrounded numbers'),
    html: text('FILE', 'also write an HTML report (metrics, reliability diagrams) to FILE'),
  },
  exitCodes: '0 ok, 1 invalid input (every problem of every file listed), 2 usage error, 130 interrupted.',
  examples: [
    'decidekit compare --dataset data/moderation/dataset.jsonl \\\n' +
      '                  --results data/moderation/results-careful-1.jsonl \\\n' +
      '                            data/moderation/results-loud-1.jsonl \\\n' +
      '                            data/moderation/results-budget-1.jsonl',
  ],
  async run({ values }, io) {
    const datasetPath = requiredValue('dataset', values.dataset);
    if (values.results.length === 0) throw new UsageError('--results is required (one or more files)');
    const sort = values.sort ?? null;
    const { refuseWrongFiles } = await import('../wrong-file.js');
    await refuseWrongFiles(
      [
        { option: '--dataset', path: datasetPath, expects: 'offline-dataset' },
        ...values.results.map((path) => ({ option: '--results', path, expects: 'offline-results' as const })),
      ],
      io.cwd,
    );
    const { scoreResultsFiles } = await import('../../app/offline/score-files.js');
    const { dataset, scored } = await scoreResultsFiles(datasetPath, values.results);
    const rows = sort === null ? scored : sortByMetric(scored, (r) => r.summary, sort);
    if (values.json) {
      const { renderCompareJson } = await import('../../reports/offline/score-json.js');
      io.stdout.write(renderCompareJson(dataset.path, rows, sort));
    } else {
      const { renderCompareMarkdown, renderCompareNotes } = await import('../../reports/offline/score-text.js');
      io.stdout.write(renderCompareMarkdown(rows) + renderCompareNotes(rows));
    }
    if (values.html !== undefined) {
      const { renderCompareHtml } = await import('../../reports/html/offline-html.js');
      const { writeHtmlReport } = await import('../write-html.js');
      await writeHtmlReport(io, values.html, renderCompareHtml(dataset.path, rows));
    }
    return 0;
  },
});
