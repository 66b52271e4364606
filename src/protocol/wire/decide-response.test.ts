import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Question, QuestionSet } from '../../core/question.js';
import { answersOf } from '../../core/question.js';
import { MAX_INPUT_TOKENS, parseDecideResponse, readDistributions } from './decide-response.js';

const QUESTIONS: QuestionSet = [
  [
    'route',
    {
      type: 'choice',
      instructions: 'Team?',
      options: ['billing', 'shipping', 'technical'],
      descriptions: ['Money', null, 'Bugs'],
    },
  ],
  ['angry', { type: 'noul', instructions: 'Angry?' }],
  ['urgency', { type: 'score', instructions: 'Urgent?', levels: ['can wait', 'this week', 'today', 'right now'] }],
];

function good(): Record<string, any> {
  return {
    model: 'openjev',
    answers: {
      route: {
        type: 'choice',
        choice: 'billing',
        probabilities: { billing: 0.9998, shipping: 0.0001, technical: 0.0001 },
        confidence: 0.9997,
      },
      angry: { type: 'noul', noul: 0.6328 },
      urgency: {
        type: 'score',
        score: 2.0858,
        legend: { 0: 'can wait' },
        probabilities: { 0: 0.0023, 1: 0.116, 2: 0.6753, 3: 0.2064 },
        confidence: 0.673,
      },
    },
    usage: { input_tokens: 239, output_tokens: 0 },
  };
}

function reasonOf(body: unknown, questions = QUESTIONS): string {
  const r = parseDecideResponse(body, questions);
  if (r.ok) throw new Error('expected a rejection');
  return r.reason;
}

