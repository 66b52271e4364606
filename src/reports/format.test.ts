import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alignColumns,
  createPalette,
  escapeMarkdownText,
  escapeMarkdownCell,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  formatSigned,
  formatUsd,
  markdownCode,
  markdownFence,
  renderBar,
  renderMarkdownTable,
  renderStars,
  renderTextRows,
  renderTextTable,
  plural,
  singleLine,
  stripAnsi,
  truncate,
  visibleWidth,
} from './format.js';

describe('number formatting', () => {
  it('shows n/a for null, undefined and non-finite values, never 0 or NaN', () => {
    for (const f of [
      formatNumber,
      formatPercent,
      formatSigned,
      formatCount,
      formatUsd,
      formatLatencyMs,
      formatDuration,
    ]) {
      expect(f(null)).toBe('n/a');
      expect(f(undefined)).toBe('n/a');
      expect(f(Number.NaN)).toBe('n/a');
    }
    expect(renderBar(null)).toBe('··········');
  });

  it('rounds to the requested decimals and never prints a negative zero', () => {
    expect(formatNumber(0.2684)).toBe('0.268');
    expect(formatNumber(-0.0001)).toBe('0.000');
    expect(formatNumber(-0.4, 0)).toBe('0');
    expect(formatSigned(-0.2034)).toBe('-0.203');
    expect(formatSigned(0.05)).toBe('+0.050');
    expect(formatSigned(-0.0001)).toBe('+0.000');
  });

  it('formats percentages and counts', () => {
    expect(formatPercent(0.735)).toBe('73.5%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatCount(2000)).toBe('2,000');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(999)).toBe('999');
  });

  it('keeps small costs visible', () => {
    expect(formatUsd(0.000123456)).toBe('$0.000123');
    expect(formatUsd(0.2)).toBe('$0.200');
    expect(formatUsd(0.0066)).toBe('$0.00660');
    expect(formatUsd(0.5)).toBe('$0.500');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('formats latencies and durations in readable units', () => {
    expect(formatLatencyMs(8.44)).toBe('8.4 ms');
    expect(formatLatencyMs(312.4)).toBe('312 ms');
    expect(formatLatencyMs(1250)).toBe('1.25 s');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
  });
});

describe('formatNumber to three places', () => {
  /** What `formatNumber` has always meant: `toFixed`, without a sign on a zero. */
  const reference = (x: number, digits = 3): string => {
    const text = x.toFixed(digits);
    return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
  };

  it('gives toFixed(3) for any number, ties and their neighbours included', () => {
    const nearTies = fc.tuple(fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: -4, max: 4 })).map(([k, ulps]) => {
      let x = (k + 0.5) / 1000;
      for (let i = 0; i < Math.abs(ulps); i++) x = ulps > 0 ? x + Number.EPSILON * x : x - Number.EPSILON * x;
      return x;
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -20, max: 20, noNaN: true }),
          nearTies,
          fc.double({ min: 0, max: 1e-3, noNaN: true }),
        ),
        (x) => formatNumber(x) === reference(x),
      ),
      { seed: 7, numRuns: 20_000 },
    );
    for (const x of [0, -0, 0.0625, 0.0005, 0.9995, 9.9995, 9.99951, 10, 1 / 3, 2 / 3, 1e-17, 0.1 + 0.2, 0.7 + 1e-17])
      expect(formatNumber(x), String(x)).toBe(reference(x));
  });
});

