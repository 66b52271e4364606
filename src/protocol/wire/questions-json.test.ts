import { describe, expect, it } from 'vitest';
import { answersOf, type QuestionSet } from '../../core/question.js';
import { parseWireQuestions, renderWireQuestions } from './questions-json.js';
import { TYPED_DECISIONS_QUESTIONS } from '../test-support/fixtures.js';

function problemsOf(value: unknown) {
  const r = parseWireQuestions(value, 'questions');
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('parseWireQuestions', () => {
  it('parses the 20 Typed Decisions questions with options and levels in order', () => {
    for (const [workflow, qs] of Object.entries(TYPED_DECISIONS_QUESTIONS)) {
      const r = parseWireQuestions(qs, 'questions');
      expect(r.ok, workflow).toBe(true);
      if (!r.ok) continue;
      expect(r.questions.map(([id]) => id)).toEqual(Object.keys(qs));
      for (const [id, q] of r.questions) {
        const wire = qs[id] as { criteria?: unknown };
        if (q.type === 'choice') expect(q.options).toEqual(Object.keys(wire.criteria as object));
        if (q.type === 'score') expect(q.levels).toEqual(wire.criteria);
      }
    }
  });

  it('keeps null descriptions and optional noul criteria', () => {
    const r = parseWireQuestions(
      {
        route: { type: 'choice', instructions: 'Team?', criteria: { billing: 'Money', shipping: null } },
        angry: { type: 'noul', instructions: 'Angry?' },
      },
      'questions',
    );
    expect(r).toEqual({
      ok: true,
      questions: [
        [
          'route',
          { type: 'choice', instructions: 'Team?', options: ['billing', 'shipping'], descriptions: ['Money', null] },
        ],
        ['angry', { type: 'noul', instructions: 'Angry?' }],
      ],
    });
  });

  it.each([
    ['a non-object', [], 'questions', /must be an object/],
    ['no question', {}, 'questions', /at least one question/],
    [
      'an unknown type',
      { q: { type: 'yesno', instructions: 'x' } },
      'questions.q.type',
      /unknown question type "yesno" \(expected noul, choice or score\)/,
    ],
    [
      'an upper-case type',
      { q: { type: 'Choice', instructions: 'x', criteria: { a: null, b: null } } },
      'questions.q.type',
      /unknown question type "Choice" \(types are lower-case: choice\)/,
    ],
    ['a missing type', { q: { instructions: 'x' } }, 'questions.q.type', /type is missing/],
    [
      'missing instructions',
      { q: { type: 'noul' } },
      'questions.q.instructions',
      /instructions must be a non-empty string/,
    ],
    ['empty instructions', { q: { type: 'noul', instructions: '' } }, 'questions.q.instructions', /non-empty/],
    ['blank instructions', { q: { type: 'noul', instructions: '  ' } }, 'questions.q.instructions', /non-empty/],
    [
      'missing choice criteria',
      { q: { type: 'choice', instructions: 'x' } },
      'questions.q.criteria',
      /object of option name.*got nothing/,
    ],
    [
      'an empty option name',
      { q: { type: 'choice', instructions: 'x', criteria: { '': null, b: null } } },
      'questions.q.criteria',
      /option name must not be empty/,
    ],
    [
      'noul criteria as a string',
      { q: { type: 'noul', instructions: 'x', criteria: 'yes' } },
      'questions.q.criteria',
      /noul criteria must be an object/,
    ],
    [
      'choice criteria as an array',
      { q: { type: 'choice', instructions: 'x', criteria: ['a', 'b'] } },
      'questions.q.criteria',
      /object of option name/,
    ],
    [
      'one option',
      { q: { type: 'choice', instructions: 'x', criteria: { a: null } } },
      'questions.q.criteria',
      /2 to 255 options, got 1/,
    ],
    [
      'a numeric description',
      { q: { type: 'choice', instructions: 'x', criteria: { a: 1, b: null } } },
      'questions.q.criteria.a',
      /string or null/,
    ],
    [
      'score criteria as an object',
      { q: { type: 'score', instructions: 'x', criteria: { 0: 'a' } } },
      'questions.q.criteria',
      /array of level descriptions/,
    ],
    [
      'one level',
      { q: { type: 'score', instructions: 'x', criteria: ['a'] } },
      'questions.q.criteria',
      /2 to 10 levels, got 1/,
    ],
    [
      'eleven levels',
      { q: { type: 'score', instructions: 'x', criteria: Array.from({ length: 11 }, (_, i) => `l${i}`) } },
      'questions.q.criteria',
      /got 11/,
    ],
    [
      'a non-string level',
      { q: { type: 'score', instructions: 'x', criteria: ['a', 2] } },
      'questions.q.criteria[1]',
      /level 1 must be a string/,
    ],
    [
      'a noul criteria key other than true/false',
      { q: { type: 'noul', instructions: 'x', criteria: { yes: 'y' } } },
      'questions.q.criteria.yes',
      /keys are "true" and "false", got "yes"/,
    ],
    ['a question that is not an object', { q: 'noul' }, 'questions.q', /must be an object/],
  ])('reports %s with the question id and field', (_name, value, field, message) => {
    const problems = problemsOf(value);
    expect(problems[0]!.field).toBe(field);
    expect(problems[0]!.message).toMatch(message);
    if (field !== 'questions') expect(problems[0]!.questionId).toBe('q');
  });

  it('rejects 256 options and accepts 255', () => {
    const criteria = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`o${i}`, null]));
    expect(problemsOf({ q: { type: 'choice', instructions: 'x', criteria: criteria(256) } })[0]!.message).toMatch(
      /got 256/,
    );
    expect(
      parseWireQuestions({ q: { type: 'choice', instructions: 'x', criteria: criteria(255) } }, 'questions').ok,
    ).toBe(true);
  });

  it('reports an empty question id', () => {
    const problems = problemsOf({ '': { type: 'noul', instructions: 'x' } });
    expect(problems).toEqual([{ questionId: '', field: 'questions.', message: 'a question id must not be empty' }]);
  });

  it('ignores unknown question fields, as llama.cpp ignores unknown keys', () => {
    expect(parseWireQuestions({ q: { type: 'noul', instructions: 'x', priority: 3 } }, 'questions')).toEqual({
      ok: true,
      questions: [['q', { type: 'noul', instructions: 'x' }]],
    });
  });

  it('reads null noul criteria as absent', () => {
    expect(parseWireQuestions({ q: { type: 'noul', instructions: 'x', criteria: null } }, 'questions')).toEqual({
      ok: true,
      questions: [['q', { type: 'noul', instructions: 'x' }]],
    });
  });

  it('reports several problems of one question, each with its field', () => {
    const problems = problemsOf({ q: { type: 'score', criteria: ['a', 2] } });
    expect(problems.map((p) => [p.questionId, p.field])).toEqual([
      ['q', 'questions.q.instructions'],
      ['q', 'questions.q.criteria[1]'],
    ]);
  });

  it('collects the problems of every question, not only the first', () => {
    const problems = problemsOf({ a: { type: 'noul' }, b: { type: 'score', instructions: 'x', criteria: [] } });
    expect(problems.map((p) => p.questionId)).toEqual(['a', 'b']);
  });
});

