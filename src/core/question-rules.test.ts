import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalQuestionText,
  parseWireQuestion,
  toWireQuestion,
  type WireQuestionOptions,
} from './question-rules.js';
import type { Question } from './question.js';

/** Every problem, as `field: message`. */
function problems(value: unknown, options?: WireQuestionOptions): string[] {
  const r = parseWireQuestion(value, options);
  if (r.ok) throw new Error(`expected a problem, got ${JSON.stringify(r.question)}`);
  return r.problems.map((p) => `${p.field}: ${p.message}`);
}

/** The only problem (fails when there are several). */
function problem(value: unknown): string {
  const all = problems(value);
  expect(all).toHaveLength(1);
  return all[0]!;
}

function ok(value: unknown, options?: WireQuestionOptions): Question {
  const r = parseWireQuestion(value, options);
  if (!r.ok) throw new Error(`unexpected problems ${JSON.stringify(r.problems)}`);
  return r.question;
}

describe('parseWireQuestion', () => {
  it('keeps choice options and descriptions in criteria order', () => {
    const q = ok({ type: 'choice', instructions: 'Route?', criteria: { shipping: null, billing: 'Charges' } });
    expect(q).toEqual({
      type: 'choice',
      instructions: 'Route?',
      options: ['shipping', 'billing'],
      descriptions: [null, 'Charges'],
    });
  });

  it('reads score levels lowest first', () => {
    expect(ok({ type: 'score', instructions: 'How?', criteria: ['low', 'high'] })).toEqual({
      type: 'score',
      instructions: 'How?',
      levels: ['low', 'high'],
    });
  });

  it('accepts a noul question with or without criteria', () => {
    expect(ok({ type: 'noul', instructions: 'Angry?' })).toEqual({ type: 'noul', instructions: 'Angry?' });
    expect(ok({ type: 'noul', instructions: 'Angry?', criteria: { false: 'calm', true: 'angry' } })).toEqual({
      type: 'noul',
      instructions: 'Angry?',
      criteria: { false: 'calm', true: 'angry' },
    });
  });

  it('reads null noul criteria and a null noul description as absent', () => {
    expect(ok({ type: 'noul', instructions: 'Angry?', criteria: null })).toEqual({
      type: 'noul',
      instructions: 'Angry?',
    });
    expect(ok({ type: 'noul', instructions: 'Angry?', criteria: { true: 'angry', false: null } })).toEqual({
      type: 'noul',
      instructions: 'Angry?',
      criteria: { true: 'angry' },
    });
  });

  it('rejects an upper-case type and says types are lower-case', () => {
    expect(problem({ type: 'Choice', instructions: 'x', criteria: { a: null, b: null } })).toBe(
      'type: unknown question type "Choice" (types are lower-case: choice)',
    );
  });

  it('rejects an unknown or missing type and names the three types', () => {
    expect(problem({ type: 'yes_no', instructions: 'x' })).toBe(
      'type: unknown question type "yes_no" (expected noul, choice or score)',
    );
    expect(problem({ instructions: 'x' })).toBe('type: type is missing (expected noul, choice or score)');
  });

  it('rejects a missing or blank instructions', () => {
    expect(problem({ type: 'noul' })).toBe('instructions: instructions must be a non-empty string, got nothing');
    expect(problem({ type: 'noul', instructions: '' })).toMatch(
      /^instructions: instructions must be a non-empty string/,
    );
    expect(problem({ type: 'noul', instructions: '  ' })).toMatch(/^instructions: /);
  });

  it('rejects a choice with one option or with 256 options, and accepts 255', () => {
    const criteria = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`o${i}`, null]));
    expect(problem({ type: 'choice', instructions: 'x', criteria: criteria(1) })).toBe(
      'criteria: a choice question has 2 to 255 options, got 1',
    );
    expect(problem({ type: 'choice', instructions: 'x', criteria: criteria(256) })).toBe(
      'criteria: a choice question has 2 to 255 options, got 256',
    );
    expect(ok({ type: 'choice', instructions: 'x', criteria: criteria(255) })).toMatchObject({ type: 'choice' });
  });

  it('rejects choice criteria given as an array, missing, a numeric description and an empty option name', () => {
    expect(problem({ type: 'choice', instructions: 'x', criteria: ['a', 'b'] })).toMatch(
      /^criteria: choice criteria must be an object of option name -> description/,
    );
    expect(problem({ type: 'choice', instructions: 'x' })).toMatch(
      /^criteria: choice criteria must be an object .*, got nothing$/,
    );
    expect(problem({ type: 'choice', instructions: 'x', criteria: { a: 1, b: null } })).toBe(
      'criteria.a: the description of option "a" must be a string or null, got 1',
    );
    expect(problem({ type: 'choice', instructions: 'x', criteria: { '': null, b: null } })).toBe(
      'criteria: an option name must not be empty',
    );
  });

  it('rejects score levels outside 2..10, score criteria as an object, and a non-string level', () => {
    expect(problem({ type: 'score', instructions: 'x', criteria: ['only'] })).toBe(
      'criteria: a score question has 2 to 10 levels, got 1',
    );
    expect(problem({ type: 'score', instructions: 'x', criteria: Array.from({ length: 11 }, String) })).toBe(
      'criteria: a score question has 2 to 10 levels, got 11',
    );
    expect(ok({ type: 'score', instructions: 'x', criteria: Array.from({ length: 10 }, String) })).toMatchObject({
      type: 'score',
    });
    expect(problem({ type: 'score', instructions: 'x', criteria: { low: 'a' } })).toMatch(
      /^criteria: score criteria must be an array of level descriptions/,
    );
    expect(problem({ type: 'score', instructions: 'x', criteria: ['a', 2] })).toBe(
      'criteria[1]: level 1 must be a string, got 2',
    );
  });

  it('rejects noul criteria with another key, a non-string description, or of the wrong shape', () => {
    expect(problem({ type: 'noul', instructions: 'x', criteria: { yes: 'y' } })).toBe(
      'criteria.yes: noul criteria keys are "true" and "false", got "yes"',
    );
    expect(problem({ type: 'noul', instructions: 'x', criteria: { true: 1 } })).toBe(
      'criteria.true: a noul description must be a string, got 1',
    );
    expect(problem({ type: 'noul', instructions: 'x', criteria: 'yes' })).toMatch(
      /^criteria: noul criteria must be an object/,
    );
  });

  it('rejects unknown question fields by default and skips them when asked to ignore them', () => {
    expect(problem({ type: 'noul', instructions: 'x', options: [] })).toBe(
      'options: unknown field "options" (a question has type, instructions, criteria)',
    );
    expect(problems({ type: 'noul', instructions: 'x', options: [] }, { unknownFields: 'reject' })).toHaveLength(1);
    expect(ok({ type: 'noul', instructions: 'x', options: [] }, { unknownFields: 'ignore' })).toEqual({
      type: 'noul',
      instructions: 'x',
    });
  });

  it('reports every problem of a question, not only the first', () => {
    expect(problems({ type: 'score', extra: 1, criteria: ['a', 2, 3] })).toEqual([
      'extra: unknown field "extra" (a question has type, instructions, criteria)',
      'instructions: instructions must be a non-empty string, got nothing',
      'criteria[1]: level 1 must be a string, got 2',
      'criteria[2]: level 2 must be a string, got 3',
    ]);
  });

  it('rejects a question that is not an object', () => {
    expect(problem('noul')).toBe(': a question must be an object, got "noul"');
  });
});

