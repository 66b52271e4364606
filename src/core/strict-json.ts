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
  | {
      readonly ok: false;
      readonly problem: StrictJsonProblem;
      readonly message: string;
      /** Syntax: the offset in the text where the parse stopped (the text's length when it ended too early), when known. */
      readonly at?: number;
    };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Strict `JSON.parse`: also rejects nesting deeper than `maxDepth` and repeated keys in one object. */
export function parseStrictJson(text: string, maxDepth: number = MAX_JSON_DEPTH): StrictJsonParse {
  const keys = countStructure(text, maxDepth);
  if (keys < 0)
    return {
      ok: false,
      problem: 'too_deep',
      message: `too deeply nested: more than ${maxDepth} levels of arrays and objects`,
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const said = err instanceof Error ? err.message : String(err);
    const at = syntaxOffset(said, text);
    return { ok: false, problem: 'syntax', message: jsonSyntaxWords(said, text), ...(at === null ? {} : { at }) };
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

/**
 * The keys of `text` (a `:` outside a string is always a key's), or -1 when it nests deeper
 * than `maxDepth`. Most characters are inside strings: each is skipped with `indexOf` (native)
 * rather than one character at a time. Text without a backslash (most answers and lines) has
 * no escaped quote, so a string simply ends at the next quote.
 */
function countStructure(text: string, maxDepth: number): number {
  const escapes = text.indexOf('\\') !== -1;
  let depth = 0;
  let keys = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // An unterminated string runs to the end: JSON.parse's to report.
      i = escapes ? endOfJsonString(text, i) : text.indexOf('"', i + 1);
      if (i === -1) break;
    } else if (c === COLON) keys++;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return -1;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return keys;
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

const TRAILING_COMMA = '; is there a comma before "}" or "]"? JSON allows none';

/** What V8's JSON.parse says at a position, in words (`at` is "at character N", 1-based). */
const SYNTAX_WORDS: readonly (readonly [RegExp, (at: string) => string])[] = [
  [/^Expected double-quoted property name/, (at) => `a key in double quotes is expected ${at}`],
  [/^Expected property name or '}'/, (at) => `a key in double quotes or "}" is expected ${at}`],
  [/^Expected ',' or '}' after property value/, (at) => `a comma or "}" is missing after a value, ${at}`],
  [/^Expected ',' or ']' after array element/, (at) => `a comma or "]" is missing after a value, ${at}`],
  [/^Expected ':' after property name/, (at) => `a ":" is missing after a key, ${at}`],
  [/^Unterminated string/, (at) => `a string is not closed (a missing '"'), from ${at.replace(/^at /, '')}`],
  [
    /^Unexpected non-whitespace character after JSON/,
    (at) => `more text after the JSON value, ${at} (one JSON value a line)`,
  ],
  [
    /^Bad control character in string literal/,
    (at) => `a control character (a tab, a line break) inside a string, ${at}: write it escaped, as \\t or \\n`,
  ],
  [/^Bad escaped character/, (at) => `a backslash escape JSON does not know, ${at} (write \\\\ for a backslash)`],
  [/^Bad Unicode escape/, (at) => `a \\u escape without four hex digits, ${at}`],
  [/^No number after minus sign/, (at) => `a "-" with no number after it, ${at}`],
  [/^Exponent part is missing a number/, (at) => `a number's exponent has no digits, ${at}`],
  [/^Unterminated fractional number/, (at) => `a number ends in ".", ${at} (write 1.0 or 1)`],
  [/^Unexpected number/, (at) => `a number is not expected ${at} (a leading zero, or a missing comma?)`],
  [/^Unexpected string/, (at) => `a string is not expected ${at} (a missing comma or ":"?)`],
];

/** Where V8's JSON.parse stopped, from its message: its position, or the end for input that ended too early. */
function syntaxOffset(message: string, text: string): number | null {
  const position = /JSON at position (\d+)/.exec(message);
  if (position !== null) return Number(position[1]);
  return /end of JSON input/.test(message) ? text.length : null;
}

/**
 * A JSON syntax error in words: V8's message (`Expected double-quoted property name in JSON
 * at position 70`) read as what is wrong and at which character of the text (1-based), so no
 * message of decidekit quotes JavaScript. An unknown message is kept, without its position.
 */
export function jsonSyntaxWords(message: string, text: string): string {
  if (/^Unexpected end of JSON input/.test(message))
    return 'the JSON ends too early (a missing "}" or "]", or a value cut short?)';
  const token = /^Unexpected token '(.{1,2})'/.exec(message);
  if (token !== null) {
    const trailing = /^[}\]]$/.test(token[1]!) && /,\s*[}\]]/.test(text);
    return `${JSON.stringify(token[1])} is not expected where it is${trailing ? TRAILING_COMMA : ''}`;
  }
  const position = /JSON at position (\d+)/.exec(message);
  const offset = position === null ? null : Number(position[1]);
  const at = offset === null ? 'here' : `at character ${offset + 1}`;
  for (const [pattern, said] of SYNTAX_WORDS) {
    if (!pattern.test(message)) continue;
    const words = said(at);
    // A key expected after a comma, where "}" or "]" comes: the comma is one too many.
    const trailing = offset !== null && pattern.source.includes('double-quoted') && /,\s*$/.test(text.slice(0, offset));
    return trailing ? `${words}${TRAILING_COMMA}` : words;
  }
  return message.replace(/ (?:in|after) JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/, '');
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
    // A parsed value's objects have only their own, enumerable keys: `Object.values` counts
    // them as `for…in` does, about twice as fast.
    const items: readonly unknown[] = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) total += items.length;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (typeof item === 'object' && item !== null) stack.push(item);
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
