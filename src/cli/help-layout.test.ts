import { describe, expect, it } from 'vitest';
import { renderUsage, wrapHelpText, wrapRow } from './help-layout.js';

describe('help layout', () => {
  it('joins a prose paragraph and wraps it at the width, keeping paragraphs apart', () => {
    const text = 'one two three four\nfive six seven\n\neight nine';
    expect(wrapHelpText(text, 14)).toBe('one two three\nfour five six\nseven\n\neight nine');
  });

  it("wraps a table row's text under itself, taking its more indented continuation", () => {
    const text = 'Environment:\n  NAME   a long explanation\n         that goes on\n  OTHER  short';
    expect(wrapHelpText(text, 40)).toBe('Environment:\n  NAME   a long explanation that goes on\n  OTHER  short');
    expect(wrapHelpText(text, 38)).toBe(
      'Environment:\n  NAME   a long explanation that goes\n         on\n  OTHER  short',
    );
    expect(
      wrapHelpText(text, 24)
        .split('\n')
        .every((l) => l.length <= 24),
    ).toBe(true);
  });

  it('puts the text of a row under its term when the term leaves too little room', () => {
    const lines = wrapRow(`  ${'--x'.padEnd(60)}`, ['the', 'help'], 80);
    expect(lines).toEqual(['  --x', '      the help']);
  });

  it('wraps a usage form between whole arguments, under its first argument', () => {
    const lines = renderUsage(
      'tune',
      ['tune --dataset FILE [--cost-fp X --cost-fn Y] [--json]', '     [--html FILE]'],
      44,
    );
    expect(lines).toEqual([
      'Usage: decidekit tune --dataset FILE',
      '                      [--cost-fp X --cost-fn Y]',
      '                      [--json] [--html FILE]',
    ]);
    expect(renderUsage('runs list', ['runs list [--json]', 'runs list --store PATH'], 80)).toEqual([
      'Usage: decidekit runs list [--json]',
      '       decidekit runs list --store PATH',
    ]);
  });
});
