/** Offline commands given the wrong files: one message per cause, not one per line. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';

const DATA = join(import.meta.dirname, '..', '..', '..', 'data');

describe('offline commands given the results of another dataset', () => {
  it('reports results of another dataset once, with a count and the first lines', async () => {
    const r = await runCliInProcess([
      'score',
      '--dataset',
      join(DATA, 'moderation', 'dataset.jsonl'),
      '--results',
      join(DATA, 'inbox', 'results-fieldsharp-1.jsonl'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/is not in the dataset/g)).toHaveLength(1);
    expect(r.stderr).toContain('(the same problem on 36 lines: 1, 2, 3, 4, 5 and 31 more)');
    expect(r.stderr).toContain('invalid input (36 problems)');
  });
});
