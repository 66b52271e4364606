import { describe, expect, it } from 'vitest';
import { renderStoreCheck } from './runs-check.js';

const run = (id: string, problems: string[] = []) => ({ id, status: 'complete' as const, savedCases: 2, problems });

describe('renderStoreCheck', () => {
  it('says one run differs, in the singular, and several differ', () => {
    const one = renderStoreCheck({ path: 's.db', integrity: [], runs: [run('a', ['case x: changed'])] });
    expect(one).toContain('s.db: 1 of 1 run differs from what was saved.');
    const two = renderStoreCheck({
      path: 's.db',
      integrity: [],
      runs: [run('a', ['case x: changed']), run('b', ['case y: changed']), run('c')],
    });
    expect(two).toContain('s.db: 2 of 3 runs differ from what was saved.');
  });
});
