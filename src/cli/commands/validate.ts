import { defineCommand, flag, list, text } from '../define-command.js';
import { colourEnabled } from '../io.js';
import { given } from '../../core/given.js';
import { refuseWrongFilesOf } from '../wrong-file.js';
import { validateFiles } from '../../app/offline/validate-files.js';
import { renderValidationJson, renderValidationText } from '../../reports/offline/score-text.js';

export const command = defineCommand({
  name: 'validate',
  summary: 'check a dataset and results files against the formats',
  usage: 'validate --dataset FILE [--results FILE ...] [--json]',
  description: `Checks a dataset and, optionally, results files against the offline formats, strictly:
every problem is listed with its file, line, case and field (up to 50 a file, the rest
counted). Results are checked against the dataset (unknown or duplicate case_id, one
model a file, probabilities in [0, 1] summing to 1, picked among the options, ...).`,
  options: {
    dataset: text('FILE', 'dataset JSONL or Parquet', { required: true }),
    results: list('FILE', 'results files (JSONL or Parquet); repeat the option or list several after it'),
    json: flag('one JSON document: {"ok", "files": [...]}'),
  },
  exitCodes: '0 every file valid, 1 any problem, 2 usage error, 130 interrupted.',
  examples: [
    'decidekit validate --dataset data/moderation/dataset.jsonl \\\n' +
      '                   --results data/moderation/results-loud-1.jsonl',
  ],
  async run({ values }, io) {
    await refuseWrongFilesOf('validate', values, io.cwd);
    const checks = await validateFiles(values.dataset, values.results);
    io.stdout.write(
      values.json
        ? renderValidationJson(checks)
        : renderValidationText(checks, {
            colour: colourEnabled(io.stdout, io.env),
            ...given({ width: io.stdout.columns }),
          }),
    );
    return checks.every((c) => c.ok !== false) ? 0 : 1;
  },
});
