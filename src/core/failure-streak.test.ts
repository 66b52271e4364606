import { describe, expect, it } from 'vitest';
import { FAILURE_STREAK, createFailureStreak } from './failure-streak.js';

describe('createFailureStreak', () => {
  it('says stop when the first requests all fail the same way, on the last of them', () => {
    const streak = createFailureStreak();
    const answers = Array.from({ length: FAILURE_STREAK }, () => streak.failed('timeout'));
    expect(answers).toEqual([...Array<boolean>(FAILURE_STREAK - 1).fill(false), true]);
  });

  it('never says stop once a request went otherwise', () => {
    const streak = createFailureStreak(2);
    expect(streak.failed('timeout')).toBe(false);
    streak.broken();
    expect([streak.failed('timeout'), streak.failed('timeout'), streak.failed('timeout')]).toEqual([
      false,
      false,
      false,
    ]);
    expect(streak.count).toBe(0);
  });

  it('ends at a failure unlike the ones before', () => {
    const streak = createFailureStreak(2);
    expect(streak.failed('unknown model a')).toBe(false);
    expect(streak.failed('unknown model b')).toBe(false);
    expect(streak.failed('unknown model b')).toBe(false);
  });

  it('stops a run shorter than the streak at its own size', () => {
    expect(createFailureStreak(1).failed('timeout')).toBe(true);
    expect(createFailureStreak(0).failed('timeout')).toBe(true);
  });
});
