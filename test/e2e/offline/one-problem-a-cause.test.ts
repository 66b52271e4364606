/**
 * A choice result whose probabilities miss several options (an empty object misses them
 * all) has one cause: it is one problem, on its line, listed once.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { MODERATION_DATASET, tempFolder } from '../../support/offline-samples.js';

const { place } = tempFolder('one-problem-a-cause');

describe('options missing from a choice result', () => {
  it('are one problem of their line, naming every missing option', async () => {
    const results = place(
      'empty.jsonl',
      [
        { case_id: 'ch-1', model: 'm', decision: { probabilities: {} } },
        { case_id: 'ch-2', model: 'm', decision: { probabilities: { allow: 0.5 } } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const r = await runCliInProcess(['score', '--dataset', MODERATION_DATASET, '--results', results]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${results}:1 case ch-1: probabilities has no "allow", "flag", "remove" (every option needs one: allow, flag, remove)\n` +
        `${results}:2 case ch-2: probabilities has no "flag", "remove" (every option needs one: allow, flag, remove)\n` +
        'decidekit score: invalid input (2 problems)\n',
    );
  });
});
