import { isFiniteNumber, isRecord } from '../json-value.js';
import { answersOf, assertNever, type QuestionSet } from '../question.js';

/**
 * The distributions a decoded answer body gives, leniently, for the robustness probes (the
 * conformance checks judge the rules): per asked question, aligned with its answers, or
 * null when it cannot be read (no answer, `noul` not a finite number, a probability that
 * is not one). A missing answer counts as 0; nothing is renormalised.
 */
export function readDistributions(body: unknown, questions: QuestionSet): (number[] | null)[] {
  const answers = isRecord(body) ? body['answers'] : undefined;
  return questions.map(([id, q]) => {
    const a = isRecord(answers) ? answers[id] : undefined;
    if (!isRecord(a)) return null;
    switch (q.type) {
      case 'noul': {
        const p = a['noul'];
        return isFiniteNumber(p) ? [p, 1 - p] : null;
      }
      case 'choice':
      case 'score': {
        const probs = a['probabilities'];
        if (!isRecord(probs)) return null;
        const out: number[] = [];
        for (const name of answersOf(q)) {
          const p = probs[name] ?? 0;
          if (!isFiniteNumber(p)) return null;
          out.push(p);
        }
        return out;
      }
      default:
        return assertNever(q);
    }
  });
}
