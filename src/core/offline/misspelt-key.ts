/**
 * "did you mean" for a results line that lacks a key it needs but has one that looks like it
 * misspelt (`prob`, `probs`, `caseid`, `caseId`): the one problem then names both, rather
 * than leaving the reader to find the typo. Both offline engines add it, so both say it alike.
 */
import { closest } from '../closest-word.js';

/** The keys a result line's object may have (a decision's are those of its case's kind). */
export const RESULT_KEYS: readonly string[] = ['case_id', 'model', 'decision', 'cost_usd', 'latency_ms'];

/**
 * The keys known where each key that may be missing belongs: a line's own for `case_id`,
 * `model` and `decision`, a decision's for the others. A key not among them may be a misspelling.
 */
export const KNOWN_KEYS_BESIDE: Readonly<Record<string, readonly string[]>> = {
  case_id: RESULT_KEYS,
  model: RESULT_KEYS,
  decision: RESULT_KEYS,
  probability: ['probability'],
  probabilities: ['probabilities'],
  value: ['value', 'confidence'],
};

/**
 * Words to add to "MISSING is missing" when `keys` (the object's, in order) hold one not in
 * `known` that looks like `missing` misspelt; empty when none does.
 */
export function misspeltKeyHint(keys: readonly string[], missing: string, known: readonly string[]): string {
  for (const key of keys) {
    if (!known.includes(key) && looksLikeKey(key, missing))
      // Single quotes: problems that differ only in a double-quoted value are grouped as one
      // cause, and each misspelling is its own.
      return `; the line has the unknown key '${key}': did you mean '${missing}'?`;
  }
  return '';
}

/** Whether `key` reads as `intended` misspelt: near in spelling, the same but for case and `_`, or its start. */
function looksLikeKey(key: string, intended: string): boolean {
  const plain = (word: string): string => word.toLowerCase().replace(/[_\s-]/g, '');
  const a = plain(key);
  const b = plain(intended);
  if (a === '' || a === b) return a !== '';
  if (closest(a, [b]) !== null) return true;
  // A shortening: `prob` and `probs` for `probability`, `conf` for `confidence`.
  return a.length >= 4 && b.startsWith(a.replace(/s$/, ''));
}
