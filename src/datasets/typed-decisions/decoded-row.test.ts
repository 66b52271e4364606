import { describe, expect, it } from 'vitest';
import { parseDecodedRow, type ParsedRow } from './decoded-row.js';

function row(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'customer_service_000001',
    workflow: 'customer_service',
    state: { account: { tier: 'pro' }, thread: [{ role: 'customer', text: 'I was charged twice.' }] },
    questions: {
      route: {
        type: 'choice',
        instructions: 'Which team?',
        criteria: { billing: 'Charges', shipping: null, technical: 'Bugs' },
      },
      angry: { type: 'noul', instructions: 'Is the customer angry?' },
      urgency: { type: 'score', instructions: 'How urgent?', criteria: ['can wait', 'this week', 'today'] },
    },
    gold: {
      route: { label: 'billing', probabilities: { billing: 0.8, shipping: 0.05, technical: 0.15 } },
      angry: { label: 'false', probabilities: { false: 0.75, true: 0.25 } },
      urgency: { label: '1', probabilities: { '0': 0.2, '1': 0.5, '2': 0.3 } },
    },
    ...overrides,
  };
}

function withGold(qid: string, gold: unknown): Record<string, unknown> {
  const r = row();
  return { ...r, gold: { ...(r['gold'] as Record<string, unknown>), [qid]: gold } };
}

function messages(parsed: ParsedRow): string[] {
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems.map((p) => p.message);
}

describe('parseDecodedRow', () => {
  it("builds a case with gold aligned with each question's answers", () => {
    const parsed = parseDecodedRow(row());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const c = parsed.benchCase;
    expect(c.questions.map(([id]) => id)).toEqual(['route', 'angry', 'urgency']);
    // noul gold is stored false-first; answers are true, false.
    expect(c.gold).toEqual([
      { labelIndex: 0, probabilities: [0.8, 0.05, 0.15] },
      { labelIndex: 1, probabilities: [0.25, 0.75] },
      { labelIndex: 1, probabilities: [0.2, 0.5, 0.3] },
    ]);
  });

  it('decodes a state given as a JSON string and keeps plain text states', () => {
    const decoded = parseDecodedRow(row({ state: '{"ticket": "late"}' }));
    expect(decoded.ok && decoded.benchCase.state).toEqual({ ticket: 'late' });
    const text = parseDecodedRow(row({ state: 'The customer is angry.' }));
    expect(text.ok && text.benchCase.state).toBe('The customer is angry.');
  });

  it('rejects gold probabilities that do not sum to 1', () => {
    expect(
      messages(
        parseDecodedRow(
          withGold('route', { label: 'billing', probabilities: { billing: 0.8, shipping: 0.3, technical: 0.1 } }),
        ),
      ),
    ).toEqual(['question route: gold probabilities sum to 1.2, expected 1 (within 0.01)']);
  });

  it('accepts a sum off by less than 0.01', () => {
    expect(
      parseDecodedRow(
        withGold('route', { label: 'billing', probabilities: { billing: 0.8, shipping: 0.05, technical: 0.149 } }),
      ).ok,
    ).toBe(true);
  });

  it('rejects a label that is not one of the most likely answers', () => {
    expect(
      messages(
        parseDecodedRow(
          withGold('route', { label: 'technical', probabilities: { billing: 0.8, shipping: 0.05, technical: 0.15 } }),
        ),
      ),
    ).toEqual([
      'question route: gold label "technical" (p=0.15) is not one of the most likely answers (billing at p=0.8)',
    ]);
  });

  it('accepts either answer of a tie as the label', () => {
    const gold = { label: 'technical', probabilities: { billing: 0.45, shipping: 0.1, technical: 0.45 } };
    const parsed = parseDecodedRow(withGold('route', gold));
    expect(parsed.ok && parsed.benchCase.gold[0]!.labelIndex).toBe(2);
  });

  it('rejects an unknown answer in gold', () => {
    expect(
      messages(
        parseDecodedRow(
          withGold('route', {
            label: 'billing',
            probabilities: { billing: 0.8, shipping: 0.05, technical: 0.1, legal: 0.05 },
          }),
        ),
      ),
    ).toEqual(['question route: gold has unknown answer "legal" (answers: billing, shipping, technical)']);
  });

  it('rejects noul gold keyed yes/no', () => {
    expect(
      messages(parseDecodedRow(withGold('angry', { label: 'false', probabilities: { no: 0.75, yes: 0.25 } }))),
    ).toEqual(['question angry: gold has unknown answers "no", "yes" (answers: true, false)']);
  });

  it('rejects a missing answer, a probability above 1 and a label that is not an answer', () => {
    expect(
      messages(parseDecodedRow(withGold('urgency', { label: '1', probabilities: { '0': 0.5, '1': 0.5 } }))),
    ).toEqual(['question urgency: gold has no probability for answer "2" (answers: 0, 1, 2)']);
    expect(
      messages(parseDecodedRow(withGold('urgency', { label: '1', probabilities: { '0': -0.2, '1': 1.2, '2': 0 } }))),
    ).toEqual(['question urgency: gold probability of "0" must be a finite number in [0, 1], got -0.2']);
    expect(
      messages(
        parseDecodedRow(withGold('urgency', { label: 'high', probabilities: { '0': 0.2, '1': 0.5, '2': 0.3 } })),
      ),
    ).toEqual(['question urgency: gold label "high" is not an answer (answers: 0, 1, 2)']);
  });

  it('rejects gold for a question that was not asked and a question without gold', () => {
    const r = row();
    const gold = { ...(r['gold'] as Record<string, unknown>) };
    delete gold['angry'];
    gold['extra'] = { label: 'true', probabilities: { true: 1, false: 0 } };
    expect(messages(parseDecodedRow({ ...r, gold }))).toEqual([
      'question extra: gold for a question that was not asked',
      'question angry: no gold for an asked question',
    ]);
  });

  it('rejects an invalid question, naming it and its field', () => {
    const r = row();
    const questions = {
      ...(r['questions'] as Record<string, unknown>),
      urgency: { type: 'score', instructions: 'How urgent?', criteria: ['only one'] },
    };
    const parsed = parseDecodedRow({ ...r, questions });
    expect(messages(parsed)).toEqual(['question urgency: criteria: a score question has 2 to 10 levels, got 1']);
    expect(!parsed.ok && parsed.problems[0]!.field).toBe('questions.urgency.criteria');
  });

  it('rejects a missing id, a numeric workflow and a null state together', () => {
    expect(messages(parseDecodedRow(row({ id: undefined, workflow: 7, state: null })))).toEqual([
      'id must be a non-empty string, got nothing (the key is missing)',
      'workflow must be a non-empty string, got 7',
      'state must be an object or a string, got null',
    ]);
  });

  it('says an empty gold entry lacks its probabilities and label, in JSON words', () => {
    expect(messages(parseDecodedRow(withGold('angry', {})))).toEqual([
      'question angry: gold probabilities must be an object answer -> probability, got nothing (the key is missing)',
    ]);
  });

  it('rejects a row that is not an object', () => {
    expect(messages(parseDecodedRow([1, 2]))).toEqual(['a row must be a JSON object, got [1,2]']);
  });
});