describe('renderWireQuestions', () => {
  it('round-trips through JSON.parse for word option names', () => {
    for (const qs of Object.values(TYPED_DECISIONS_QUESTIONS)) {
      const r = parseWireQuestions(qs, 'questions');
      if (!r.ok) throw new Error('fixture');
      const again = parseWireQuestions(JSON.parse(renderWireQuestions(r.questions)), 'questions');
      expect(again).toEqual(r);
    }
  });

  it('writes integer-like option names in the given order (an object would move them)', () => {
    const questions: QuestionSet = [
      ['q', { type: 'choice', instructions: 'Pick', options: ['b', '2', '1'], descriptions: [null, 'two', 'one'] }],
    ];
    const text = renderWireQuestions(questions);
    expect(text).toBe('{"q":{"type":"choice","instructions":"Pick","criteria":{"b":null,"2":"two","1":"one"}}}');
    // The documented limitation: parsing that text with JSON.parse re-orders the keys.
    const reparsed = parseWireQuestions(JSON.parse(text), 'questions');
    expect(reparsed.ok && reparsed.questions[0]![1].type === 'choice' && answersOf(reparsed.questions[0]![1])).toEqual([
      '1',
      '2',
      'b',
    ]);
  });
});

describe('renderWireQuestions edge names', () => {
  it('keeps "__proto__" as an id and as an option name', () => {
    const questions: QuestionSet = [
      [
        '__proto__',
        { type: 'choice', instructions: 'Pick', options: ['__proto__', 'constructor'], descriptions: ['a', null] },
      ],
    ];
    const text = renderWireQuestions(questions);
    expect(text).toBe(
      '{"__proto__":{"type":"choice","instructions":"Pick","criteria":{"__proto__":"a","constructor":null}}}',
    );
    expect(parseWireQuestions(JSON.parse(text), 'questions')).toEqual({ ok: true, questions });
  });
});
