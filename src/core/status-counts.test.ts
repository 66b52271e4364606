import { describe, expect, it } from 'vitest';
import { summarizeStatusCounts } from './status-counts.js';

describe('summarizeStatusCounts', () => {
  it('totals the counts and lists the statuses held in order', () => {
    expect(summarizeStatusCounts({ running: 1, interrupted: 2, incomplete: 0, complete: 4 })).toEqual({
      total: 7,
      byStatus: [
        { status: 'complete', n: 4 },
        { status: 'interrupted', n: 2 },
        { status: 'running', n: 1 },
      ],
    });
  });

  it('holds nothing for no records', () => {
    expect(summarizeStatusCounts({ running: 0, interrupted: 0, incomplete: 0, complete: 0 })).toEqual({
      total: 0,
      byStatus: [],
    });
  });
});
