import { DecidekitError, InvalidInputError } from '../../core/errors.js';
import { caseTableOf, loadOfflineDataset, type OfflineDataset } from '../../datasets/offline/dataset.js';
import { readResults } from '../../datasets/offline/results.js';
import { renderValidationJson, renderValidationText, type FileCheck } from '../../reports/offline/score-text.js';
import { parseCommandArgs, type Command } from '../command.js';
import { colourEnabled } from '../io.js';
import { expandRepeatedOption, requireOption } from '../command.js';

const OPTIONS = {
  dataset: { type: 'string' },
  results: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
} as const;

/** A file that cannot be read at all is one whole-file problem, not a crash. */
function failed(role: 'dataset' | 'results', path: string, err: unknown): FileCheck {
  if (err instanceof InvalidInputError) return { role, path, ok: false, problems: err.problems, omitted: err.omitted };
  if (err instanceof DecidekitError)
    return { role, path, ok: false, problems: [{ file: path, line: null, message: err.message }], omitted: 0 };
  throw err;
}

export const command: Command = {
  name: 'validate',
  summary: 'check a dataset and results files against the formats',
  help: `Usage: decidekit validate --dataset FILE [--results FILE ...] [--json]

Checks a dataset and, optionally, results files against the offline formats, strictly:
every problem is listed with its file, line, case and field (up to 50 a file, the rest
counted). Results are checked against the dataset (unknown or duplicate case_id, one
model a file, probabilities in [0, 1] summing to 1, picked among the options, ...).

Options:
  --dataset FILE        dataset JSONL (required)
  --results FILE ...    results JSONL files; repeat the option or list several after it
  --json                one JSON document: {"ok", "files": [...]}

Exit codes: 0 every file valid, 1 any problem, 2 usage error.

Example:
  decidekit validate --dataset data/moderation/dataset.jsonl \\
                     --results data/moderation/results-loud-1.jsonl
`,
  async run(argv, io) {
    const { values } = parseCommandArgs(expandRepeatedOption(argv, 'results'), OPTIONS);
    const datasetPath = requireOption('dataset', values.dataset);
    const checks: FileCheck[] = [];
    let dataset: OfflineDataset | null = null;
    try {
      dataset = await loadOfflineDataset(datasetPath);
      // Counted from the column store: a large dataset never becomes a million objects here.
      const [yesNo, choice, score] = caseTableOf(dataset).countKinds();
      checks.push({
        role: 'dataset',
        path: datasetPath,
        ok: true,
        cases: yesNo + choice + score,
        byKind: { yesNo, choice, score },
      });
    } catch (err) {
      checks.push(failed('dataset', datasetPath, err));
    }
    for (const path of values.results ?? []) {
      if (dataset === null) {
        checks.push({ role: 'results', path, ok: null, reason: 'not checked: the dataset is invalid' });
        continue;
      }
      try {
        const r = await readResults(path, dataset, () => {});
        checks.push({ role: 'results', path, ok: true, model: r.model, lines: r.lines, missing: r.missing });
      } catch (err) {
        checks.push(failed('results', path, err));
      }
    }
    io.stdout.write(
      values.json
        ? renderValidationJson(checks)
        : renderValidationText(checks, { colour: colourEnabled(io.stdout, io.env) }),
    );
    return checks.every((c) => c.ok !== false) ? 0 : 1;
  },
};
