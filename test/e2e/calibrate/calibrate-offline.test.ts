/**
 * End-to-end: `calibrate` on the bundled moderation answers through the real CLI, and the
 * map it writes applied by `score --calibration`. The loud-1 answers are over-confident by
 * design (0.99 on every yes/no, 0.98 on every choice, about one in six wrong).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODERATION = join(ROOT, 'data', 'moderation');
const DATASET = join(MODERATION, 'dataset.jsonl');
const LOUD = join(MODERATION, 'results-loud-1.jsonl');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

interface Metric {
  before: number;
  after: number;
  verdict: string | null;
}

describe('calibrate on offline answers', () => {
  it('softens the over-confident loud-1 answers (T > 1) and lowers their held-out ECE', async () => {
    const r = await cli('calibrate', '--dataset', DATASET, '--results', LOUD, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      groups: { key: string; parameters: { temperature: number } }[];
      overall: { held_out: { metrics: Record<string, Metric> } };
      skipped_decisions: number;
    };
    expect(doc.groups.map((g) => g.key)).toEqual(['all']);
    expect(doc.groups[0]!.parameters.temperature).toBeGreaterThan(1);
    const m = doc.overall.held_out.metrics;
    expect(m['ece']!.after).toBeLessThan(m['ece']!.before);
    // A temperature never changes the most likely answer.
    expect(m['accuracy']!.after).toBe(m['accuracy']!.before);
    // The six score cases are not calibrated.
    expect(doc.skipped_decisions).toBe(6);
  });

  it('shows the fit, the held-out table and the reliability before and after', async () => {
    const r = await cli('calibrate', '--dataset', DATASET, '--results', LOUD);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/temperature \d\.\d{3} \(softens: the answers were over-confident\)/);
    expect(r.stdout).toMatch(/ECE +0\.153/);
    expect(r.stdout).toContain('Reliability');
    expect(r.stdout).toContain('ECE noise floor: before beyond noise');
  });

  it('names a group too small to fit and says how many decisions it needs', async () => {
    const r = await cli('calibrate', '--dataset', DATASET, '--results', LOUD, '--by', 'question');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('left unchanged: too few decisions to fit: 1, the method needs at least 10');
  });
});
