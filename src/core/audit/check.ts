/**
 * Answer audits: a versioned `choice` question about an agent's public answer text, asked
 * of a decision-model judge and compared with a deterministic check's verdict. An audit
 * never changes a score: a disagreement is a review candidate, not a corrected verdict.
 */

/** What the judge reads: every public assistant message (plus a differing final answer), or the last one only. */
export type EvidenceScope = 'messages' | 'final_answer';
export const EVIDENCE_SCOPES: readonly EvidenceScope[] = ['messages', 'final_answer'];

/** `recommended` checks are audited by default; `all` adds the weaker ones. */
export type CheckSet = 'recommended' | 'all';
export const CHECK_SETS: readonly CheckSet[] = ['recommended', 'all'];

/** The option the judge may give when the evidence does not decide the question. */
export const UNCLEAR = 'unclear';

/** A check as validated from the checks file. */
export interface AuditCheck {
  /** With a version suffix: `payment-claim-v1`. */
  readonly id: string;
  /** The id without its version suffix (`payment-claim`). */
  readonly base: string;
  readonly version: number;
  readonly set: CheckSet;
  /** The check applies to a transcript of one of these scenarios or carrying one of these tags. */
  readonly scenarios: readonly string[];
  readonly tags: readonly string[];
  readonly instructions: string;
  /** The verdict options in file order (never `unclear`), 2 or more. */
  readonly options: readonly string[];
  /** Description per option, aligned with `options`. */
  readonly descriptions: readonly string[];
  /** Description of the `unclear` option, when the check offers one. */
  readonly unclear: string | null;
  readonly scope: EvidenceScope;
}

const VERSIONED_ID = /^([a-z0-9][a-z0-9_.-]*?)-v([1-9][0-9]*)$/;

/** `payment-claim-v1` -> {base: 'payment-claim', version: 1}; null without a version suffix. */
export function parseCheckId(id: string): { readonly base: string; readonly version: number } | null {
  const m = VERSIONED_ID.exec(id);
  return m === null ? null : { base: m[1]!, version: Number(m[2]) };
}

/** The checks a `--set` selects: `recommended` only those, `all` every check. */
export function checksOfSet(checks: readonly AuditCheck[], set: CheckSet): AuditCheck[] {
  return checks.filter((c) => set === 'all' || c.set === 'recommended');
}
