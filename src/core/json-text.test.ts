import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalJsonText } from './json-text.js';

const roundTrip = (text: string) => JSON.stringify(JSON.parse(text));

describe('isCanonicalJsonText', () => {
  it('accepts what JSON.stringify writes', () => {
    for (const value of [
      { a: 1, b: [true, false, null], c: 'x "y" \\ \n\t', d: -12.5, e: 1e21, f: 0.1, g: {} },
      [1, 'two', { three: 3 }],
      { agent: { autonomy: 'semi', model: 'codeagent-13b' }, steps: 13, ratio: 0.047 },
      { '': 0, é: 'ü', '1x': 1 },
    ])
      expect(isCanonicalJsonText(JSON.stringify(value))).toBe(true);
  });

  it('refuses text that parsing and writing again would change', () => {
    for (const text of [
      '{"a": 1}',
      '{ "a":1}',
      '{"a":1.0}',
      '{"a":1E3}',
      '{"a":-0}',
      '{"a":0.10}',
      '{"a":"\\/"}',
      '{"a":"\\u0041"}',
      '{"b":1,"2":2}',
      '[1 ,2]',
      '{"a":12345678901234567890}',
    ]) {
      expect(roundTrip(text) === text).toBe(false);
      expect(isCanonicalJsonText(text)).toBe(false);
    }
  });

  it('keeps only objects and arrays', () => {
    for (const text of ['"just a string"', '12', 'null']) expect(isCanonicalJsonText(text)).toBe(false);
  });

  it('is never wrong when it says yes, on any JSON written any way', () => {
    const container = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));
    fc.assert(
      fc.property(container, fc.constantFrom(0, 1, 2), fc.boolean(), (value, indent, escapeSlash) => {
        let text = JSON.stringify(value, null, indent);
        if (escapeSlash) text = text.replace(/\//g, '\\/');
        return !isCanonicalJsonText(text) || roundTrip(text) === text;
      }),
      { seed: 17, numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        container,
        (value) => isCanonicalJsonText(JSON.stringify(value)) || /\\u|"\d+":/.test(JSON.stringify(value)),
      ),
      { seed: 18, numRuns: 2000 },
    );
  });
});
