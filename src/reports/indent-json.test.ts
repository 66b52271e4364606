import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentJson } from './indent-json.js';

describe('indentJson', () => {
  it('indents compact JSON as JSON.stringify does with two spaces', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const value: unknown = JSON.parse(text);
        if (typeof value !== 'object' || value === null) return;
        expect(indentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
      }),
      { seed: 27, numRuns: 300 },
    );
  });

  it('keeps the tokens as sent, strings with brackets and escapes untouched', () => {
    expect(indentJson('{"a":1.50,"b":"x, {y}: \\"z\\"","c":[]}')).toBe(
      '{\n  "a": 1.50,\n  "b": "x, {y}: \\"z\\"",\n  "c": []\n}',
    );
  });

  it('indents a body cut short as far as it goes', () => {
    expect(indentJson('{"questions":[{"id":"q1","ty…')).toBe(
      '{\n  "questions": [\n    {\n      "id": "q1",\n      "ty…',
    );
  });

  it('leaves text that is not an object or array as it is', () => {
    expect(indentJson('GET /health')).toBe('GET /health');
    expect(indentJson('not json {')).toBe('not json {');
  });
});
