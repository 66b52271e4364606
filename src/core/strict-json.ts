/**
 * JSON parsing for input that may be hostile: a server's response, a line of a user's file.
 *
 * `JSON.parse` itself copes with any nesting, but every recursive step after it (a
 * preview, `JSON.stringify`, canonical JSON, a validator) overflows the stack on a value
 * nested a few thousand levels deep, and it keeps the last of two equal keys silently. So
 * one cheap scan before parsing bounds the depth and counts the keys (a `:` outside a
 * string is always a key's); after parsing, the parsed objects must hold as many keys, or
 * two keys were equal and the slow search below names the first repeated one. Pure.
 */

/** Arrays and objects may nest this deep; deeper input is rejected before parsing. */
export const MAX_JSON_DEPTH = 512;

export type StrictJsonProblem = 'syntax' | 'too_deep' | 'duplicate_key';

export type StrictJsonParse =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: StrictJsonProblem; readonly message: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Strict `JSON.parse`: also rejects nesting deeper than `maxDepth` and repeated keys in one object. */
export function parseStrictJson(text: string, maxDepth: number = MAX_JSON_DEPTH): StrictJsonParse {
  let depth = 0;
  let keys = 0;
  const n = text.length;
  // Most characters are inside strings: each is skipped with `indexOf` (native) rather than
  // one character at a time; only the characters between strings are looked at.
  for (let i = 0; i < n;) {
    const quote = text.indexOf('"', i);
    const stop = quote === -1 ? n : quote;
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        if (++depth > maxDepth)
          return {
            ok: false,
            problem: 'too_deep',
            message: `too deeply nested: more than ${maxDepth} levels of arrays and objects`,
          };
      } else if (c === 0x7d || c === 0x5d) depth--;
      else if (c === COLON) keys++;
    }
    if (quote === -1) break;
    // An unterminated string runs to the end: JSON.parse's to report.
    i = endOfJsonString(text, quote) + 1;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: 'syntax', message: err instanceof Error ? err.message : String(err) };
  }
  if (keys > 0 && countKeys(value) !== keys) {
    const key = findRepeatedKey(text);
    return {
      ok: false,
      problem: 'duplicate_key',
      message: `key ${quoteKey(key ?? '?')} appears twice in one object (remove one: JSON keeps only the last)`,
    };
  }
  return { ok: true, value };
}

/** The quote that ends the string opened at `open` (a quote preceded by an even run of backslashes), or the text's length. */
export function endOfJsonString(text: string, open: number): number {
  for (let from = open + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslash = quote - 1;
    while (backslash > open && text.charCodeAt(backslash) === BACKSLASH) backslash--;
    if ((quote - 1 - backslash) % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** "not valid JSON (...)", or the strict parser's own message for depth and repeated keys. */
export function jsonProblemMessage(r: { readonly problem: StrictJsonProblem; readonly message: string }): string {
  return r.problem === 'syntax' ? `not valid JSON (${r.message})` : r.message;
}

/** Keys of every object in a parsed value (its depth is bounded by the scan). */
function countKeys(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let total = 0;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) stack.push(item as object);
    } else {
      const record = v as Record<string, unknown>;
      for (const k in record) {
        total++;
        const item = record[k];
        if (typeof item === 'object' && item !== null) stack.push(item);
      }
    }
  }
  return total;
}

/** The first key that repeats within one object of valid JSON `text`, decoded; null when none does. */
export function findRepeatedKey(text: string): string | null {
  return findRepeatedKeyAt(text)?.key ?? null;
}

/** As `findRepeatedKey`, with the offset in `text` of the key's second writing. */
export function findRepeatedKeyAt(text: string): { readonly key: string; readonly at: number } | null {
  const open: (Set<string> | null)[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === QUOTE) break;
        if (s === BACKSLASH) i++;
      }
      let j = i + 1;
      while (j < n && isJsonSpace(text.charCodeAt(j))) j++;
      const keys = open[open.length - 1];
      if (j < n && text.charCodeAt(j) === COLON && keys) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (keys.has(key)) return { key, at: start };
        keys.add(key);
      }
    } else if (c === 0x7b) open.push(new Set());
    else if (c === 0x5b) open.push(null);
    else if (c === 0x7d || c === 0x5d) open.pop();
  }
  return null;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function quoteKey(key: string): string {
  const q = JSON.stringify(key);
  return q.length > 62 ? `${q.slice(0, 60)}…"` : q;
}
