import { describe, expect, it } from 'vitest';
import { comparedCount, compareWithLabel, noVerdictCount, parseJudgeAnswer, verdictWordOf } from './verdict.js';

const OPTIONS = ['claimed', 'not_claimed', 'unclear'];
const body = (answer: unknown) => ({ answers: { verdict: answer } });
const good = (probabilities: Record<string, unknown>, choice: unknown = 'claimed') =>
  body({ type: 'choice', choice, probabilities });

describe('parseJudgeAnswer', () => {
  it('accepts probabilities covering exactly the options, summing within 0.001 of 1, with the top choice', () => {
    const r = parseJudgeAnswer(good({ claimed: 0.7, not_claimed: 0.2995, unclear: 0 }), 'verdict', OPTIONS);
    expect(r).toEqual({
      ok: true,
      answer: { choice: 'claimed', probabilities: { claimed: 0.7, not_claimed: 0.2995, unclear: 0 } },
    });
  });

  it.each([
    ['not an object', [1], 'malformed_answer', 'not a JSON object'],
    ['no answers', { model: 'x' }, 'malformed_answer', 'no "answers"'],
    ['question unanswered', { answers: {} }, 'malformed_answer', 'verdict is not answered'],
    ['no probabilities', body({ choice: 'claimed' }), 'malformed_answer', 'no "probabilities"'],
    [
      'an extra option',
      good({ claimed: 0.5, not_claimed: 0.5, unclear: 0, maybe: 0 }),
      'invalid_answer',
      '"maybe", not an asked option',
    ],
    ['a missing option', good({ claimed: 0.5, not_claimed: 0.5 }), 'invalid_answer', 'leave out "unclear"'],
    ['a non-number', good({ claimed: '0.5', not_claimed: 0.5, unclear: 0 }), 'invalid_answer', 'not a finite number'],
    ['a value above 1', good({ claimed: 1.2, not_claimed: -0.2, unclear: 0 }), 'invalid_answer', 'outside [0, 1]'],
    ['a sum 0.0011 off', good({ claimed: 0.5, not_claimed: 0.4989, unclear: 0 }), 'invalid_answer', 'not within 0.001'],
    [
      'no choice',
      body({ probabilities: { claimed: 0.6, not_claimed: 0.4, unclear: 0 } }),
      'invalid_answer',
      '"choice" is missing',
    ],
    [
      'a choice that is not top',
      good({ claimed: 0.4, not_claimed: 0.6, unclear: 0 }),
      'invalid_answer',
      'not the top option',
    ],
  ] as const)('rejects %s', (_, input, reason, text) => {
    const r = parseJudgeAnswer(input, 'verdict', OPTIONS);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe(reason);
      expect(r.message).toContain(text);
    }
  });
});

describe('compareWithLabel', () => {
  const answer = (probabilities: Record<string, number>, choice: string) => ({ choice, probabilities });

  it('agrees, disagrees, and abstains on unclear or a tie', () => {
    expect(compareWithLabel(answer({ claimed: 0.8, not_claimed: 0.2 }, 'claimed'), 'claimed').status).toBe('agrees');
    expect(compareWithLabel(answer({ claimed: 0.8, not_claimed: 0.2 }, 'claimed'), 'not_claimed').status).toBe(
      'disagrees',
    );
    expect(compareWithLabel(answer({ claimed: 0.2, unclear: 0.8 }, 'unclear'), 'claimed')).toMatchObject({
      status: 'abstained',
      reason: 'unclear',
    });
    const tie = answer({ claimed: 0.5, not_claimed: 0.5 }, 'claimed');
    expect(compareWithLabel(tie, 'claimed')).toMatchObject({ status: 'abstained', reason: 'tie' });
    expect(verdictWordOf(tie)).toBe('tie');
  });
});

describe('audit counts', () => {
  it('compares the answered audits and counts the rest as without a verdict', () => {
    const counts = { agrees: 5, disagrees: 2, abstained: 3, unavailable: 1 };
    expect(comparedCount(counts)).toBe(7);
    expect(noVerdictCount(counts)).toBe(4);
  });
});
