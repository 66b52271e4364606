/**
 * The stop rule shared by every command that asks a server many times (`bench`, `probe`,
 * `audit`): when the first requests all fail one same way, every later one would too, so
 * the work stops after a few of them instead of spending the whole run on them. Once one
 * request went otherwise (answered, or failed another way), the rule is off for the rest
 * of the run: a server that answered once is worth asking again.
 */

/** How many first requests failing one same way stop the work. */
export const FAILURE_STREAK = 5;

export interface FailureStreak {
  /**
   * A request failed the followed way; `key` says how (a message, a failure kind): a key
   * unlike the ones before ends the streak. True when the streak reached its length: stop.
   */
  failed(key: string): boolean;
  /** A request went otherwise: the streak is over for good. */
  broken(): void;
  /** The failures counted so far (0 once broken). */
  readonly count: number;
}

/** A streak of `length` first failures (at least 1; a shorter run passes its own size). */
export function createFailureStreak(length: number = FAILURE_STREAK): FailureStreak {
  const target = Math.max(1, length);
  let state: { key: string; count: number } | null = { key: '', count: 0 };
  return {
    failed(key) {
      if (state === null) return false;
      if (state.count > 0 && state.key !== key) {
        state = null;
        return false;
      }
      state = { key, count: state.count + 1 };
      return state.count >= target;
    },
    broken() {
      state = null;
    },
    get count() {
      return state?.count ?? 0;
    },
  };
}
