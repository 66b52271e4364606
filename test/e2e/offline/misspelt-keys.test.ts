/**
 * A results line that misspells a key it needs (`prob`, `probs`, `caseid`) is told so in
 * the one problem of that line: the missing key, the unknown key the line has instead and
 * the key it probably meant, once per misspelling.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { MODERATION_DATASET, tempFolder } from '../../support/offline-samples.js';

const { place } = tempFolder('misspelt-keys');

function lines(...records: readonly object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

describe('misspelt keys in a results file', () => {
  it('names the unknown key and the one it probably means, once a line', async () => {
    const results = place(
      'typos.jsonl',
      lines(
        { case_id: 'yn-1', model: 'm', decision: { prob: 0.5 } },
        { case_id: 'yn-2', model: 'm', decision: { probs: 0.5 } },
        { caseid: 'yn-3', model: 'm', decision: { probability: 0.5 } },
        { case_id: 'ch-1', model: 'm', decision: { probability: [0.2, 0.3, 0.5] } },
        { case_id: 'yn-4', model: 'm', decison: { probability: 0.5 } },
      ),
    );
    const r = await runCliInProcess(['score', '--dataset', MODERATION_DATASET, '--results', results]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${results}:1 case yn-1: probability is missing (P(yes) in [0, 1]); the line has the unknown key 'prob': did you mean 'probability'?`,
    );
    expect(r.stderr).toContain(
      `${results}:2 case yn-2: probability is missing (P(yes) in [0, 1]); the line has the unknown key 'probs'`,
    );
    expect(r.stderr).toContain(
      `${results}:3: case_id is missing; the line has the unknown key 'caseid': did you mean 'case_id'?`,
    );
    expect(r.stderr).toContain(`the line has the unknown key 'probability': did you mean 'probabilities'?`);
    expect(r.stderr).toContain(`the line has the unknown key 'decison': did you mean 'decision'?`);
    expect(r.stderr.match(/unknown key 'prob'/g)).toHaveLength(1);
    expect(r.stderr).toContain('invalid input (5 problems)');
  });

  it('adds nothing when the line has no key like the missing one', async () => {
    const results = place('plain.jsonl', lines({ case_id: 'yn-1', model: 'm', decision: { note: 'x' } }));
    const r = await runCliInProcess(['score', '--dataset', MODERATION_DATASET, '--results', results]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${results}:1 case yn-1: probability is missing (P(yes) in [0, 1])\n`);
    expect(r.stderr).not.toContain('did you mean');
  });
});
