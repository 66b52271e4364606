import { describe, expect, it } from 'vitest';
import { recalibrateCase, recalibratedCases, missingRunGroupsText } from './case-recalibration.js';
import { scoreCase, type TypedDecisionsCase } from './typed-decisions/case-result.js';
import { withTemperature } from './calibration-map.js';
import { scoreDecision } from './decision-score.js';

const benchCase: TypedDecisionsCase = {
  id: 'c1',
  workflow: 'w',
  state: 's',
  questions: [
    ['ok', { type: 'noul', instructions: 'is it ok?' }],
    ['pick', { type: 'choice', instructions: 'pick one', options: ['a', 'b', 'c'], descriptions: [] }],
  ],
  gold: [
    { labelIndex: 0, probabilities: [0.8, 0.2] },
    { labelIndex: 2, probabilities: [0.1, 0.2, 0.7] },
  ],
} as unknown as TypedDecisionsCase;

const answered = scoreCase(benchCase, {
  status: 'answered',
  latencyMs: 1,
  inputTokens: null,
  predicted: [
    [0.4, 0.6],
    [0.5, 0.1, 0.4],
  ],
});

describe('recalibrateCase', () => {
  it('applies each group and scores the answer again against its gold', () => {
    const c = recalibrateCase(answered, {
      by: 'type',
      groups: [
        { key: 'noul', parameters: { method: 'temperature', temperature: 0.5 } },
        { key: 'choice', parameters: { method: 'temperature', temperature: 2 } },
      ],
    });
    const [yes, pick] = c.decisions;
    const q = withTemperature([0.4, 0.6], 0.5);
    expect(yes!.outcome).toMatchObject({ status: 'answered', probabilities: q, predicted: 'false', correct: false });
    const s = scoreDecision({ labelIndex: 0, probabilities: [0.8, 0.2] }, q);
    expect(yes!.outcome).toMatchObject({ confidence: s.confidence, kl: s.kl, brier: s.brier });
    expect(pick!.outcome).toMatchObject({ probabilities: withTemperature([0.5, 0.1, 0.4], 2), predicted: 'a' });
    // The request's outcome and the gold are as they were.
    expect(c.request).toBe(answered.request);
    expect(pick!.gold).toEqual(answered.decisions[1]!.gold);
  });

  it('passes a group left unchanged and a failed decision through as they are', () => {
    const unchanged = recalibrateCase(answered, { by: 'all', groups: [{ key: 'all', parameters: null }] });
    expect(unchanged.decisions).toEqual(answered.decisions);
    const failed = scoreCase(benchCase, {
      status: 'failed',
      failure: { kind: 'timeout', message: 'slow' },
      latencyMs: null,
    });
    const all = {
      by: 'all' as const,
      groups: [{ key: 'all', parameters: { method: 'temperature' as const, temperature: 3 } }],
    };
    expect(recalibrateCase(failed, all)).toEqual(failed);
  });

  it('groups by question as workflow/question', () => {
    const c = recalibrateCase(answered, {
      by: 'question',
      groups: [{ key: 'w/pick', parameters: { method: 'temperature', temperature: 2 } }],
    });
    expect(c.decisions[0]).toEqual(answered.decisions[0]);
    expect(c.decisions[1]!.outcome).toMatchObject({ probabilities: withTemperature([0.5, 0.1, 0.4], 2) });
  });

  it('reads a source lazily, keeping its length', () => {
    let reads = 0;
    const source = {
      length: 1,
      *[Symbol.iterator]() {
        reads++;
        yield answered;
      },
    };
    const cases = recalibratedCases(source, { by: 'all', groups: [{ key: 'all', parameters: null }] });
    expect(cases.length).toBe(1);
    expect(reads).toBe(0);
    expect([...cases]).toHaveLength(1);
    expect([...cases]).toHaveLength(1);
    expect(reads).toBe(2);
  });
});

describe('missingRunGroupsText', () => {
  it('names the groups a run needs that the map lacks, and nothing when none is missing', () => {
    const map = { by: 'type' as const, groups: [{ key: 'noul', parameters: null }] };
    expect(missingRunGroupsText(map, [{ key: 'w/ok', type: 'noul' }])).toBeNull();
    expect(missingRunGroupsText(map, [{ key: 'w/pick', type: 'choice' }])).toBe(
      'it has no group for question type "choice" (its groups, by type: "noul")',
    );
  });
});
