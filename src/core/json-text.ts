/**
 * A JSON value kept as its text, for a value that is only ever sent on: a case's state read
 * back from a dataset line is written into each request as it stands instead of being parsed
 * into objects and written out again (the two were the largest costs of a case on its way to
 * the server). Only text that `JSON.stringify(JSON.parse(text))` gives back unchanged is kept
 * so (`isCanonicalJsonText`), so a request's bytes are exactly what they were from objects.
 */
export class JsonText {
  constructor(
    /** Canonical JSON text of an object or array (see `isCanonicalJsonText`). */
    readonly text: string,
  ) {}
}

const SHORT_ESCAPES = new Set(['"', '\\', 'b', 'f', 'n', 'r', 't'].map((c) => c.charCodeAt(0)));
/** A canonical array index ("0", "7", "42"): JSON.parse puts such keys first, so their order may change. */
const INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * True when `text`, the text of one valid JSON object or array (a dataset line's field that a
 * strict parse passed), is exactly what `JSON.stringify(JSON.parse(text))` gives: no white
 * space between tokens, strings escaped only as `JSON.stringify` escapes them (`\"`, `\\`
 * and the short control escapes; any `\u` escape is left to the slow way), numbers written
 * as `JSON.stringify` writes them, and no key that parsing would move (an array index). False
 * means only "not shown to be", never a wrong true.
 */
export function isCanonicalJsonText(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return false;
  // Per open container: whether the next string in it is a key.
  const inObject: boolean[] = [];
  let expectKey = false;
  const n = text.length;
  // The next backslash at or after the string being read: found once and moved on only when
  // passed, so a text without one is not searched to its end again for every string.
  let slash = text.indexOf('\\');
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = -1;
      for (let from = i + 1; ;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) return false;
        if (slash !== -1 && slash < from) slash = text.indexOf('\\', from);
        if (slash === -1 || slash > quote) {
          end = quote;
          break;
        }
        if (!SHORT_ESCAPES.has(text.charCodeAt(slash + 1))) return false;
        from = slash + 2;
      }
      if (expectKey && isDigit(text.charCodeAt(i + 1)) && INDEX_KEY.test(text.slice(i + 1, end))) return false;
      expectKey = false;
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      inObject.push(c === 0x7b);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      inObject.pop();
      expectKey = false;
    } else if (c === 0x2c) expectKey = inObject[inObject.length - 1] === true;
    else if (c === 0x3a) expectKey = false;
    else if (c === 0x2d || isDigit(c)) {
      const j = numberEnd(text, i);
      if (!isPlainInteger(text, i, j) && String(Number(text.slice(i, j))) !== text.slice(i, j)) return false;
      i = j - 1;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      // true, false, null: the parse already checked the letters.
      while (i + 1 < n && text.charCodeAt(i + 1) >= 0x61 && text.charCodeAt(i + 1) <= 0x7a) i++;
    } else return false;
  }
  return inObject.length === 0;
}

/** Where the number starting at `start` ends. */
function numberEnd(text: string, start: number): number {
  let j = start + 1;
  while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
  return j;
}

/**
 * `text[start, end)` is a number `JSON.stringify` writes as it is read: a safe integer (at
 * most 15 digits) without a leading zero or a plus sign, read in place, not cut out.
 */
function isPlainInteger(text: string, start: number, end: number): boolean {
  const digitsFrom = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const digits = end - digitsFrom;
  if (digits < 1 || digits > 15) return false;
  for (let k = digitsFrom; k < end; k++) if (!isDigit(text.charCodeAt(k))) return false;
  // A leading zero is plain only as the whole unsigned number "0".
  return text.charCodeAt(digitsFrom) !== 0x30 || (digits === 1 && digitsFrom === start);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