describe('renderBar', () => {
  it('has ten cells filled to the nearest tenth', () => {
    expect(renderBar(0)).toBe('░░░░░░░░░░');
    expect(renderBar(1)).toBe('██████████');
    expect(renderBar(0.53)).toBe('█████░░░░░');
    expect(renderBar(0.56)).toBe('██████░░░░');
  });

  it('always has exactly the requested number of cells', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 2, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        (x, cells) => [...renderBar(x, cells)].length === cells,
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('draws stars out of three', () => {
    expect(renderStars(2)).toBe('★★☆');
    expect(renderStars(0)).toBe('☆☆☆');
  });
});

describe('text tables', () => {
  it('aligns columns, ignoring colour codes when measuring', () => {
    const p = createPalette(true);
    const lines = renderTextTable(
      ['name', 'n'],
      [
        ['a', p.red('1')],
        ['longer', '100'],
      ],
    );
    expect(lines.map(stripAnsi)).toEqual(['name      n', 'a         1', 'longer  100']);
    expect(lines[1]).toContain('\u001b[31m');
  });

  it('lists rows without a header, trimming what the last column pads', () => {
    const lines = renderTextRows(
      [
        ['Model', 'x'],
        ['Duration', 'twelve'],
      ],
      { align: ['left', 'left'], indent: '  ' },
    );
    expect(lines).toEqual(['  Model     x', '  Duration  twelve']);
  });

  it('styles a column after padding, so widths line up under colour', () => {
    const p = createPalette(true);
    const lines = renderTextRows(
      [
        ['a', 'note'],
        ['bb', 'longer note'],
      ],
      { align: ['left', 'left'], styleColumns: [undefined, p.dim] },
    );
    expect(lines[0]).toBe(`a   ${p.dim('note       ')}`);
    expect(lines.map(stripAnsi).map((l) => l.trimEnd())).toEqual(['a   note', 'bb  longer note']);
  });

  it('pads every column of a table the same way in text and table form', () => {
    const rows = [
      ['model', 'acc'],
      ['m1', '0.9'],
      ['model-two', '0.85'],
    ];
    expect(alignColumns(rows)).toEqual([
      ['model    ', ' acc'],
      ['m1       ', ' 0.9'],
      ['model-two', '0.85'],
    ]);
    expect(renderTextTable(rows[0]!, rows.slice(1))).toEqual(renderTextRows(rows));
  });

  it('measures and truncates by code points', () => {
    expect(visibleWidth('★★☆')).toBe(3);
    expect(truncate('security_incidents', 8)).toBe('securit…');
    expect(truncate('short', 8)).toBe('short');
  });

  it('returns text unchanged from a palette without colour', () => {
    const p = createPalette(false);
    expect(p.red('x') + p.bold('y') + p.dim('z')).toBe('xyz');
  });
});

describe('plural', () => {
  it('names one thing in the singular and any other count in the plural', () => {
    expect(plural(1, 'case')).toBe('1 case');
    expect(plural(0, 'case')).toBe('0 cases');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
    expect(plural(12345, 'error', 'errors', formatCount)).toBe('12,345 errors');
  });
});

describe('Markdown escaping', () => {
  it('escapes pipes and turns line breaks into <br> in table cells', () => {
    expect(escapeMarkdownCell('a|b\nc\r\nd')).toBe('a\\|b<br>c<br>d');
    expect(escapeMarkdownCell('<script>')).toBe('&lt;script&gt;');
    expect(escapeMarkdownCell('snake_case_id')).toBe('snake_case_id');
    expect(escapeMarkdownCell('_lead')).toBe('\\_lead');
  });

  it('never lets a cell add a column or break its row', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '|', '\\', '\n', '\r', '`', '<', '_', ' ') }), (text) => {
        const escaped = escapeMarkdownCell(text);
        // Every pipe is preceded by an odd number of backslashes, i.e. it is escaped.
        const unescapedPipe = /(^|[^\\])(\\\\)*\|/.test(escaped);
        return !unescapedPipe && !/[\r\n]/.test(escaped);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('builds tables with one cell per column and right-aligned numbers', () => {
    const lines = renderMarkdownTable(['id', 'n'], [['x|y', '3']]);
    expect(lines).toEqual(['| id | n |', '|---|---:|', '| x\\|y | 3 |']);
  });

  it('makes code spans and fences that their content cannot close', () => {
    expect(markdownCode('plain')).toBe('`plain`');
    expect(markdownCode('a `b` c')).toBe('``a `b` c``');
    expect(markdownCode('`x')).toBe('`` `x ``');
    expect(markdownFence('no ticks')).toBe('```');
    expect(markdownFence('has ```` four')).toBe('`````');
  });
});

describe('control characters from a server', () => {
  const hostile = 'ok\u001b]0;pwned\u0007\u001b[2J\u009b31m done';
  it('singleLine shows zero-width and bidirectional characters as escapes', () => {
    expect(singleLine('sk-abc\u200bdef \u202etxt.exe')).toBe('sk-abc\\u200bdef \\u202etxt.exe');
  });
  it('singleLine shows C0 and C1 controls as escapes', () => {
    expect(singleLine(hostile)).toBe('ok\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m done');
  });
  it('Markdown text and code spans drop zero-width and bidirectional characters too', () => {
    expect(escapeMarkdownText('sk-abc\u200bdef \u202etxt')).toBe('sk-abcdef txt');
    expect(markdownCode('sk-abc\u200bdef \u202etxt')).toBe('`sk-abcdef txt`');
  });
  it('Markdown text and code spans drop them', () => {
    expect(escapeMarkdownText(hostile)).toBe('ok\\]0;pwned\\[2J31m done');
    expect(markdownCode(hostile)).toBe('`ok]0;pwned[2J31m done`');
  });
});
