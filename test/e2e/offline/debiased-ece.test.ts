/**
 * End to end: the debiased ECE beside the plug-in one in `score` and `compare`, through the
 * real CLI on the bundled moderation sample.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATA = join(ROOT, 'data', 'moderation');
const DATASET = join(DATA, 'dataset.jsonl');
const results = (model: string) => join(DATA, `results-${model}.jsonl`);

async function cli(...args: string[]) {
  const r = await runCliInProcess(args, { cwd: ROOT });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('the debiased ECE', () => {
  it('sits beside the plug-in ECE in score --json and the terminal, no larger, inside its interval', async () => {
    for (const model of ['loud-1', 'careful-1', 'budget-1']) {
      const doc = JSON.parse((await cli('score', '--dataset', DATASET, '--results', results(model), '--json')).stdout);
      expect(doc.ece_debiased).toBeLessThanOrEqual(doc.ece + 1e-9);
      expect(doc.ece_debiased).toBeGreaterThanOrEqual(0);
      const [low, high] = doc.ece_debiased_ci as [number, number];
      expect(low).toBeLessThanOrEqual(doc.ece_debiased);
      expect(high).toBeGreaterThanOrEqual(doc.ece_debiased);
      // Within the noise floor, the data do not exclude a calibrated model: the interval starts at 0.
      if (doc.ece_noise_floor.within_noise) expect(low).toBe(0);
    }
    const text = (await cli('score', '--dataset', DATASET, '--results', results('budget-1'))).stdout;
    expect(text).toMatch(/ECE debiased\s+0\.\d{3}\s+\[0\.\d{3}, 0\.\d{3}\]/);
  });

  it('is listed per model under compare, and absent with --no-ci, with the reason', async () => {
    const text = (await cli('compare', '--dataset', DATASET, '--results', results('loud-1'), results('budget-1')))
      .stdout;
    expect(text).toMatch(/loud-1: ECE debiased 0\.\d{3} \[/);
    expect(text).toMatch(/budget-1: ECE debiased 0\.\d{3} \[/);
    const off = JSON.parse(
      (await cli('score', '--dataset', DATASET, '--results', results('loud-1'), '--json', '--no-ci')).stdout,
    );
    expect(off.ece_debiased).toBeNull();
    expect(off.null_reasons.ece_debiased).toContain('--no-ci');
  });
});
