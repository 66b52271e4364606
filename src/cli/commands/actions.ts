import { basename } from 'node:path';
import {
  compareActionModels,
  evaluateActions,
  type ActionEvaluation,
  type ItemSchema,
} from '../../core/offline/composed-actions.js';
import { InvalidInputError, UsageError, type InputProblem } from '../../core/errors.js';
import { DEFAULT_PROBLEM_CAP } from '../../core/problem-list.js';
import { actionItemsOf, checkActionSpecFits, loadActionSpec } from '../../datasets/offline/action-spec.js';
import { loadOfflineDataset } from '../../datasets/offline/dataset.js';
import { loadResults } from '../../datasets/offline/results.js';
import { renderActionsJson } from '../../reports/offline/actions-json.js';
import { renderActionsText } from '../../reports/offline/actions-text.js';
import { parseCommandArgs, type Command } from '../command.js';
import { colourEnabled } from '../io.js';
import { expandRepeatedOption, requireOption } from '../command.js';

const OPTIONS = {
  dataset: { type: 'string' },
  spec: { type: 'string' },
  results: { type: 'string', multiple: true },
  threshold: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  html: { type: 'string' },
} as const;

/** `--threshold FIELD=P` values, checked against the dataset's yes_no fields. */
export function parseFieldThresholds(values: readonly string[], schema: ItemSchema): Map<string, number> {
  const out = new Map<string, number>();
  const yesNo = [...schema].filter(([, s]) => s.kind === 'yes_no').map(([f]) => f);
  for (const v of values) {
    const eq = v.lastIndexOf('=');
    const field = v.slice(0, eq);
    const text = v.slice(eq + 1);
    const p = Number(text);
    if (eq <= 0 || text.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) {
      throw new UsageError(`--threshold ${JSON.stringify(v)} is not valid (FIELD=P with P a probability in [0, 1])`);
    }
    if (!yesNo.includes(field)) {
      throw new UsageError(
        `--threshold ${v}: '${field}' is not a yes_no field of the dataset (yes_no fields: ${yesNo.join(', ') || 'none'})`,
      );
    }
    if (out.has(field)) throw new UsageError(`--threshold ${field} given twice`);
    out.set(field, p);
  }
  return out;
}

export const command: Command = {
  name: 'actions',
  summary: 'compose field decisions into actions and price the errors',
  help: `Usage: decidekit actions --dataset FILE --spec FILE --results FILE [FILE ...]
                         [--threshold FIELD=P ...] [--json] [--html FILE]

Scores saved field decisions as the actions they compose into (never calls a model).
Cases sharing a "group" are one item; each case is one field (its "field", else the part of
its id after the last ':'). The spec (JSON) lists the actions, the inaction, ordered rules
(first match wins; the last has no "when") and the cost of each gold->pred error ("*"
matches any action; a key that is absent costs default_error, default 1).

Per model: field accuracy and rank, action accuracy, mean cost per item and rank by cost,
false-inaction rate, costliest confusions, items and incomplete items (answered only
partly: excluded). Both rankings are printed.

Options:
  --dataset FILE         dataset JSONL with grouped cases (required)
  --spec FILE            action spec JSON (required)
  --results FILE ...     one or more results JSONL files, one model each (required)
  --threshold FIELD=P    yes iff P(yes) >= P for that yes_no field (default 0.5); repeatable
  --json                 one JSON document, unrounded numbers
  --html FILE            also write an HTML report (gold -> predicted action matrices) to FILE

Exit codes: 0 ok, 1 invalid input (every problem listed), 2 usage error.

Example:
  decidekit actions --dataset data/inbox/dataset.jsonl --spec data/inbox/spec.json \\
                    --results data/inbox/results-fieldsharp-1.jsonl \\
                              data/inbox/results-actionwise-1.jsonl
`,
  async run(argv, io) {
    const { values } = parseCommandArgs(expandRepeatedOption(argv, 'results'), OPTIONS);
    const datasetPath = requireOption('dataset', values.dataset);
    const specPath = requireOption('spec', values.spec);
    const resultsPaths = values.results ?? [];
    if (resultsPaths.length === 0) throw new UsageError('--results is required');

    const dataset = await loadOfflineDataset(datasetPath);
    const items = actionItemsOf(dataset);
    const spec = await loadActionSpec(specPath);
    checkActionSpecFits(spec, items, specPath);
    const thresholds = parseFieldThresholds(values.threshold ?? [], items.schema);

    const models: { model: string; evaluation: ActionEvaluation }[] = [];
    const problems: InputProblem[] = [];
    let omitted = 0;
    for (const path of resultsPaths) {
      try {
        const { model, results } = await loadResults(path, dataset);
        models.push({
          model: model ?? basename(path),
          evaluation: evaluateActions(spec, items, results, { thresholds }),
        });
      } catch (err) {
        if (!(err instanceof InvalidInputError) || resultsPaths.length === 1) throw err;
        for (const p of err.problems) {
          if (problems.length < DEFAULT_PROBLEM_CAP) problems.push(p);
          else omitted++;
        }
        omitted += err.omitted;
      }
    }
    if (problems.length + omitted > 0) throw new InvalidInputError(problems, omitted);
    // Two files of the same model would make the rankings ambiguous: name them by file.
    const names = models.map((m) => m.model);
    models.forEach((m, i) => {
      if (names.indexOf(m.model) !== names.lastIndexOf(m.model)) m.model = `${m.model} (${resultsPaths[i]})`;
    });

    const report = {
      datasetPath,
      specPath,
      spec,
      items,
      thresholds,
      resultsPaths,
      comparison: compareActionModels(models),
    };
    if (values.html !== undefined) {
      const { renderActionsHtml } = await import('../../reports/html/offline-html.js');
      const { writeHtmlReport } = await import('../write-html.js');
      await writeHtmlReport(io, values.html, renderActionsHtml(report));
    }
    io.stdout.write(
      values.json ? renderActionsJson(report) : renderActionsText(report, { colour: colourEnabled(io.stdout, io.env) }),
    );
    return 0;
  },
};
