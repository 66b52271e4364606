import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, findRepeatedKey, jsonSyntaxWords, parseStrictJson } from './strict-json.js';

describe('parseStrictJson', () => {
  it('parses what JSON.parse parses, to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const text = JSON.stringify(v);
        const r = parseStrictJson(text);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value).toStrictEqual(JSON.parse(text));
      }),
      { seed: 10, numRuns: 300 },
    );
  });

  it('rejects nesting deeper than the limit before parsing, without overflowing the stack', () => {
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const r = parseStrictJson(deep);
    expect(r).toMatchObject({ ok: false, problem: 'too_deep' });
    if (!r.ok) expect(r.message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
    expect(parseStrictJson('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)).ok).toBe(true);
  });

  it('ends a string only at a quote after an even run of backslashes', () => {
    // Keys hidden in strings that end in backslashes: a duplicate outside them is still found.
    expect(parseStrictJson(String.raw`{"a\\":1,"b":"\\\"{:[","a\\":2}`)).toMatchObject({
      ok: false,
      problem: 'duplicate_key',
    });
    expect(parseStrictJson(String.raw`{"a\\":1,"b":"\\\"{:[","c":2}`).ok).toBe(true);
    expect(parseStrictJson(String.raw`{"a":"\\"}`).ok).toBe(true);
  });

  it('skips strings holding structure in a text without any backslash', () => {
    // An answer's legend reads "Benign: read-only"; a colon or bracket in a string is no key and no depth.
    expect(parseStrictJson('{"a":"x: {[","b":{"c":"]}:"}}').ok).toBe(true);
    expect(parseStrictJson('{"a":"x: {[","b":1,"a":2}')).toMatchObject({ ok: false, problem: 'duplicate_key' });
    expect(parseStrictJson('{"a":"[[[[","b":[[1]]}', 2)).toMatchObject({ ok: false, problem: 'too_deep' });
    expect(parseStrictJson('{"a":"[[[[","b":[1]}', 2).ok).toBe(true);
  });

  it('judges depth and repeated keys as a scan of every character does, on any text', () => {
    const pieces = fc.constantFrom('"', '\\', '{', '}', '[', ']', ':', ',', 'a', '1', ' ', '"k":', '"\\"');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (parts, maxDepth) => {
        const text = parts.join('');
        // The offset of a syntax error is V8's, which the scan does not judge.
        const { at: _at, ...judged } = { at: undefined, ...parseStrictJson(text, maxDepth) };
        expect(judged).toStrictEqual(characterScan(text, maxDepth));
      }),
      { seed: 24, numRuns: 3000 },
    );
  });

  it('does not count brackets and colons inside strings', () => {
    const r = parseStrictJson(`{"k":"${'[{:'.repeat(2000)}\\"]"}`);
    expect(r.ok).toBe(true);
  });

  it('rejects a repeated key, naming it, at any depth and through escapes', () => {
    expect(parseStrictJson('{"a":1,"b":{"c":1,"c":2}}')).toMatchObject({ ok: false, problem: 'duplicate_key' });
    const r = parseStrictJson('{"id":"x","\\u0069d":"y"}');
    expect(r).toMatchObject({ ok: false, problem: 'duplicate_key' });
    if (!r.ok) expect(r.message).toContain('key "id" appears twice');
    expect(parseStrictJson('[{"a":1},{"a":2}]').ok).toBe(true);
    expect(parseStrictJson('{"__proto__":1,"a":{"__proto__":2}}').ok).toBe(true);
  });

  it("reports a syntax error in words, with the character it is at, never JavaScript's own message", () => {
    expect(parseStrictJson('{"a":')).toMatchObject({ ok: false, problem: 'syntax' });
    const said = (text: string) => {
      const r = parseStrictJson(text);
      return r.ok ? null : r.message;
    };
    expect(said('{"a":1,}')).toBe(
      'a key in double quotes is expected at character 8; is there a comma before "}" or "]"? JSON allows none',
    );
    expect(said('{"a":1 "b":2}')).toBe('a comma or "}" is missing after a value, at character 8');
    expect(said('[1 2]')).toBe('a comma or "]" is missing after a value, at character 4');
    expect(said('{"a":"x')).toBe("a string is not closed (a missing '\"'), from character 8");
    expect(said('{"a":1}x')).toBe('more text after the JSON value, at character 8 (one JSON value a line)');
    expect(said('{a:1}')).toBe('a key in double quotes or "}" is expected at character 2');
    expect(said('')).toBe('the JSON ends too early (a missing "}" or "]", or a value cut short?)');
    expect(said('[1,]')).toBe('"]" is not expected where it is; is there a comma before "}" or "]"? JSON allows none');
    expect(said('{"a":tru}')).toBe('"}" is not expected where it is');
    expect(said('{"a":"\t"}')).toBe(
      'a control character (a tab, a line break) inside a string, at character 7: write it escaped, as \\t or \\n',
    );
    for (const text of ['{"a":1,}', '[1,]', '{"a":-}', '{"a":01}', '{"a":1.}', '{"a" 1}', '{"a":"\\q"}', 'nul'])
      expect(said(text), text).not.toMatch(/JSON at position|Unexpected|is not valid JSON/);
  });

  it('findRepeatedKey returns null when keys differ', () => {
    expect(findRepeatedKey('{"a":{"a":1},"b":[{"a":2}]}')).toBeNull();
  });
});

/** The strict parse as a plain scan of every character: the reference the fast scan must agree with. */
function characterScan(text: string, maxDepth: number): ReturnType<typeof parseStrictJson> {
  let depth = 0;
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      if (++depth > maxDepth)
        return {
          ok: false,
          problem: 'too_deep',
          message: `too deeply nested: more than ${maxDepth} levels of arrays and objects`,
        };
    } else if (c === '}' || c === ']') depth--;
    else if (c === ':') keys++;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: 'syntax', message: jsonSyntaxWords((err as Error).message, text) };
  }
  const keysOf = (v: unknown): number =>
    typeof v !== 'object' || v === null
      ? 0
      : Array.isArray(v)
        ? v.reduce((n: number, x) => n + keysOf(x), 0)
        : Object.entries(v).reduce((n, [, x]) => n + 1 + keysOf(x), 0);
  if (keys > 0 && keysOf(value) !== keys)
    return {
      ok: false,
      problem: 'duplicate_key',
      message: `key ${JSON.stringify(findRepeatedKey(text) ?? '?')} appears twice in one object (remove one: JSON keeps only the last)`,
    };
  return { ok: true, value };
}
