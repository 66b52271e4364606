import { describe, expect, it } from 'vitest';
import { groupProblems } from './problem-list.js';

describe('groupProblems', () => {
  it('puts problems that differ only in quoted values and numbers into one group, in order', () => {
    const groups = groupProblems([
      { file: 'r.jsonl', line: 1, message: 'case_id "a" is not in the dataset' },
      { file: 'r.jsonl', line: 2, field: 'p', message: 'probabilities sum to 1.3, expected 1' },
      { file: 'r.jsonl', line: 3, message: 'case_id "b" is not in the dataset' },
      { file: 'r.jsonl', line: 4, field: 'p', message: 'probabilities sum to 0.7, expected 1' },
      { file: 'other.jsonl', line: 5, message: 'case_id "c" is not in the dataset' },
    ]);
    expect(groups.map((g) => [g.first.line, g.lines])).toEqual([
      [1, [1, 3]],
      [2, [2, 4]],
      [5, [5]],
    ]);
  });

  it('keeps different fields apart', () => {
    const groups = groupProblems([
      { file: 'd', line: 1, field: 'a', message: 'is missing' },
      { file: 'd', line: 1, field: 'b', message: 'is missing' },
    ]);
    expect(groups).toHaveLength(2);
  });
});
