/**
 * The built-in heuristic's reading of one request: per workflow, what it reads from the
 * state (docs/system-one.md, "The reference server's built-in models"), turned into graded logits, score means and noul logits.
 * A recognised question maps to one of these signals by name.
 */
export interface Signals {
  /** Choice logits by option name. */
  readonly choice: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Expected level of a score question. */
  readonly score: Readonly<Record<string, number>>;
  /** Logit of P(true) of a noul question. */
  readonly noul: Readonly<Record<string, number>>;
}
