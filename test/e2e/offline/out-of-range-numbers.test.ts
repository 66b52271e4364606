/** Offline files with numbers beyond a double (`1e400`): messages show the number, never "got null". */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolder } from '../../support/offline-samples.js';

const { place } = tempFolder('out-of-range');
const write = (name: string, lines: string[]): string => place(name, lines.join('\n') + '\n');

const DATASET = write('dataset.jsonl', [
  '{"id":"yn-1","kind":"yes_no","correct":true}',
  '{"id":"yn-2","kind":"yes_no","correct":false}',
  '{"id":"ch-1","kind":"choice","options":["a","b"],"correct":"a"}',
]);

describe('numbers out of range in offline files', () => {
  it('names an out-of-range probability, cost and list entry as what they are', async () => {
    const results = write('results.jsonl', [
      '{"case_id":"yn-1","model":"m","decision":{"probability":1e400}}',
      '{"case_id":"yn-2","model":"m","decision":{"probability":0.2},"cost_usd":-1e400}',
      '{"case_id":"ch-1","model":"m","decision":{"probabilities":[0.5,1e999]}}',
    ]);
    const r = await runCliInProcess(['score', '--dataset', DATASET, '--results', results]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'results.jsonl:1 case yn-1: probability must be a number in [0, 1], got Infinity (out of range: beyond ±1.8e308)',
    );
    expect(r.stderr).toContain(
      'results.jsonl:2 case yn-2: cost_usd must be a finite number >= 0, got -Infinity (out of range',
    );
    expect(r.stderr).toContain(
      'results.jsonl:3 case ch-1: probabilities[1] (b) must be a number in [0, 1], got Infinity',
    );
    expect(r.stderr).not.toContain('got null');
  });

  it('names an out-of-range dataset bound', async () => {
    const dataset = write('dataset-range.jsonl', [
      '{"id":"sc-1","kind":"score","score_min":0,"score_max":1e999,"correct":7}',
    ]);
    const results = write('results-range.jsonl', ['{"case_id":"sc-1","model":"m","decision":{"value":7}}']);
    const r = await runCliInProcess(['validate', '--dataset', dataset, '--results', results]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      'dataset-range.jsonl:1 case sc-1: score_max must be a finite number, got Infinity (out of range: beyond ±1.8e308)',
    );
  });
});
