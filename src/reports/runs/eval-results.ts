/**
 * The Hugging Face leaderboard entry of a Typed Decisions run: `.eval_results/*.yaml` in a
 * model repository (format: https://huggingface.co/docs/hub/eval-results; see
 * docs/file-formats.md, "Leaderboard entry"), and the per-case predictions behind it.
 */
import type { BenchRun } from '../../core/bench/run.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';

/**
 * The leaderboard's tasks that decidekit computes with the card's definitions, with the
 * run's value of each. ECE is left out: the card publishes no ECE formula, so decidekit's
 * ECE is not comparable with the card's column.
 */
export const EVAL_RESULT_TASKS = ['accuracy', 'kl_from_gold', 'brier'] as const;

export interface EvalResultsOptions {
  /** Where the per-case predictions are published: becomes `source.url` (the format requires a URL for a source). */
  readonly sourceUrl?: string;
  /** The predictions file's name, named in the notes. */
  readonly predictionsFile: string;
}

/** The YAML list: one entry per task, values unrounded, the run's start as the date. */
export function renderEvalResultsYaml(run: BenchRun, options: EvalResultsOptions): string {
  const s = run.summary;
  const values: Record<(typeof EVAL_RESULT_TASKS)[number], number | null> = {
    accuracy: s.accuracy,
    kl_from_gold: s.kl,
    brier: s.brier,
  };
  const model = run.config.embeddedServer?.model ?? run.config.model ?? 'the server default model';
  const notes = `decidekit ${run.config.toolVersion}, run ${run.id}, model ${model}; one request per case, ${s.total} decisions of ${run.config.caseIds.length} cases; per-case predictions in ${options.predictionsFile}`;
  const out = [
    `# Typed Decisions (${run.config.dataset.id}, ${run.config.dataset.split} split) scored by decidekit.`,
    '# ECE is not listed: the dataset card publishes no ECE formula, so the numbers are not comparable.',
  ];
  for (const task of EVAL_RESULT_TASKS) {
    const value = values[task];
    if (value === null) continue;
    out.push(
      '- dataset:',
      `    id: ${yamlString(run.config.dataset.id)}`,
      `    task_id: ${task}`,
      ...(run.config.dataset.revision === null ? [] : [`    revision: ${yamlString(run.config.dataset.revision)}`]),
      `  value: ${String(value)}`,
      `  date: ${yamlString(run.createdAt)}`,
      ...(options.sourceUrl === undefined
        ? []
        : [
            '  source:',
            `    url: ${yamlString(options.sourceUrl)}`,
            `    name: ${yamlString(`decidekit run ${run.id}`)}`,
          ]),
      `  notes: ${yamlString(notes)}`,
    );
  }
  return `${out.join('\n')}\n`;
}

/**
 * One case a line, shaped like the dataset's own `gold` so anyone can rescore it: `id`,
 * `workflow`, and per question the predicted `label` and the `probabilities` the model gave.
 */
export function renderPredictionLine(c: CaseResult): string {
  const predictions: Record<string, { label: string; probabilities: Record<string, number> }> = {};
  for (const d of c.decisions) {
    if (d.outcome.status !== 'answered') continue;
    const probabilities: Record<string, number> = {};
    d.answers.forEach((answer, i) => {
      probabilities[answer] = (d.outcome as { probabilities: readonly number[] }).probabilities[i]!;
    });
    predictions[d.questionId] = { label: d.outcome.predicted, probabilities };
  }
  return `${JSON.stringify({ id: c.caseId, workflow: c.workflow, predictions })}\n`;
}

/** A YAML double-quoted scalar: JSON's string syntax is a subset of it. */
function yamlString(text: string): string {
  return JSON.stringify(text);
}
