import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import { canonicalQuestionText } from '../../core/question-rules.js';
import { sha256Hex } from './file-hash.js';

/** A question's hash in a question set: the first 16 hex digits of the sha256 of its canonical text. */
export function questionHash(canonicalText: string): string {
  return sha256Hex(canonicalText).slice(0, 16);
}

/** `workflow/qid` -> `questionHash` of each question's canonical text, keys sorted. */
export function questionSetOf(cases: readonly TypedDecisionsCase[]): Record<string, string> {
  const found = new Map<string, string>();
  for (const c of cases) {
    for (const [qid, question] of c.questions) {
      const key = `${c.workflow}/${qid}`;
      const hash = questionHash(canonicalQuestionText(question));
      const seen = found.get(key);
      if (seen !== undefined && seen !== hash) {
        throw new DecidekitError(
          'inconsistent_questions',
          `question ${key} has two different schemas (case ${c.id}); one question id must mean one question within a workflow`,
          {
            context: { question: key, caseId: c.id },
          },
        );
      }
      found.set(key, hash);
    }
  }
  const out: Record<string, string> = {};
  for (const key of [...found.keys()].sort()) out[key] = found.get(key)!;
  return out;
}
