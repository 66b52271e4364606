/**
 * No tracked text cites an issue or pull request by number (the word, or a hash, followed by
 * the number): a reader of a comment, a test name, a page or a benchmark row cannot follow the
 * number, so each says the behaviour it means instead. Numbers that are data ("invoice
 * #4711" in a sample) are not citations.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** The shapes a citation takes: a word for an issue followed by its number, or a number in parentheses. */
const CITATION = [
  /\b(issues?|tracker|tickets?|PRs?|pull requests?)\s*#?\d+/i,
  /\(#\d+\b/,
  /\b#\d+\)/,
  /#\d+ items?\b/i,
];

function citationsIn(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (CITATION.some((pattern) => pattern.test(line))) lines.push(i + 1);
  });
  return lines;
}

describe('the tracked text', () => {
  it('cites no issue or pull request by number', () => {
    const self = relative(ROOT, import.meta.filename);
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((file) => file !== '' && file !== self);
    const offenders: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(join(ROOT, file));
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary (the screenshot)
      for (const line of citationsIn(bytes.toString('utf8'))) offenders.push(`${file}:${line}`);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });

  it('recognises each shape of citation, and leaves numbers that are data alone', () => {
    // Built from parts, so this file holds no citation of its own for a reader to chase.
    const n = (k: number) => String(k);
    const cited = [
      `the fix of issue ${n(15)}`,
      `Issue ${n(10)} item 5.`,
      `(tracker issue ${n(4)}, "Speed")`,
      `bounded numbers (#${n(10)})`,
      `(#${n(14)}; core cost only)`,
      `see #${n(14)} item 5`,
      `as PR ${n(12)} did`,
    ];
    expect(cited.filter((line) => citationsIn(line).length === 0)).toEqual([]);
    const data = ['Please pay invoice #4711.', 'Your order #4471 has shipped', 'a summary issue listing every branch'];
    expect(data.flatMap(citationsIn)).toEqual([]);
  });
});