const questionArb: fc.Arbitrary<Question> = fc.oneof(
  fc.record({
    type: fc.constant('noul' as const),
    instructions: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
  }),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 6 })
    // JS objects list integer-like keys ("0", "12") first, so JSON.parse cannot keep their wire order.
    .filter((opts) => opts.every((o) => o !== '__proto__' && !/^(0|[1-9][0-9]*)$/.test(o)))
    .chain((options) =>
      fc.record({
        type: fc.constant('choice' as const),
        instructions: fc.constant('Pick one.'),
        options: fc.constant(options),
        descriptions: fc.array(fc.option(fc.string(), { nil: null }), {
          minLength: options.length,
          maxLength: options.length,
        }),
      }),
    ),
  fc.record({
    type: fc.constant('score' as const),
    instructions: fc.constant('Rate it.'),
    levels: fc.array(fc.string(), { minLength: 2, maxLength: 10 }),
  }),
);

describe('toWireQuestion', () => {
  it('round-trips through parseWireQuestion', () => {
    fc.assert(
      fc.property(questionArb, (q) => {
        expect(ok(JSON.parse(JSON.stringify(toWireQuestion(q))))).toEqual(q);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('canonicalQuestionText', () => {
  it('differs when only the option order differs', () => {
    const a = ok({ type: 'choice', instructions: 'x', criteria: { a: null, b: null } });
    const b = ok({ type: 'choice', instructions: 'x', criteria: { b: null, a: null } });
    expect(canonicalQuestionText(a)).not.toBe(canonicalQuestionText(b));
  });

  it('ignores the key order of noul criteria', () => {
    const a = ok({ type: 'noul', instructions: 'x', criteria: { true: 'y', false: 'n' } });
    const b = ok({ type: 'noul', instructions: 'x', criteria: { false: 'n', true: 'y' } });
    expect(canonicalQuestionText(a)).toBe(canonicalQuestionText(b));
  });
});
