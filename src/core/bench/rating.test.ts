import { describe, expect, it } from 'vitest';
import { rate } from './rating.js';

describe('rate', () => {
  it('follows the reference star thresholds', () => {
    expect(rate(0.47, 10).stars).toBe(1);
    expect(rate(0.4701, 10).stars).toBe(2);
    expect(rate(0.7349, 10).stars).toBe(2);
    expect(rate(0.735, 10).stars).toBe(3);
    expect(rate(1, 10).stars).toBe(3);
  });

  it('gives no stars when nothing was answered', () => {
    expect(rate(0, 0)).toEqual({ stars: 0, label: 'Incomplete: no successful cases' });
    expect(rate(null, 0).stars).toBe(0);
  });
});