describe('parseDecideResponse', () => {
  it('builds distributions aligned with each question and reads usage and model', () => {
    const r = parseDecideResponse(good(), QUESTIONS);
    expect(r).toEqual({
      ok: true,
      value: {
        predicted: [
          [0.9998, 0.0001, 0.0001],
          [0.6328, 1 - 0.6328],
          [0.0023, 0.116, 0.6753, 0.2064],
        ],
        inputTokens: 239,
        model: 'openjev',
      },
    });
  });

  it('ignores the server choice, score and confidence', () => {
    const body = good();
    body.answers.route = {
      type: 'choice',
      choice: 'billing',
      probabilities: { billing: 0.4, shipping: 0.6 },
      confidence: 0.99,
    };
    body.answers.urgency.score = 0;
    const r = parseDecideResponse(body, QUESTIONS);
    expect(r.ok && r.value.predicted[0]).toEqual([0.4, 0.6, 0]);
  });

  it('sets a missing option to 0, ignores extra keys and does not renormalise', () => {
    const body = good();
    body.answers.route.probabilities = { billing: 0.695, technical: 0.3, refunds: 0 };
    const r = parseDecideResponse(body, QUESTIONS);
    expect(r.ok && r.value.predicted[0]).toEqual([0.695, 0, 0.3]);
  });

  it('rejects mass on keys that are not answers: the asked answers must sum to 1', () => {
    const body = good();
    body.answers.route.probabilities = { billing: 0.5, technical: 0.3, refunds: 0.2 };
    expect(reasonOf(body)).toMatch(/question route: probabilities of its answers sum to 0.8/);
  });

  it('accepts rounded sums within 0.01 of 1 and ignores answers to questions not asked', () => {
    const body = good();
    body.answers.route.probabilities = { billing: 0.3334, shipping: 0.3334, technical: 0.3334 };
    body.answers.extra = { type: 'noul', noul: 7 };
    expect(parseDecideResponse(body, QUESTIONS).ok).toBe(true);
  });

  it('reads input tokens as null when usage or the count is absent or null', () => {
    const body = good();
    delete body.usage;
    expect(parseDecideResponse(body, QUESTIONS)).toMatchObject({ ok: true, value: { inputTokens: null } });
    expect(parseDecideResponse({ ...good(), usage: { input_tokens: null } }, QUESTIONS)).toMatchObject({
      ok: true,
      value: { inputTokens: null },
    });
    expect(parseDecideResponse({ ...good(), usage: { input_tokens: MAX_INPUT_TOKENS } }, QUESTIONS)).toMatchObject({
      ok: true,
      value: { inputTokens: MAX_INPUT_TOKENS },
    });
  });

  it('rejects a token count that is not a whole number in range (no 1e308 to overflow a sum)', () => {
    for (const bad of [1e308, 2.5, -1, 'many', MAX_INPUT_TOKENS + 1]) {
      const r = parseDecideResponse({ ...good(), usage: { input_tokens: bad } }, QUESTIONS);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/^usage\.input_tokens is not a whole number from 0 to 1000000000/);
    }
  });

  it('rejects a body that is not a JSON object', () => {
    expect(reasonOf([good()])).toMatch(/not a JSON object/);
    expect(reasonOf(null)).toMatch(/not a JSON object/);
  });

  it('rejects missing answers and answers that are not an object', () => {
    expect(reasonOf({ usage: {} })).toMatch(/no "answers"/);
    expect(reasonOf({ answers: [] })).toMatch(/"answers" is not an object/);
  });

  it('rejects an unanswered question, naming it', () => {
    const body = good();
    delete body.answers.angry;
    expect(reasonOf(body)).toBe('question angry: not answered');
  });

  it('does not take an inherited property for an answer', () => {
    const questions: QuestionSet = [['constructor', { type: 'noul', instructions: 'x' }]];
    expect(reasonOf({ answers: {} }, questions)).toMatch(/question constructor: not answered/);
  });

  it('rejects an answer of another type', () => {
    const body = good();
    body.answers.angry = { type: 'choice', noul: 0.5 };
    expect(reasonOf(body)).toMatch(/question angry: answered as type "choice", asked as noul/);
  });

  it('rejects choice and score answers without probabilities and noul without noul', () => {
    const a = good();
    delete a.answers.route.probabilities;
    expect(reasonOf(a)).toMatch(/question route: choice answer has no "probabilities"/);
    const b = good();
    delete b.answers.urgency.probabilities;
    expect(reasonOf(b)).toMatch(/question urgency: score answer has no "probabilities"/);
    const c = good();
    c.answers.angry = { type: 'noul', probabilities: { true: 0.5, false: 0.5 } };
    expect(reasonOf(c)).toMatch(/question angry: noul answer has no "noul"/);
  });

  it.each([
    ['a string', '0.5', /not a finite number \(got "0.5"\)/],
    ['null', null, /not a finite number/],
    ['infinity', Infinity, /not a finite number \(got Infinity\)/],
    ['NaN', NaN, /not a finite number \(got NaN\)/],
    ['a negative number', -0.1, /-0.1, outside \[0, 1\]/],
    ['a number above 1', 1.2, /1.2, outside \[0, 1\]/],
  ])('rejects a choice probability that is %s', (_n, value, message) => {
    const body = good();
    body.answers.route.probabilities = { billing: value, shipping: 0.5, technical: 0.5 };
    expect(reasonOf(body)).toMatch(new RegExp(`^question route: probability of "billing" is ${message.source}`));
  });

  it('rejects a bad value even under a key that is not an answer', () => {
    const body = good();
    body.answers.route.probabilities = { billing: 1, bogus: -1 };
    expect(reasonOf(body)).toMatch(/probability of "bogus" is -1/);
  });

  it('rejects sums more than 0.01 from 1', () => {
    const body = good();
    body.answers.urgency.probabilities = { 0: 0.5, 1: 0.3, 2: 0.2, 3: 0.3 };
    expect(reasonOf(body)).toMatch(/question urgency: probabilities of its answers sum to 1.3/);
    body.answers.urgency.probabilities = { 0: 0.5, 1: 0.3, 2: 0.18 };
    expect(reasonOf(body)).toMatch(/sum to 0.98/);
  });

  it('rejects probabilities that name no known answer', () => {
    const body = good();
    body.answers.route.probabilities = { Billing: 1 };
    expect(reasonOf(body)).toMatch(
      /question route: probabilities name none of the answers \(billing, shipping, technical\)/,
    );
  });

  it.each([
    [1.01, /outside \[0, 1\]/],
    [-0.01, /outside \[0, 1\]/],
    ['0.4', /not a finite number/],
    [true, /not a finite number/],
  ])('rejects noul %s', (value, message) => {
    const body = good();
    body.answers.angry.noul = value;
    expect(reasonOf(body)).toMatch(message);
  });
});

const questionArb: fc.Arbitrary<Question> = fc.oneof(
  fc.record({ type: fc.constant('noul' as const), instructions: fc.string({ minLength: 1 }) }),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 6 })
    .map((options): Question => ({
      type: 'choice',
      instructions: 'pick',
      options,
      descriptions: options.map(() => null),
    })),
  fc.integer({ min: 2, max: 10 }).map((k): Question => ({
    type: 'score',
    instructions: 'rate',
    levels: Array.from({ length: k }, (_, i) => `level ${i}`),
  })),
);
const questionSetArb: fc.Arbitrary<QuestionSet> = fc
  .uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), questionArb), {
    minLength: 1,
    maxLength: 5,
    selector: ([id]) => id,
  })
  .map((xs) => xs.map(([id, q]) => [id, q] as const));

