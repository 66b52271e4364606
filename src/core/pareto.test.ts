import { describe, expect, it } from 'vitest';
import { paretoFront } from './pareto.js';

describe('paretoFront', () => {
  it('keeps the points no other point beats on both cost and accuracy', () => {
    const points = [
      { x: 10, y: 0.7 },
      { x: 20, y: 0.9 },
      { x: 15, y: 0.6 },
      { x: 5, y: 0.5 },
      { x: 30, y: 0.85 },
    ];
    expect(paretoFront(points)).toEqual([3, 0, 1]);
  });
});
