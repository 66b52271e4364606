/**
 * `tune RUN`: threshold tuning on a stored benchmark run's yes/no (`noul`) questions, one
 * tuning per question (`workflow/question`), as `tune` tunes an offline file. A decision's
 * score is its P(true); its label is the gold label, the dataset's most likely answer (a soft
 * gold of 0.6 true is a yes, 0.4 a no; the gold probability itself is not a weight). Failed
 * decisions have no score: they count as missing.
 */
import { DecidekitError } from '../../core/errors.js';
import { tunePoints, type TuneOptions, type TunePoint } from '../../core/offline/threshold-tuning.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { openStore } from '../../store/open-store.js';
import type { AskedBy } from '../../store/record-kind.js';
import type { TunedQuestion, TunedRun } from '../../core/offline/tuned-model.js';
import { rankTunePoints } from './tune-threshold.js';

/** Each yes/no question's points and missing count, from a run's cases. */
export function yesNoPointsOf(cases: Iterable<CaseResult>): Map<string, { points: TunePoint[]; missing: number }> {
  const byQuestion = new Map<string, { points: TunePoint[]; missing: number }>();
  for (const c of cases)
    for (const d of c.decisions) {
      if (d.type !== 'noul') continue;
      const key = `${c.workflow}/${d.questionId}`;
      let q = byQuestion.get(key);
      if (q === undefined) byQuestion.set(key, (q = { points: [], missing: 0 }));
      if (d.outcome.status !== 'answered') {
        q.missing++;
        continue;
      }
      const yes = d.answers.indexOf('true');
      q.points.push({
        id: c.caseId,
        probability: d.outcome.probabilities[yes] ?? 0,
        positive: d.gold.label === 'true',
      });
    }
  return byQuestion;
}

/** Tunes every yes/no question of the stored run `prefix` names. */
export function tuneStoredRun(storePath: string, prefix: string, options: TuneOptions, askedBy: AskedBy): TunedRun {
  const store = openStore(storePath, { mustExist: true, readOnly: true });
  try {
    const runId = store.resolveId(prefix, 'run', askedBy);
    const head = store.runs.head(runId)!;
    const model = head.model ?? head.embeddedServer?.model ?? head.answeredModels?.join(', ') ?? '(unnamed model)';
    const dataset = `${head.dataset.id}${head.dataset.revision === null ? '' : `@${head.dataset.revision}`}`;
    const byQuestion = yesNoPointsOf(store.cases.iterate(runId));
    const questions = [...byQuestion.keys()].sort().map((question): TunedQuestion => {
      const { points, missing } = byQuestion.get(question)!;
      try {
        const report = tunePoints(points, options, missing);
        const tuned = {
          model: `${model}, ${question}`,
          datasetPath: dataset,
          resultsPath: `run ${runId}`,
          report,
          points,
          ranking: rankTunePoints(points, options),
        };
        return { question, tuned };
      } catch (err) {
        if (err instanceof DecidekitError && err.code === 'one_class') return { question, skipped: err.message };
        throw err;
      }
    });
    return { runId, model, dataset, questions };
  } finally {
    store.close();
  }
}
