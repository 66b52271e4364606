import { describe, expect, it } from 'vitest';
import { createPalette, visibleWidth } from './format.js';
import { renderFittedTable, renderLabelledRows, renderRowsWrappingLast, wrapStyled } from './text-fit.js';

const p = createPalette(true);

describe('wrapStyled', () => {
  it('breaks between words, keeps the gaps it does not break at, and does not count colour codes', () => {
    expect(wrapStyled('aaaa bbbb  cccc dddd eeee ffff', 20)).toEqual(['aaaa bbbb  cccc dddd', 'eeee ffff']);
    const lines = wrapStyled(p.dim('one two three four five six seven eight'), 20);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(20);
    expect(lines.join(' ')).toBe(p.dim('one two three four five six seven eight'));
  });

  it('cuts a word wider than the line', () => {
    expect(wrapStyled('x'.repeat(45), 20)).toEqual(['x'.repeat(20), 'x'.repeat(20), 'x'.repeat(5)]);
  });
});

describe('renderLabelledRows', () => {
  it('wraps values under the value column, or under the label when the labels leave too little room', () => {
    expect(renderLabelledRows([['Accuracy', 'one two three four five six seven eight']], 40)).toEqual([
      'Accuracy  one two three four five six',
      '          seven eight',
    ]);
    expect(renderLabelledRows([['A long label here', 'value text']], 30)).toEqual([
      'A long label here',
      '  value text',
    ]);
  });
});

describe('renderFittedTable', () => {
  it('is the table when it fits, one record a row when it does not', () => {
    const header = ['name', 'count', 'note'];
    const rows = [['alpha', '1', 'a rather long note about alpha']];
    expect(renderFittedTable(header, rows, 80)).toEqual([
      'name   count                            note',
      'alpha      1  a rather long note about alpha',
    ]);
    expect(renderFittedTable(header, rows, 40)).toEqual([
      'alpha',
      '  count  1',
      '  note   a rather long note about alpha',
    ]);
  });
});

describe('renderRowsWrappingLast', () => {
  it('wraps the last column under itself when a row is too wide', () => {
    const rows = [['Brier', '0.449', 'lower is better, and this note goes on for a while']];
    const lines = renderRowsWrappingLast(rows, 42, { indent: '  ' });
    expect(lines).toEqual(['  Brier  0.449  lower is better, and this', '                note goes on for a while']);
  });
});
