import type { BenchCase } from '../../core/bench/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import { canonicalQuestionText } from '../../core/question-rules.js';
import { sha256Hex } from './file-hash.js';

/** `workflow/qid` -> 16-hex sha256 of each question's canonical text, keys sorted. */
export function questionSetOf(cases: readonly BenchCase[]): Record<string, string> {
  const found = new Map<string, string>();
  for (const c of cases) {
    for (const [qid, question] of c.questions) {
      const key = `${c.workflow}/${qid}`;
      const hash = sha256Hex(canonicalQuestionText(question)).slice(0, 16);
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
