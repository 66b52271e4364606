import { describe, expect, it } from 'vitest';
import type { QuestionSet } from '../question.js';
import {
  CONFORMANCE_CHECK_IDS,
  checkDecideExchange,
  checkHealth,
  checkModels,
  checkRejection,
  summarizeConformance,
} from './conformance.js';

const QUESTIONS: QuestionSet = [
  [
    'route',
    { type: 'choice', instructions: 'Which team?', options: ['billing', 'shipping'], descriptions: [null, null] },
  ],
  ['angry', { type: 'noul', instructions: 'Angry?' }],
  ['urgency', { type: 'score', instructions: 'How urgent?', levels: ['low', 'mid', 'high'] }],
];

const good = () => ({
  answers: {
    route: { type: 'choice', choice: 'billing', probabilities: { billing: 0.7, shipping: 0.3 }, confidence: 0.7 },
    angry: { type: 'noul', noul: 0.2 },
    urgency: { type: 'score', score: 1.2, probabilities: { 0: 0.1, 1: 0.6, 2: 0.3 } },
  },
  usage: { input_tokens: 10, output_tokens: 0 },
});

const failures = (body: unknown) =>
  checkDecideExchange(QUESTIONS, { kind: 'body', body })
    .filter((r) => r.failure !== null)
    .map((r) => [r.check, r.failure]);

describe('checkDecideExchange', () => {
  it('passes a conforming answer on every check it applies', () => {
    const results = checkDecideExchange(QUESTIONS, { kind: 'body', body: good() });
    expect(results.every((r) => r.failure === null)).toBe(true);
    expect(new Set(results.map((r) => r.check))).toEqual(
      new Set([
        'valid-request-answered',
        'output-tokens-zero',
        'no-unasked-answers',
        'all-questions-answered',
        'answer-type',
        'noul-in-range',
        'probabilities-cover',
        'probabilities-in-range',
        'probabilities-sum',
        'choice-is-top',
        'score-is-expected-level',
      ]),
    );
  });

  it('names each broken rule once, with the question', () => {
    const b = good();
    b.answers.route.choice = 'shipping';
    expect(failures(b)).toEqual([
      ['choice-is-top', 'question "route": "choice" is "shipping" (p=0.3) but the top probability is 0.7'],
    ]);
    const s = good();
    s.answers.urgency.score = 2;
    expect(failures(s)).toEqual([
      ['score-is-expected-level', 'question "urgency": "score" is 2, the expected level is 1.2'],
    ]);
    const t = good() as { answers: Record<string, unknown>; usage: unknown };
    t.usage = { input_tokens: 3 };
    delete t.answers['angry'];
    t.answers['extra'] = { noul: 0.5 };
    expect(failures(t)).toEqual([
      ['output-tokens-zero', 'usage.output_tokens is missing'],
      ['no-unasked-answers', 'answers question "extra", which was not asked'],
      ['all-questions-answered', 'question "angry" has no answer'],
    ]);
  });

  it('judges coverage, range and sum apart, the sum over the asked answers only', () => {
    const b = good();
    (b.answers.route.probabilities as Record<string, number>) = { billing: 1, other: -0.02 };
    expect(failures(b).map(([c]) => c)).toEqual(['probabilities-cover', 'probabilities-in-range']);
    const s = good();
    s.answers.urgency.probabilities = { 0: 0.1, 1: 0.6, 2: 0.35 };
    s.answers.urgency.score = (0.6 + 0.7) / 1.05;
    expect(failures(s).map(([c]) => c)).toEqual(['probabilities-sum']);
  });

  it('counts a failed request against valid-request-answered only', () => {
    expect(checkDecideExchange(QUESTIONS, { kind: 'failed', message: 'HTTP 500: boom' })).toEqual([
      { check: 'valid-request-answered', failure: 'HTTP 500: boom', answer: 'HTTP 500: boom' },
    ]);
  });
});

describe('invalid requests and GET routes', () => {
  it('wants a 4xx with an error body', () => {
    const r = (status: number, text: string) => checkRejection('one-option', { kind: 'response', status, text });
    expect(r(400, '{"error":{"code":400,"message":"x"}}').failure).toBeNull();
    expect(r(422, '{"detail":"x"}').failure).toBeNull();
    expect(r(500, '{"error":{}}').failure).toBe('answered HTTP 500, not a 4xx');
    expect(r(200, '{"answers":{}}').failure).toBe('answered HTTP 200, not a 4xx');
    expect(r(400, 'bad').failure).toMatch(/without an error body/);
  });

  it('wants /health ok and a decision model in /v1/models', () => {
    expect(checkHealth({ kind: 'response', status: 200, text: '{"status":"ok"}' }).failure).toBeNull();
    expect(checkHealth({ kind: 'response', status: 503, text: '{}' }).failure).toMatch(/still loading/);
    const models = (data: unknown) => checkModels({ kind: 'response', status: 200, text: JSON.stringify({ data }) });
    expect(models([{ id: 'm', architecture: { output_modalities: ['decisions'] } }]).failure).toBeNull();
    expect(models([{ id: 'm', architecture: { output_modalities: ['text'] } }]).failure).toMatch(
      /not a decision model/,
    );
    expect(models([]).failure).toMatch(/non-empty "data"/);
  });
});

describe('summarizeConformance', () => {
  it('counts items, keeps three examples, and marks checks without items not run', () => {
    const item = (failure: string | null) => ({
      request: 'R',
      result: { check: 'noul-in-range' as const, failure, answer: 'A' },
    });
    const s = summarizeConformance([item(null), item('one'), item('two'), item('three'), item('four')]);
    const noul = s.checks.find((c) => c.id === 'noul-in-range')!;
    expect(noul).toMatchObject({ status: 'fail', checked: 5, failed: 4 });
    expect(noul.examples.map((e) => e.message)).toEqual(['one', 'two', 'three']);
    expect(s).toMatchObject({ passed: 0, failed: 1, notRun: CONFORMANCE_CHECK_IDS.length - 1 });
  });
});
