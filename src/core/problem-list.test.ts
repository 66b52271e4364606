import { describe, expect, it } from 'vitest';
import { InvalidInputError, type InputProblem } from './errors.js';
import { groupProblems, ProblemList } from './problem-list.js';

const problem = (line: number): InputProblem => ({ file: 'f.jsonl', line, message: `bad line ${line}` });

function thrown(list: ProblemList): InvalidInputError {
  try {
    list.throwIfAny();
  } catch (err) {
    return err as InvalidInputError;
  }
  throw new Error('nothing thrown');
}

describe('ProblemList', () => {
  it('keeps the first cap problems and counts the rest', () => {
    const list = new ProblemList(3);
    for (let line = 1; line <= 5; line++) list.add(problem(line));
    expect(list.kept.map((p) => p.line)).toEqual([1, 2, 3]);
    expect(list.omitted).toBe(2);
    expect(list.count).toBe(5);
    const err = thrown(list);
    expect(err.problems).toHaveLength(3);
    expect(err.omitted).toBe(2);
    expect(err.message).toBe('f.jsonl:1: bad line 1 (and 4 more problems)');
  });

  it('throws nothing when empty', () => {
    expect(() => new ProblemList().throwIfAny()).not.toThrow();
  });

  it('keeps 50 by default', () => {
    const list = new ProblemList();
    for (let line = 1; line <= 60; line++) list.add(problem(line));
    expect([list.kept.length, list.omitted]).toEqual([50, 10]);
  });

  it('takes in another file’s error under the same cap, counting what that error left out', () => {
    const list = new ProblemList(3);
    list.add(problem(1));
    list.addError(new InvalidInputError([problem(2), problem(3), problem(4)], 7));
    expect(list.kept.map((p) => p.line)).toEqual([1, 2, 3]);
    expect(list.omitted).toBe(1 + 7);
    expect(list.toError().omitted).toBe(8);
  });
});

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
