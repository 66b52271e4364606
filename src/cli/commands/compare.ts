import { UsageError } from '../../core/errors.js';
import { COMPARE_SORT_METRICS, isCompareSortMetric, sortByMetric } from '../../core/offline/model-ranking.js';
import { renderCompareJson } from '../../reports/offline/score-json.js';
import { renderCompareMarkdown, renderCompareNotes } from '../../reports/offline/score-text.js';
import { parseCommandArgs, type Command } from '../command.js';
import { expandRepeatedOption, requireOption } from '../command.js';
import { loadWithPrefetch, scoreFiles } from '../../app/offline/score-files.js';

const OPTIONS = {
  dataset: { type: 'string' },
  results: { type: 'string', multiple: true },
  sort: { type: 'string' },
  json: { type: 'boolean', default: false },
  html: { type: 'string' },
} as const;

const METRICS = Object.keys(COMPARE_SORT_METRICS).join(', ');

export const command: Command = {
  name: 'compare',
  summary: "compare several models' saved answers in one table",
  help: `Usage: decidekit compare --dataset FILE --results FILE [FILE ...] [--sort METRIC] [--json] [--html FILE]

Scores several results files (one model each) against the same dataset and prints one
Markdown table, one row per file in the order given: Model, Accuracy, Brier, Log loss,
ECE, Score MAE, $ / correct, Latency (ms). Never calls a model.

Options:
  --dataset FILE        dataset JSONL (required)
  --results FILE ...    results JSONL files; repeat the option or list several after it
  --sort METRIC         order rows best first by: ${METRICS}
                        (absent values last; default: the order given)
  --json                one JSON document, unrounded numbers
  --html FILE           also write an HTML report (metrics, reliability diagrams) to FILE

Exit codes: 0 ok, 1 invalid input (every problem of every file listed), 2 usage error.

Example:
  decidekit compare --dataset data/moderation/dataset.jsonl \\
                    --results data/moderation/results-careful-1.jsonl \\
                              data/moderation/results-loud-1.jsonl \\
                              data/moderation/results-budget-1.jsonl
`,
  async run(argv, io) {
    const { values } = parseCommandArgs(expandRepeatedOption(argv, 'results'), OPTIONS);
    const datasetPath = requireOption('dataset', values.dataset);
    const results = values.results ?? [];
    if (results.length === 0) throw new UsageError('--results is required (one or more files)');
    const sort = values.sort ?? null;
    if (sort !== null && !isCompareSortMetric(sort))
      throw new UsageError(`--sort ${JSON.stringify(sort)} is not a metric (one of: ${METRICS})`);
    const { dataset, prefetched } = await loadWithPrefetch(datasetPath, results[0]!);
    let rows = await scoreFiles(dataset, results, undefined, prefetched);
    if (sort !== null && isCompareSortMetric(sort)) rows = sortByMetric(rows, (r) => r.summary, sort);
    if (values.html !== undefined) {
      const { renderCompareHtml } = await import('../../reports/html/offline-html.js');
      const { writeHtmlReport } = await import('../write-html.js');
      await writeHtmlReport(io, values.html, renderCompareHtml(dataset.path, rows));
    }
    io.stdout.write(
      values.json
        ? renderCompareJson(dataset.path, rows, sort)
        : renderCompareMarkdown(rows) + renderCompareNotes(rows),
    );
    return 0;
  },
};
