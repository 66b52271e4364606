import { describe, expect, it } from 'vitest';
import { brierScore } from '../decision-score.js';
import type { ChoiceCase, ScoreCase, YesNoCase } from './case.js';
import {
  choiceBrier,
  logLoss,
  predictChoice,
  predictedAnswer,
  predictYesNo,
  scoreOffline,
  yesNoBrier,
} from './prediction.js';

const yes: YesNoCase = { id: 'yn', kind: 'yes_no', correct: true };
const no: YesNoCase = { id: 'yn0', kind: 'yes_no', correct: false };
const choice: ChoiceCase = {
  id: 'ch',
  kind: 'choice',
  options: ['allow', 'flag', 'remove'],
  correct: 'remove',
  correctIndex: 2,
};
const score: ScoreCase = { id: 'sc', kind: 'score', scoreMin: 0, scoreMax: 10, correct: 8 };

describe('predictYesNo', () => {
  it('predicts yes for p exactly at the threshold', () => {
    expect(predictYesNo(0.5)).toEqual({ yes: true, confidence: 0.5 });
    expect(predictYesNo(0.3, 0.3).yes).toBe(true);
  });

  it('predicts no just below the threshold, with confidence 1 - p', () => {
    expect(predictYesNo(0.49)).toEqual({ yes: false, confidence: 1 - 0.49 });
  });

  it('uses the probability of the predicted answer as confidence at any threshold', () => {
    expect(predictYesNo(0.45, 0.42)).toEqual({ yes: true, confidence: 0.45 });
    expect(predictYesNo(0.6, 0.7)).toEqual({ yes: false, confidence: 1 - 0.6 });
  });
});

describe('predictChoice', () => {
  it('predicts the most likely option', () => {
    expect(predictChoice({ kind: 'choice', probabilities: [0.2, 0.5, 0.3] })).toEqual({ index: 1, confidence: 0.5 });
  });

  it('breaks a tie toward the option listed first', () => {
    expect(predictChoice({ kind: 'choice', probabilities: [0.1, 0.45, 0.45] }).index).toBe(1);
    expect(predictChoice({ kind: 'choice', probabilities: [0.5, 0.5] }).index).toBe(0);
  });

  it('prefers picked over the most likely option, with the picked probability as confidence', () => {
    expect(predictChoice({ kind: 'choice', probabilities: [0.2, 0.7, 0.1], pickedIndex: 2 })).toEqual({
      index: 2,
      confidence: 0.1,
    });
  });
});

describe('per-decision scores', () => {
  it('gives a yes/no Brier of 2(p - y)^2', () => {
    expect(yesNoBrier(1, true)).toBe(0);
    expect(yesNoBrier(0, true)).toBe(2);
    expect(yesNoBrier(0.75, false)).toBeCloseTo(2 * 0.75 ** 2, 15);
  });

  it('gives a choice Brier equal to the Typed Decisions brierScore on a one-hot gold', () => {
    const p = [0.05, 0.1, 0.85];
    expect(choiceBrier(p, 2)).toBe(brierScore([0, 0, 1], p));
    expect(choiceBrier(p, 0)).toBeCloseTo(0.95 ** 2 + 0.1 ** 2 + 0.85 ** 2, 15);
  });

  it('matches the log loss figures of the spec: 0.99 wrong costs about 4.6, 0.999 about 6.9', () => {
    expect(logLoss(0.01)).toBeCloseTo(4.605, 3);
    expect(logLoss(0.001)).toBeCloseTo(6.908, 3);
    expect(logLoss(1)).toBe(0);
  });

  it('floors the true probability at 1e-15 so a zero stays finite', () => {
    expect(logLoss(0)).toBeCloseTo(-Math.log(1e-15), 12);
  });

  it('scores a yes/no from the probability of the true answer', () => {
    const s = scoreOffline(no, { kind: 'yes_no', probability: 0.2 });
    expect(s).toEqual({
      kind: 'yes_no',
      correct: true,
      confidence: 0.8,
      brier: yesNoBrier(0.2, false),
      logLoss: logLoss(0.8),
    });
  });

  it('scores a choice by the picked option but the Brier and log loss on the whole distribution', () => {
    const s = scoreOffline(choice, { kind: 'choice', probabilities: [0.1, 0.6, 0.3], pickedIndex: 2 });
    expect(s).toEqual({
      kind: 'choice',
      correct: true,
      confidence: 0.3,
      brier: choiceBrier([0.1, 0.6, 0.3], 2),
      logLoss: logLoss(0.3),
    });
    const unpicked = scoreOffline(choice, { kind: 'choice', probabilities: [0.1, 0.6, 0.3] });
    expect(unpicked.kind === 'choice' && unpicked.correct).toBe(false);
  });

  it('scores a score case by its absolute error only', () => {
    expect(scoreOffline(score, { kind: 'score', value: 5.5, confidence: 0.9 })).toEqual({
      kind: 'score',
      absError: 2.5,
    });
  });

  it('applies the threshold to yes/no predictions', () => {
    const at5 = scoreOffline(yes, { kind: 'yes_no', probability: 0.45 });
    const at4 = scoreOffline(yes, { kind: 'yes_no', probability: 0.45 }, 0.4);
    expect(at5.kind === 'yes_no' && at5.correct).toBe(false);
    expect(at4.kind === 'yes_no' && at4.correct).toBe(true);
  });

  it('refuses a decision of another kind', () => {
    expect(() => scoreOffline(yes, { kind: 'score', value: 1 })).toThrow(/score decision cannot answer yes_no case yn/);
  });
});

describe('predictedAnswer', () => {
  it('answers each kind in its own terms', () => {
    expect(predictedAnswer(yes, { kind: 'yes_no', probability: 0.5 })).toBe(true);
    expect(predictedAnswer(yes, { kind: 'yes_no', probability: 0.5 }, 0.6)).toBe(false);
    expect(predictedAnswer(choice, { kind: 'choice', probabilities: [0.4, 0.4, 0.2] })).toBe('allow');
    expect(predictedAnswer(score, { kind: 'score', value: 3 })).toBe(3);
  });
});
