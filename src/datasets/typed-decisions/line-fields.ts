/**
 * The text of chosen top-level fields of a JSONL line that is known to be a valid JSON object
 * (pass 1 parsed it strictly and its bytes are unchanged): a second read parses only the
 * fields it needs instead of the whole line (a case's questions are most of its bytes).
 */
import { endOfJsonString } from '../../core/strict-json.js';

/**
 * `[start, end)` in `text` of the values of the top-level keys in `wanted`, by key, for a
 * line that is one valid JSON object; a key that is absent has no entry. `skip`: where a
 * top-level value not wanted is known to be (`[start, end)` of its text), so it is stepped
 * over rather than read (a case's questions, which a first read found).
 */
export function topLevelFields(
  text: string,
  wanted: ReadonlySet<string>,
  skip?: readonly [number, number],
): Map<string, readonly [number, number]> {
  const found = new Map<string, readonly [number, number]>();
  let depth = 0;
  let key: string | null = null;
  let valueStart = -1;
  const close = (at: number) => {
    if (key !== null && wanted.has(key)) found.set(key, [valueStart, trimEnd(text, at)]);
    key = null;
  };
  const skipFrom = skip?.[0] ?? -1;
  for (let i = 0; i < text.length; i++) {
    if (i === skipFrom && depth === 1 && valueStart === i) {
      i = skip![1] - 1;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = endOfJsonString(text, i);
      // A string at depth 1 with no key pending is a key (values at depth 1 follow a colon).
      if (depth === 1 && key === null && valueStart < 0) {
        const raw = text.slice(i, end + 1);
        key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      }
      i = end;
    } else if (c === 0x3a && depth === 1 && valueStart < 0) {
      valueStart = i + 1;
      while (isSpace(text.charCodeAt(valueStart))) valueStart++;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      if (depth === 0) close(i);
    } else if (c === 0x2c && depth === 1) {
      close(i);
      valueStart = -1;
    }
  }
  return found;
}

function trimEnd(text: string, end: number): number {
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
