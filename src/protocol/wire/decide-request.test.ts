import { describe, expect, it } from 'vitest';
import type { Question, QuestionSet } from '../../core/question.js';
import fc from 'fast-check';
import { renderDecideRequest, renderDecideRequestBytes } from './decide-request.js';
import { JsonText } from '../../core/json-text.js';
import { renderWireQuestions } from './questions-json.js';

const route: Question = {
  type: 'choice',
  instructions: 'Where should it go?',
  options: ['billing', 'support'],
  descriptions: ['Money matters.', 'Everything else.'],
};
const urgent: Question = { type: 'noul', instructions: 'Is it urgent?' };

describe('renderDecideRequest', () => {
  it('writes model, state and the questions in their order', () => {
    const questions: QuestionSet = [
      ['route', route],
      ['urgent', urgent],
    ];
    expect(JSON.parse(renderDecideRequest({ model: 'm', state: { a: 1 }, questions }))).toEqual({
      model: 'm',
      state: { a: 1 },
      questions: JSON.parse(renderWireQuestions(questions)),
    });
    expect(renderDecideRequest({ state: 'text', questions })).toBe(
      `{"state":"text","questions":${renderWireQuestions(questions)}}`,
    );
  });

  it('sends a question set rendered before as it is now, after its entries changed', () => {
    const questions: [string, Question][] = [['route', route]];
    const first = renderDecideRequest({ state: 's', questions });
    expect(renderDecideRequest({ state: 's', questions })).toBe(first);
    questions.push(['urgent', urgent]);
    expect(renderDecideRequest({ state: 's', questions })).toBe(
      `{"state":"s","questions":${renderWireQuestions(questions)}}`,
    );
    questions[1] = ['later', urgent];
    expect(renderDecideRequest({ state: 's', questions })).toContain('"later":');
    questions[0] = ['route', { ...route, instructions: 'Which team?' }];
    expect(renderDecideRequest({ state: 's', questions })).toContain('Which team?');
  });
});

describe('renderDecideRequest of a state kept as its text', () => {
  it('writes the text where the object would have been written', () => {
    const state = { agent: { model: 'm-1', steps: 3 }, note: 'a "quoted" word' };
    const questions: QuestionSet = [['urgent', urgent]];
    expect(renderDecideRequest({ model: 'uniform', state: new JsonText(JSON.stringify(state)), questions })).toBe(
      renderDecideRequest({ model: 'uniform', state, questions }),
    );
  });
});

describe('renderDecideRequestBytes', () => {
  it('gives the UTF-8 bytes of the rendered text, for any model, state and question set', () => {
    const questionSets: QuestionSet[] = [
      [['route', route]],
      [
        ['route', route],
        ['urgent', urgent],
      ],
      [['ü€', urgent]],
    ];
    fc.assert(
      fc.property(
        fc.option(fc.string({ unit: 'grapheme' }), { nil: undefined }),
        fc.oneof(
          fc.string({ unit: 'grapheme', minLength: 1 }),
          fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue({ maxDepth: 3 })),
          fc.dictionary(fc.string(), fc.integer()).map((o) => new JsonText(JSON.stringify(o))),
        ),
        fc.constantFrom(...questionSets),
        (model, state, questions) => {
          const request = { model, state, questions };
          expect(renderDecideRequestBytes(request).equals(Buffer.from(renderDecideRequest(request), 'utf8'))).toBe(
            true,
          );
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it('encodes a question set again once its entries changed', () => {
    const questions: [string, Question][] = [['route', route]];
    expect(renderDecideRequestBytes({ state: 's', questions }).toString()).toBe(
      renderDecideRequest({ state: 's', questions }),
    );
    questions.push(['urgent', urgent]);
    expect(renderDecideRequestBytes({ state: 's', questions }).toString()).toContain('"urgent":');
  });
});
