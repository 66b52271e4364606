import { describe, expect, it } from 'vitest';
import { jsonLinesOf } from './json-lines.js';

describe('jsonLinesOf', () => {
  const text = [
    '{',
    '  "models": [',
    '    {"name": "a", "url": "x,y}]"},',
    '    {',
    '      "name": "b\\"q",',
    '      "n": [1, 2,',
    '        3]',
    '    }',
    '  ],',
    '  "gate": {"baseline": null}',
    '}',
  ].join('\n');
  const lineOf = jsonLinesOf(text);

  it('gives the line of each key and each array element', () => {
    expect(lineOf(['models'])).toBe(2);
    expect(lineOf(['models', 0])).toBe(3);
    expect(lineOf(['models', 0, 'url'])).toBe(3);
    expect(lineOf(['models', 1])).toBe(4);
    expect(lineOf(['models', 1, 'name'])).toBe(5);
    expect(lineOf(['models', 1, 'n', 2])).toBe(7);
    expect(lineOf(['gate', 'baseline'])).toBe(10);
  });

  it("falls back to the nearest ancestor's line, and null for the root", () => {
    expect(lineOf(['models', 1, 'missing'])).toBe(4);
    expect(lineOf(['elsewhere'])).toBeNull();
    expect(lineOf([])).toBeNull();
  });
});
