import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { topLevelFields } from './line-fields.js';

describe('topLevelFields', () => {
  it('finds the text of each wanted top-level value, however the object is spaced', () => {
    const objects = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 });
    fc.assert(
      fc.property(objects, fc.constantFrom(undefined, 1, '\t', ' \r\n '), (object, space) => {
        const text = JSON.stringify(object, null, space);
        const wanted = new Set(Object.keys(object).filter((_, i) => i % 2 === 0));
        const found = topLevelFields(text, wanted);
        expect([...found.keys()].sort()).toEqual([...wanted].sort());
        for (const [key, [from, to]] of found) expect(JSON.parse(text.slice(from, to))).toStrictEqual(object[key]);
      }),
      { seed: 24, numRuns: 500 },
    );
  });

  it('reads keys written with escapes, and values holding brackets, commas and quotes', () => {
    const text = String.raw`{"st\u0061te":{"a":"},\"{["},"gold" : [1, {"b":","}] ,"x":"\\"}`;
    const found = topLevelFields(text, new Set(['state', 'gold', 'x']));
    expect(JSON.parse(text.slice(...found.get('state')!))).toEqual({ a: '},"{[' });
    expect(JSON.parse(text.slice(...found.get('gold')!))).toEqual([1, { b: ',' }]);
    expect(JSON.parse(text.slice(...found.get('x')!))).toBe('\\');
  });

  it('steps over a value it is told where to find, without reading it', () => {
    const value = '{"q":"a"}';
    const text = `{"id":"c1","questions":${value},"gold":[1,2]}`;
    const from = text.indexOf(value);
    // What stands in the skipped place is not read: unbalanced brackets there change nothing.
    const scrambled = `${text.slice(0, from)}[[[[[[[[[${text.slice(from + value.length)}`;
    const found = topLevelFields(scrambled, new Set(['id', 'gold']), [from, from + value.length]);
    expect(found.get('id')).toEqual(topLevelFields(text, new Set(['id'])).get('id'));
    expect(JSON.parse(scrambled.slice(...found.get('gold')!))).toEqual([1, 2]);
  });
});
