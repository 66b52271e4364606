import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPollRecord } from '../../src/monitor/poll-lines.js';
import {
  answered,
  failed,
  noulAnswer,
  threeQuestionCase,
} from '../../src/monitor/test-support/live-fixtures.js';

/** Every key path of a JSON value: `a.b`, and `a[].b` for the objects of a list. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) {
    const objects = value.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
    return objects.length === 0 ? [prefix] : [...new Set(objects.flatMap((v) => keyPaths(v, `${prefix}[]`)))];
  }
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix === '' ? k : `${prefix}.${k}`));
  return [prefix];
}

describe('the live record in docs/file-formats.md', () => {
  it('lists exactly the keys a record line has, answered and failed', () => {
    const text = readFileSync(new URL('../../docs/file-formats.md', import.meta.url), 'utf8');
    const start = text.indexOf('## Live record');
    expect(start).toBeGreaterThan(0);
    const end = text.indexOf('\n## ', start + 1);
    const documented = text
      .slice(start, end)
      .split('\n')
      .map((l) => /^\| `([a-z_.[\]]+)` +\|/.exec(l)?.[1])
      .filter((k): k is string => k !== undefined);
    const lines = [
      renderPollRecord(
        answered(threeQuestionCase('a'), [noulAnswer(true, 0.8), [0.7, 0.2, 0.1], [0.1, 0.6, 0.3]]),
        '2026-01-01T00:00:00.000Z',
      ),
      renderPollRecord(failed(threeQuestionCase('b')), '2026-01-01T00:00:01.000Z'),
    ];
    const actual = new Set(lines.flatMap((l) => keyPaths(JSON.parse(l))));
    expect(new Set(documented)).toEqual(actual);
    expect(documented).toHaveLength(actual.size);
  });
});
