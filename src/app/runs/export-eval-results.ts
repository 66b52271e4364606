/**
 * `runs export --format eval-results`: the Hugging Face leaderboard entry of a run, only for
 * a complete, unfiltered run on the real Typed Decisions test split at the revision the
 * leaderboard scored. Anything else is refused with every reason that applies.
 */
import { given } from '../../core/given.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRun } from '../../core/bench/run.js';
import { isFiltered } from '../../core/bench/run.js';
import { DecidekitError } from '../../core/errors.js';
import { benchResumeCommand } from '../../core/command-hints.js';
import { joinWords, optionMention as option, words, type MessageWords } from '../../core/message-words.js';
import { PINNED_REVISION, SAMPLE_ID, TYPED_DECISIONS_ID } from '../../datasets/typed-decisions/provenance.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import type { AskedBy } from '../../store/record-kind.js';
import { renderEvalResultsYaml, renderPredictionLine } from '../../reports/runs/eval-results.js';
import { writeTextFile } from '../write-text-file.js';
import { readStoredRun } from './stored-runs.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { prepareOutputPath } from '../output-file.js';

/** Cases of the Typed Decisions test split (4 workflows x 100). */
export const TYPED_DECISIONS_TEST_CASES = 400;
export const EVAL_RESULTS_FILE = '.eval_results/typed-decisions.yaml';
export const PREDICTIONS_FILE = 'typed-decisions-predictions.jsonl';

/** Why this run cannot be a leaderboard entry; empty when it can. */
export function evalResultsRefusals(
  run: BenchRun,
  status: StoredRunHead['status'],
  storePath?: string,
): MessageWords[] {
  const reasons: MessageWords[] = [];
  const d = run.config.dataset;
  if (d.synthetic || d.id === SAMPLE_ID)
    reasons.push([`it ran on the synthetic sample (${d.id}), whose numbers are never Typed Decisions scores`]);
  else if (d.id !== TYPED_DECISIONS_ID) reasons.push([`its dataset is ${d.id}, not ${TYPED_DECISIONS_ID}`]);
  else {
    if (d.revision !== PINNED_REVISION)
      reasons.push([`it used revision ${d.revision ?? '(none)'}; the leaderboard scores revision ${PINNED_REVISION}`]);
    if (d.split !== 'test') reasons.push([`it used the ${d.split} split; the leaderboard scores test`]);
  }
  if (isFiltered(run.config)) {
    const f = run.config.filters;
    const how = [
      f.limit === null ? null : words`${option('limit')} ${f.limit}`,
      f.workflow === null ? null : words`${option('workflow')} ${f.workflow}`,
      f.sample === undefined || f.sample === null
        ? null
        : words`${option('sample')} ${f.sample.cases} ${option('sample.seed')} ${f.sample.seed}`,
    ].filter((x) => x !== null);
    reasons.push(words`it is a filtered run (${joinWords(how, ', ')}), covering part of the split`);
  } else if (d.id === TYPED_DECISIONS_ID && run.config.caseIds.length !== TYPED_DECISIONS_TEST_CASES)
    reasons.push([`it has ${run.config.caseIds.length} cases; the test split has ${TYPED_DECISIONS_TEST_CASES}`]);
  // A map fitted on the scored split would grade the model on in-sample numbers.
  const map = run.config.calibration;
  if (map !== undefined)
    reasons.push([
      `its numbers were recalibrated with ${map.path} (${map.method} by ${map.by}, sha256 ${map.sha256.slice(0, 12)}) as it ran; the leaderboard scores the model's own answers`,
    ]);
  if (status !== 'complete') {
    const r = run.summary.requests;
    const answered = `${r.answered} of ${run.config.caseIds.length} cases answered`;
    reasons.push([
      status === 'running' || status === 'interrupted'
        ? `it is ${status} (${answered}; finish it with: ${benchResumeCommand(run.id, { store: storePath })})`
        : `it is incomplete (${r.failed} failed request${r.failed === 1 ? '' : 's'}, ${answered}; send them again with: ${benchResumeCommand(run.id, { store: storePath, retryFailed: true })})`,
    ]);
  }
  return reasons;
}

/**
 * Writes `DIR/.eval_results/typed-decisions.yaml` and `DIR/typed-decisions-predictions.jsonl`;
 * returns the paths written.
 */
export async function exportEvalResults(
  storePath: string,
  prefix: string,
  dir: string,
  options: { readonly sourceUrl?: string; readonly askedBy: AskedBy },
): Promise<{ runId: string; files: string[] }> {
  const { run, head } = readStoredRun(storePath, prefix, options.askedBy);
  const reasons = evalResultsRefusals(run, head.status, storePath);
  if (reasons.length > 0)
    throw new DecidekitError(
      'not_leaderboard_run',
      words`run ${run.id} cannot be a Typed Decisions leaderboard entry: ${joinWords(reasons, '; ')}`,
    );
  // Checked (and made) once the run is known to be an entry, before anything is written.
  const { folder } = await prepareOutputPath(dir, 'outDir', { folderOnly: true });
  const yamlPath = join(folder, EVAL_RESULTS_FILE);
  const predictionsPath = join(folder, PREDICTIONS_FILE);
  try {
    mkdirSync(join(folder, '.eval_results'), { recursive: true });
  } catch (err) {
    throw new DecidekitError(
      'write_failed',
      `cannot write leaderboard entry: ${folder} (${fileErrorWords(err, 'cannot create')})`,
      {
        cause: err,
      },
    );
  }
  await writeTextFile(predictionsPath, run.cases.map(renderPredictionLine).join(''), 'predictions');
  await writeTextFile(
    yamlPath,
    renderEvalResultsYaml(run, {
      predictionsFile: PREDICTIONS_FILE,
      ...given({ sourceUrl: options.sourceUrl }),
    }),
    'leaderboard entry',
  );
  return { runId: run.id, files: [yamlPath, predictionsPath] };
}