/** A random valid response for the questions, with weights for each answer. */
function validBody(questions: QuestionSet, seeds: readonly number[], round: boolean) {
  const answers: Record<string, unknown> = {};
  const expected: number[][] = [];
  let s = 0;
  for (const [id, q] of questions) {
    const names = answersOf(q);
    if (q.type === 'noul') {
      const p = seeds[s++ % seeds.length]!;
      answers[id] = { type: 'noul', noul: p };
      expected.push([p, 1 - p]);
      continue;
    }
    const w = names.map(() => seeds[s++ % seeds.length]! + 0.01);
    const total = w.reduce((a, b) => a + b, 0);
    const probs = w.map((x) => (round ? Math.round((x / total) * 1e4) / 1e4 : x / total));
    answers[id] = { type: q.type, probabilities: Object.fromEntries(names.map((n, i) => [n, probs[i]])) };
    expected.push(probs);
  }
  return { body: { answers, usage: { input_tokens: 10, output_tokens: 0 } }, expected };
}

describe('readDistributions', () => {
  it('reads what the strict parser accepts as the same distributions', () => {
    const strict = parseDecideResponse(good(), QUESTIONS);
    expect(strict.ok && readDistributions(good(), QUESTIONS)).toEqual(strict.ok && strict.value.predicted);
  });

  it('reads answers the strict parser rejects: out of range, a bad sum, another type', () => {
    const body = good();
    body.answers.angry = { type: 'choice', noul: 1.5 };
    body.answers.route.probabilities = { billing: 0.2, shipping: 0.2 };
    expect(readDistributions(body, QUESTIONS)).toEqual([
      [0.2, 0.2, 0],
      [1.5, 1 - 1.5],
      [0.0023, 0.116, 0.6753, 0.2064],
    ]);
  });

  it('gives null for an answer it cannot read, the others still read', () => {
    const body = good();
    delete body.answers.route;
    body.answers.angry.noul = 'high';
    expect(readDistributions(body, QUESTIONS)).toEqual([null, null, [0.0023, 0.116, 0.6753, 0.2064]]);
    body.answers.urgency.probabilities[2] = null;
    expect(readDistributions(body, QUESTIONS)[2]).toBeNull();
  });

  it('gives null everywhere for a body without answers, and takes no inherited property for one', () => {
    expect(readDistributions([1, 2], QUESTIONS)).toEqual([null, null, null]);
    const q: QuestionSet = [['toString', { type: 'noul', instructions: 'x' }]];
    expect(readDistributions({ answers: {} }, q)).toEqual([null]);
  });
});

describe('parseDecideResponse properties', () => {
  it('accepts random valid responses (exact or rounded to 4 decimals) and aligns them', () => {
    fc.assert(
      fc.property(
        questionSetArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        (questions, seeds, round) => {
          const { body, expected } = validBody(questions, seeds, round);
          const r = parseDecideResponse(JSON.parse(JSON.stringify(body)), questions);
          expect(r.ok).toBe(true);
          if (r.ok) expect(r.value.predicted).toEqual(expected);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  const corruptions: ReadonlyArray<(a: Record<string, any>, id: string) => void> = [
    (a, id) => void delete a[id],
    (a, id) => void (a[id] = 'yes'),
    (a, id) =>
      void (a[id].type === 'noul'
        ? (a[id].noul = 1.5)
        : (a[id].probabilities[Object.keys(a[id].probabilities)[0]!] = -0.5)),
    (a, id) =>
      void (a[id].type === 'noul'
        ? (a[id].noul = null)
        : (a[id].probabilities[Object.keys(a[id].probabilities)[0]!] = 'NaN')),
    (a, id) => void (a[id].type === 'noul' ? delete a[id].noul : delete a[id].probabilities),
    (a, id) =>
      void (a[id].type === 'noul'
        ? (a[id].noul = Infinity)
        : (a[id].probabilities = Object.fromEntries(Object.keys(a[id].probabilities).map((k) => [k, 0.9])))),
    (a, id) =>
      void (a[id].type === 'noul' ? (a[id].type = 'choice') : (a[id].probabilities = { 'not an answer \u0000': 1 })),
  ];

  it('rejects random corruptions with a reason naming the question, and never throws', () => {
    fc.assert(
      fc.property(
        questionSetArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.integer({ min: 0, max: corruptions.length - 1 }),
        (questions, seeds, which, c) => {
          const { body } = validBody(questions, seeds, false);
          const id = questions[which % questions.length]![0];
          corruptions[c]!(body.answers as Record<string, any>, id);
          const r = parseDecideResponse(body, questions);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.reason.startsWith(`question ${id}:`)).toBe(true);
        },
      ),
      { seed: 42, numRuns: 400 },
    );
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(questionSetArb, fc.jsonValue(), (questions, value) => {
        expect(() => parseDecideResponse(value, questions)).not.toThrow();
        expect(() => parseDecideResponse({ answers: value }, questions)).not.toThrow();
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
