import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, findRepeatedKey, parseStrictJson } from './strict-json.js';

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

  it('reports a syntax error with JSON.parse message', () => {
    expect(parseStrictJson('{"a":')).toMatchObject({ ok: false, problem: 'syntax' });
  });

  it('findRepeatedKey returns null when keys differ', () => {
    expect(findRepeatedKey('{"a":{"a":1},"b":[{"a":2}]}')).toBeNull();
  });
});
