/**
 * End to end: ROC AUC and average precision of the yes/no decisions in `score` and `compare`,
 * through the real CLI on the bundled moderation sample, against a pairwise AUC and a
 * threshold-by-threshold average precision computed here from the files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATA = join(ROOT, 'data', 'moderation');
const DATASET = join(DATA, 'dataset.jsonl');
const results = (model: string) => join(DATA, `results-${model}.jsonl`);

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** (P(yes), correct is yes) of each yes/no case with a result. */
function yesNo(model: string): { p: number; yes: boolean }[] {
  const cases = new Map(lines(DATASET).map((c) => [c['id'] as string, c]));
  return lines(results(model)).flatMap((r) => {
    const c = cases.get(r['case_id'] as string)!;
    if (c['kind'] !== 'yes_no') return [];
    return [{ p: (r['decision'] as { probability: number }).probability, yes: c['correct'] === true }];
  });
}

function pairwiseAuc(d: { p: number; yes: boolean }[]): number {
  let credit = 0;
  let pairs = 0;
  for (const a of d)
    for (const b of d) {
      if (!a.yes || b.yes) continue;
      pairs++;
      credit += a.p > b.p ? 1 : a.p === b.p ? 0.5 : 0;
    }
  return credit / pairs;
}

function averagePrecision(d: { p: number; yes: boolean }[]): number {
  const positives = d.filter((x) => x.yes).length;
  let ap = 0;
  let before = 0;
  for (const t of [...new Set(d.map((x) => x.p))].sort((a, b) => b - a)) {
    const called = d.filter((x) => x.p >= t);
    const tp = called.filter((x) => x.yes).length;
    ap += (tp / positives - before) * (tp / called.length);
    before = tp / positives;
  }
  return ap;
}

async function cli(...args: string[]) {
  const r = await runCliInProcess(args, { cwd: ROOT });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('score: ranking of the yes/no decisions', () => {
  it.each(['loud-1', 'careful-1', 'budget-1'])('gives %s the independent AUC and AP, with intervals', async (model) => {
    const doc = JSON.parse((await cli('score', '--dataset', DATASET, '--results', results(model), '--json')).stdout);
    const d = yesNo(model);
    const r = doc.ranking as Record<string, number & [number, number]>;
    expect(r['positives']).toBe(d.filter((x) => x.yes).length);
    expect(r['negatives']).toBe(d.filter((x) => !x.yes).length);
    expect(r['roc_auc']).toBeCloseTo(pairwiseAuc(d), 12);
    expect(r['average_precision']).toBeCloseTo(averagePrecision(d), 12);
    for (const key of ['roc_auc', 'average_precision']) {
      const [low, high] = r[`${key}_ci`] as [number, number];
      expect(low).toBeLessThanOrEqual(r[key]!);
      expect(high).toBeGreaterThanOrEqual(r[key]!);
    }
  });

  it('shows both in the terminal, and says why they are absent with --no-ci', async () => {
    const text = (await cli('score', '--dataset', DATASET, '--results', results('loud-1'))).stdout;
    expect(text).toMatch(/ROC AUC\s+0\.833\s+\[0\.\d{3}, 1\.000\]/);
    expect(text).toMatch(/Avg prec +0\.792/);
    const off = JSON.parse(
      (await cli('score', '--dataset', DATASET, '--results', results('loud-1'), '--json', '--no-ci')).stdout,
    );
    expect(off.ranking).toBeNull();
    expect(off.null_reasons.ranking).toContain('--no-ci');
  });
});

describe('compare: paired ranking differences', () => {
  it('gives the difference of AUC and AP with an interval and a verdict, in JSON and text', async () => {
    const args = ['compare', '--dataset', DATASET, '--results', results('loud-1'), results('careful-1')];
    const doc = JSON.parse((await cli(...args, '--json')).stdout);
    const c = doc.comparisons[0];
    const auc = pairwiseAuc(yesNo('careful-1')) - pairwiseAuc(yesNo('loud-1'));
    expect(c.roc_auc.difference).toBeCloseTo(auc, 12);
    expect(c.roc_auc.difference_ci[0]).toBeLessThanOrEqual(c.roc_auc.difference);
    expect(c.roc_auc.verdict).toBe('within_noise');
    expect(c.average_precision.difference).toBeCloseTo(
      averagePrecision(yesNo('careful-1')) - averagePrecision(yesNo('loud-1')),
      12,
    );
    const text = (await cli(...args)).stdout;
    expect(text).toMatch(/\| ROC AUC +\| +0\.833 \| +0\.926 \| +\+0\.093 \|/);
    expect(text).toContain('higher ROC AUC and average precision are better');
  });
});

describe('tune: the ranking beside the threshold', () => {
  it('gives the same AUC and AP as score, in JSON and in the header', async () => {
    const args = ['--dataset', DATASET, '--results', results('budget-1')];
    const doc = JSON.parse((await cli('tune', ...args, '--json')).stdout);
    const d = yesNo('budget-1');
    expect(doc.ranking.roc_auc).toBeCloseTo(pairwiseAuc(d), 12);
    expect(doc.ranking.average_precision).toBeCloseTo(averagePrecision(d), 12);
    expect((await cli('tune', ...args)).stdout).toMatch(/ranking +ROC AUC 0\.932 \[/);
  });
});
