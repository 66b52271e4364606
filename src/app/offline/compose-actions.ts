/**
 * The composed actions use case: group field decisions into items, compose them into
 * actions by the spec's rules and price each model's errors, gathering the problems of every
 * results file before failing.
 */
import { basename } from 'node:path';
import {
  compareActionModels,
  evaluateActions,
  type ActionEvaluation,
  type ItemSchema,
} from '../../core/offline/composed-actions.js';
import { InvalidInputError, OptionError, type InputProblem } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { DEFAULT_PROBLEM_CAP } from '../../core/problem-list.js';
import { actionItemsOf, refuseActionSpecMisfit, loadActionSpec } from '../../datasets/offline/action-spec.js';
import { loadOfflineDataset } from '../../datasets/offline/dataset.js';
import { loadResults } from '../../datasets/offline/results.js';

export interface ComposeActionsInput {
  readonly datasetPath: string;
  readonly specPath: string;
  readonly resultsPaths: readonly string[];
  /** `FIELD=P` per yes_no field (predicted yes iff P(yes) >= P; default 0.5). */
  readonly thresholds: readonly string[];
}

/** Evaluates every results file as composed actions and ranks the models. */
export async function composeActions(input: ComposeActionsInput) {
  const { datasetPath, specPath, resultsPaths } = input;
  const dataset = await loadOfflineDataset(datasetPath);
  const items = actionItemsOf(dataset);
  const spec = await loadActionSpec(specPath);
  refuseActionSpecMisfit(spec, items, specPath);
  const thresholds = parseFieldThresholds(input.thresholds, items.schema);

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
  return { datasetPath, specPath, spec, items, thresholds, resultsPaths, comparison: compareActionModels(models) };
}

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
      throw new OptionError(
        'thresholds',
        words`${option('thresholds')} ${JSON.stringify(v)} is not valid (FIELD=P with P a probability in [0, 1])`,
      );
    }
    if (!yesNo.includes(field)) {
      throw new OptionError(
        'thresholds',
        words`${option('thresholds')} ${v}: '${field}' is not a yes_no field of the dataset (yes_no fields: ${yesNo.join(', ') || 'none'})`,
      );
    }
    if (out.has(field)) throw new OptionError('thresholds', words`${option('thresholds')} ${field} given twice`);
    out.set(field, p);
  }
  return out;
}
