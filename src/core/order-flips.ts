/**
 * Flips: whether the answer a distribution picks changes between two askings of the same
 * question (options reordered, questions reordered, asked alone, asked again). Shared by the
 * audit's order swap (`--order-probe`) and `decidekit probe`.
 */

/** The word for a distribution whose top probability is shared by several answers. */
export const TIE = 'tie';

/**
 * The answer a distribution picks, by name: its one most probable answer, or `tie` when
 * several share the top probability (so a tie broken differently by order is no flip).
 */
export function topAnswerOf(answers: readonly string[], probabilities: readonly number[]): string {
  let top = -Infinity;
  let at = -1;
  let ties = 0;
  for (let i = 0; i < answers.length; i++) {
    const p = probabilities[i] ?? 0;
    if (p > top) {
      top = p;
      at = i;
      ties = 1;
    } else if (p === top) ties++;
  }
  return ties === 1 ? answers[at]! : TIE;
}

/** One question asked two ways: the answer picked each time. */
export interface AnswerPair {
  readonly id: string;
  readonly before: string;
  readonly after: string;
}

export interface FlipCount {
  readonly pairs: number;
  /** Flipped / pairs; null when there are no pairs. */
  readonly flipRate: number | null;
  /** Ids of the pairs whose answer changed, in input order. */
  readonly flipped: readonly string[];
}

export function countFlips(pairs: Iterable<AnswerPair>): FlipCount {
  let n = 0;
  const flipped: string[] = [];
  for (const p of pairs) {
    n++;
    if (p.before !== p.after) flipped.push(p.id);
  }
  return { pairs: n, flipRate: n === 0 ? null : flipped.length / n, flipped };
}
