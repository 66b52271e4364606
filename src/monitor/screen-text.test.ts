import { describe, expect, it } from 'vitest';
import { visibleWidth } from '../reports/format.js';
import { clipLine, fitLine, sparkline, spread } from './screen-text.js';

describe('screen text', () => {
  it('clips plain text with an ellipsis', () => {
    expect(clipLine('abcdef', 4)).toBe('abc…');
    expect(clipLine('abc', 4)).toBe('abc');
  });

  it('clips coloured text by visible width and closes the colour', () => {
    const line = `\u001b[31m${'x'.repeat(10)}\u001b[39m tail`;
    const clipped = clipLine(line, 6);
    expect(visibleWidth(clipped)).toBe(6);
    expect(clipped.endsWith('\u001b[0m')).toBe(true);
  });

  it('pads to an exact width', () => {
    expect(fitLine('ab', 4)).toBe('ab  ');
    expect(visibleWidth(fitLine('\u001b[1mab\u001b[22m', 5))).toBe(5);
  });

  it('puts the right part flush right only when both fit', () => {
    expect(spread('ab', 'cd', 16)).toBe(`ab${' '.repeat(12)}cd`);
    expect(spread('abcdefghijklmnop', 'xy', 16)).toBe('abcdefghijk…  xy');
    expect(spread('abcdef', 'gh', 8)).toBe('abcdef');
  });

  it('draws a sparkline of the last values, blanks for nulls', () => {
    expect(sparkline([0, 0.5, 1, null], 4, 0, 1)).toBe('▁▅█ ');
    expect(sparkline([0, 1, 0, 1, 0], 2, 0, 1)).toBe('█▁');
  });
});
