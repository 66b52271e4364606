import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalQuestionText, isWireQuestionProblem, parseWireQuestion, toWireQuestion } from './wire-question.js';
import type { Question } from './question.js';

function problem(value: unknown): string {
  const r = parseWireQuestion(value);
  if (!isWireQuestionProblem(r)) throw new Error(`expected a problem, got ${JSON.stringify(r)}`);
  return `${r.field}: ${r.message}`;
}

function ok(value: unknown): Question {
  const r = parseWireQuestion(value);
  if (isWireQuestionProblem(r)) throw new Error(`unexpected problem ${r.field}: ${r.message}`);
  return r;
}

describe('parseWireQuestion', () => {
  it('keeps choice options and descriptions in criteria order', () => {
    const q = ok({ type: 'choice', instructions: 'Route?', criteria: { shipping: null, billing: 'Charges' } });
    expect(q).toEqual({ type: 'choice', instructions: 'Route?', options: ['shipping', 'billing'], descriptions: [null, 'Charges'] });
  });

  it('reads score levels lowest first', () => {
    expect(ok({ type: 'score', instructions: 'How?', criteria: ['low', 'high'] })).toEqual({ type: 'score', instructions: 'How?', levels: ['low', 'high'] });
  });

  it('accepts a noul question with or without criteria', () => {
    expect(ok({ type: 'noul', instructions: 'Angry?' })).toEqual({ type: 'noul', instructions: 'Angry?' });
    expect(ok({ type: 'noul', instructions: 'Angry?', criteria: { false: 'calm', true: 'angry' } })).toEqual({
      type: 'noul',
      instructions: 'Angry?',
      criteria: { false: 'calm', true: 'angry' },
    });
  });

  it('rejects an upper-case type and says types are lower-case', () => {
    expect(problem({ type: 'Choice', instructions: 'x', criteria: { a: null, b: null } })).toBe('type: unknown question type "Choice" (types are lower-case: choice)');
  });

  it('rejects a missing or blank instructions', () => {
    expect(problem({ type: 'noul' })).toMatch(/^instructions: instructions must be a non-empty string/);
    expect(problem({ type: 'noul', instructions: '  ' })).toMatch(/^instructions: /);
  });

  it('rejects a choice with one option or with 256 options', () => {
    expect(problem({ type: 'choice', instructions: 'x', criteria: { a: null } })).toBe('criteria: a choice question has 2 to 255 options, got 1');
    const many = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`o${i}`, null]));
    expect(problem({ type: 'choice', instructions: 'x', criteria: many })).toBe('criteria: a choice question has 2 to 255 options, got 256');
  });

  it('rejects choice criteria given as an array and a numeric description', () => {
    expect(problem({ type: 'choice', instructions: 'x', criteria: ['a', 'b'] })).toMatch(/^criteria: choice criteria must be an object/);
    expect(problem({ type: 'choice', instructions: 'x', criteria: { a: 1, b: null } })).toBe('criteria.a: description must be a string or null, got 1');
  });

  it('rejects score levels outside 2..10 and a non-string level', () => {
    expect(problem({ type: 'score', instructions: 'x', criteria: ['only'] })).toBe('criteria: a score question has 2 to 10 levels, got 1');
    expect(problem({ type: 'score', instructions: 'x', criteria: Array.from({ length: 11 }, String) })).toBe('criteria: a score question has 2 to 10 levels, got 11');
    expect(problem({ type: 'score', instructions: 'x', criteria: ['a', 2] })).toBe('criteria[1]: a level description must be a string, got 2');
  });

  it('rejects noul criteria with another key and unknown question fields', () => {
    expect(problem({ type: 'noul', instructions: 'x', criteria: { yes: 'y' } })).toBe('criteria.yes: noul criteria keys are "true" and "false", got "yes"');
    expect(problem({ type: 'noul', instructions: 'x', options: [] })).toMatch(/^options: unknown field "options"/);
  });

  it('rejects a question that is not an object', () => {
    expect(problem('noul')).toBe(': a question must be an object, got "noul"');
  });
});

const questionArb: fc.Arbitrary<Question> = fc.oneof(
  fc.record({ type: fc.constant('noul' as const), instructions: fc.string({ minLength: 1 }).filter((s) => s.trim() !== '') }),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 6 })
    // JS objects list integer-like keys ("0", "12") first, so JSON.parse cannot keep their wire order.
    .filter((opts) => opts.every((o) => o !== '__proto__' && !/^(0|[1-9][0-9]*)$/.test(o)))
    .chain((options) =>
      fc.record({
        type: fc.constant('choice' as const),
        instructions: fc.constant('Pick one.'),
        options: fc.constant(options),
        descriptions: fc.array(fc.option(fc.string(), { nil: null }), { minLength: options.length, maxLength: options.length }),
      }),
    ),
  fc.record({ type: fc.constant('score' as const), instructions: fc.constant('Rate it.'), levels: fc.array(fc.string(), { minLength: 2, maxLength: 10 }) }),
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
