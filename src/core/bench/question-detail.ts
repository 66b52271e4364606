/**
 * Per-question details a benchmark report draws beside the summary: the gold majority
 * rate (how easy a question is) and the gold→predicted confusion matrix of each `choice`
 * and `score` question. Pure counts over the run's decisions; keys are `workflow/question`,
 * sorted, as in `BenchSummary.byQuestion`.
 */
import type { CaseResult } from './case-result.js';

export interface MajorityRate {
  /** The most common gold label (ties: the first in the question's answer order). */
  readonly label: string;
  /** Decisions whose gold label is `label` / all decisions of the question (failed included, as accuracy counts them). */
  readonly rate: number;
  readonly total: number;
}

/**
 * The accuracy a model would get by always answering each question's most common gold
 * label: 96% accuracy on a question whose majority rate is 95% is not an achievement.
 */
export function majorityRates(cases: readonly CaseResult[]): Record<string, MajorityRate> {
  const counts = new Map<string, { answers: readonly string[]; byLabel: Map<string, number>; total: number }>();
  for (const c of cases) {
    for (const d of c.decisions) {
      const key = `${c.workflow}/${d.questionId}`;
      let entry = counts.get(key);
      if (!entry) {
        entry = { answers: d.answers, byLabel: new Map(), total: 0 };
        counts.set(key, entry);
      }
      entry.total++;
      entry.byLabel.set(d.gold.label, (entry.byLabel.get(d.gold.label) ?? 0) + 1);
    }
  }
  const out: Record<string, MajorityRate> = {};
  for (const key of [...counts.keys()].sort()) {
    const { answers, byLabel, total } = counts.get(key)!;
    const rank = (label: string): number => {
      const i = answers.indexOf(label);
      return i === -1 ? answers.length : i;
    };
    let best: [string, number] | null = null;
    for (const [label, n] of byLabel) {
      if (best === null || n > best[1] || (n === best[1] && rank(label) < rank(best[0]))) best = [label, n];
    }
    out[key] = { label: best![0], rate: best![1] / total, total };
  }
  return out;
}

export interface ConfusionMatrix {
  /** `workflow/question`. */
  readonly key: string;
  readonly type: 'choice' | 'score';
  /** Row and column labels: the question's answers in order. */
  readonly answers: readonly string[];
  /** counts[gold][predicted], over answered decisions. */
  readonly counts: readonly (readonly number[])[];
  readonly answered: number;
  /** Answered decisions on the diagonal. */
  readonly correct: number;
}

/** One matrix per `choice` and `score` question that has answered decisions, keys sorted. */
export function confusionMatrices(cases: readonly CaseResult[]): ConfusionMatrix[] {
  const byKey = new Map<string, { type: 'choice' | 'score'; answers: string[]; pairs: Array<[string, string]> }>();
  for (const c of cases) {
    for (const d of c.decisions) {
      if (d.type === 'noul' || d.outcome.status !== 'answered') continue;
      const key = `${c.workflow}/${d.questionId}`;
      let entry = byKey.get(key);
      if (!entry) {
        entry = { type: d.type, answers: [...d.answers], pairs: [] };
        byKey.set(key, entry);
      }
      for (const label of [d.gold.label, d.outcome.predicted])
        if (!entry.answers.includes(label)) entry.answers.push(label);
      entry.pairs.push([d.gold.label, d.outcome.predicted]);
    }
  }
  return [...byKey.keys()].sort().map((key) => {
    const { type, answers, pairs } = byKey.get(key)!;
    const counts = answers.map(() => answers.map(() => 0));
    let correct = 0;
    for (const [gold, predicted] of pairs) {
      counts[answers.indexOf(gold)]![answers.indexOf(predicted)]!++;
      if (gold === predicted) correct++;
    }
    return { key, type, answers, counts, answered: pairs.length, correct };
  });
}
