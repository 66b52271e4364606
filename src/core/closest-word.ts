/** "Did you mean ...?": the known word nearest to a mistyped one. */

/** The known word nearest to `word` (edit distance at most a third of its length, >= 1), if any. */
export function closest(word: string, known: readonly string[]): string | null {
  // A word this long is no typo of a known one (and the edit distance would take seconds).
  if (word.length > 2 * Math.max(0, ...known.map((k) => k.length)) + 3) return null;
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const k of known) {
    const d = editDistance(word, k);
    if (d < bestDistance || (k.startsWith(word) && word.length >= 3 && best === null)) {
      best = k;
      bestDistance = Math.min(d, bestDistance);
    }
  }
  return best;
}

/** Edits between two words (insert, delete, replace, or swap two neighbours: "tset" is one from "test"). */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
