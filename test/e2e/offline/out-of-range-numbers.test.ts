/**
 * Offline files with numbers beyond a double (`1e400`): messages show the number, never "got
 * null"; numbers a double holds but whose sums would overflow (a score range near 1e308, an
 * action cost of 1e308) are refused naming file, line and field, never shown as "n/a".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { DATA, tempFolder } from '../../support/offline-samples.js';

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

  it('refuses a score range whose errors would overflow their sum, in both engines', async () => {
    const dataset = write('dataset-huge.jsonl', [
      '{"id":"sc-1","kind":"score","score_min":-1e308,"score_max":1e308,"correct":1e308}',
      '{"id":"sc-2","kind":"score","score_min":0,"score_max":1e21,"correct":1}',
    ]);
    const results = write('results-huge.jsonl', [
      '{"case_id":"sc-1","model":"m","decision":{"value":-1e308}}',
      '{"case_id":"sc-2","model":"m","decision":{"value":2}}',
    ]);
    for (const engine of ['node', 'duckdb']) {
      const r = await runCliInProcess(['score', '--engine', engine, '--dataset', dataset, '--results', results]);
      expect(r.code, engine).toBe(1);
      expect(r.stdout).not.toContain('n/a');
      // (The DuckDB engine names a dataset line by its case alone.)
      expect(r.stderr, engine).toMatch(
        /dataset-huge\.jsonl(:1)? case sc-1: score_min must be within ±1e15 \(a wider range would overflow the error sums\), got -1e\+308\n/,
      );
      expect(r.stderr, engine).toContain(
        'case sc-1: score_max must be within ±1e15 (a wider range would overflow the error sums), got 1e+308',
      );
      expect(r.stderr, engine).toMatch(/the same problem (on 2 lines: 1, 2|in 2 cases: sc-1, sc-2)/);
    }
  });

  it('refuses an action cost whose sum would overflow, naming the spec and the field', async () => {
    const inbox = join(DATA, 'inbox');
    const spec = JSON.parse(readFileSync(join(inbox, 'spec.json'), 'utf8'));
    const huge = place(
      'spec-huge.json',
      JSON.stringify({ ...spec, costs: { ...spec.costs, 'task->ignore': 1e308 }, default_error: 1e300 }),
    );
    const r = await runCliInProcess([
      'actions',
      '--dataset',
      join(inbox, 'dataset.jsonl'),
      '--spec',
      huge,
      '--results',
      join(inbox, 'results-actionwise-1.jsonl'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('spec-huge.json');
    expect(r.stderr).toContain(
      'cost of "task->ignore" must be at most 1000000000000 (larger costs would overflow the sums), got 1e+308',
    );
    expect(r.stderr).toContain(
      'default_error must be at most 1000000000000 (larger costs would overflow the sums), got 1e+300',
    );
  });
});
