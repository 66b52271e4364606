import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../core/errors.js';
import { loadChecks, parseChecks } from './load-checks.js';
import { loadTranscripts } from './load-transcripts.js';
import { tempFolderRemovedAfterAll } from '../test-support/temp-folders.js';

const good = {
  id: 'claim-v3',
  set: 'all',
  applies_to: { scenarios: ['pay'], tags: ['money'] },
  scope: 'final_answer',
  question: { instructions: 'Claimed?', options: { yes: 'it does', no: 'it does not' }, unclear: 'cannot tell' },
};
const problemsOf = (checks: unknown[]): string[] => {
  try {
    parseChecks(JSON.stringify({ checks }), 'checks.json');
  } catch (err) {
    if (err instanceof InvalidInputError) return err.problems.map((p) => p.message);
    throw err;
  }
  return [];
};

describe('parseChecks', () => {
  it('reads a check with its version, options in file order, unclear and scope', () => {
    expect(parseChecks(JSON.stringify({ checks: [good] }), 'checks.json')).toEqual([
      {
        id: 'claim-v3',
        base: 'claim',
        version: 3,
        set: 'all',
        scenarios: ['pay'],
        tags: ['money'],
        instructions: 'Claimed?',
        options: ['yes', 'no'],
        descriptions: ['it does', 'it does not'],
        unclear: 'cannot tell',
        scope: 'final_answer',
      },
    ]);
  });

  it('names the check and the field of every problem, once per cause', () => {
    expect(
      problemsOf([
        { ...good, set: 'some', scope: 'all_of_it' },
        { ...good, id: 'other-v1', applies_to: {} },
        { ...good, id: 'third-v1', question: { instructions: '', options: { only: 'one', unclear: 'x' } } },
        good,
        { ...good, id: 'claim-v4' },
      ]),
    ).toEqual([
      'checks[0] (claim-v3) set: must be one of recommended, all',
      'checks[0] (claim-v3) scope: must be one of messages, final_answer',
      'checks[1] (other-v1) applies_to: names no scenario and no tag: the check would audit nothing',
      'checks[2] (third-v1) question.instructions: must be a non-empty string',
      'checks[2] (third-v1) question.options.unclear: is reserved: give "unclear" as question.unclear',
      'checks[4] (claim-v4) id: claim-v4 and claim-v3 are two versions of one check: keep one',
    ]);
    expect(problemsOf([good, good])).toEqual(['checks[1] (claim-v3) id: "claim-v3" is already the id of checks[0]']);
  });

  it('refuses a file that is not a checks document', () => {
    expect(() => parseChecks('[1,2]', 'c.json')).toThrow(/c\.json: expected a JSON object with a "checks" array/);
    expect(() => parseChecks('{', 'c.json')).toThrow(/c\.json: not valid JSON/);
  });
});

describe('missing files', () => {
  const dir = tempFolderRemovedAfterAll('decidekit-audit-load-');

  it('names the missing checks or transcripts file', async () => {
    await expect(loadChecks(join(dir, 'gone.json'))).rejects.toThrow(
      /cannot read checks file: .*gone\.json \(no such file or folder\)/,
    );
    await expect(loadTranscripts(join(dir, 'gone.jsonl'))).rejects.toThrow(/gone\.jsonl/);
    writeFileSync(join(dir, 'empty.jsonl'), '\n\n');
    await expect(loadTranscripts(join(dir, 'empty.jsonl'))).rejects.toThrow(/no transcripts/);
  });
});
