/**
 * End to end: intervals, the ECE noise floor, paired comparisons and stated conventions of
 * `score` and `compare`, through the real CLI on the bundled moderation sample.
 * Expected numbers are computed here from the files, independently of the scoring code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { nonSnakeKeys } from '../../../src/reports/test-support/json-keys.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATA = join(ROOT, 'data', 'moderation');
const DATASET = join(DATA, 'dataset.jsonl');
const results = (model: string) => join(DATA, `results-${model}.jsonl`);
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-intervals-');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

async function json(...args: string[]): Promise<Record<string, unknown>> {
  const r = await cli(...args, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Per decided case: right or wrong and the confidence, by the rules of docs/scoring.md, written out here. */
function decisions(model: string): Map<string, { hit: boolean; confidence: number }> {
  const cases = new Map(lines(DATASET).map((c) => [c['id'] as string, c]));
  const out = new Map<string, { hit: boolean; confidence: number }>();
  for (const r of lines(results(model))) {
    const c = cases.get(r['case_id'] as string)!;
    const d = r['decision'] as Record<string, unknown>;
    if (c['kind'] === 'yes_no') {
      const p = d['probability'] as number;
      const yes = p >= 0.5;
      out.set(c['id'] as string, { hit: yes === c['correct'], confidence: yes ? p : 1 - p });
    } else if (c['kind'] === 'choice') {
      const options = c['options'] as string[];
      const raw = d['probabilities'] as number[] | Record<string, number>;
      const probs = Array.isArray(raw) ? raw : options.map((o) => raw[o] ?? 0);
      let best = 0;
      probs.forEach((p, i) => {
        if (p > probs[best]!) best = i;
      });
      const picked = typeof d['picked'] === 'string' ? options.indexOf(d['picked']) : best;
      out.set(c['id'] as string, { hit: options[picked] === c['correct'], confidence: probs[picked]! });
    }
  }
  return out;
}

type Pair = [number, number];

describe('score: intervals, noise floor and conventions', () => {
  it('puts a 95% interval around every headline number in JSON, with the noise floor and the conventions', async () => {
    const doc = await json('score', '--dataset', DATASET, '--results', results('careful-1'));
    for (const metric of ['accuracy', 'brier', 'log_loss', 'ece']) {
      const ci = doc[`${metric}_ci`] as Pair;
      const value = doc[metric] as number;
      expect(ci).toHaveLength(2);
      expect(ci[0]).toBeLessThanOrEqual(value);
      expect(ci[1]).toBeGreaterThanOrEqual(value);
      expect(ci[1]).toBeGreaterThan(ci[0]);
    }
    // 30 one-decision cases at 0.9: a 95% interval about ±0.1 wide, capped at 1.
    const acc = doc['accuracy_ci'] as Pair;
    expect(acc[1] - acc[0]).toBeGreaterThan(0.15);
    expect(acc[1]).toBeLessThanOrEqual(1);
    const floor = doc['ece_noise_floor'] as { mean: number; p95: number; simulations: number; within_noise: boolean };
    expect(floor.p95).toBeGreaterThan(floor.mean);
    expect(floor.within_noise).toBe((doc['ece'] as number) <= floor.p95);
    expect(doc['conventions']).toEqual({
      ece_bins: 10,
      ece_binning: 'equal-width',
      ece_average: 'pooled',
      kl_floor: 1e-12,
      log_loss_floor: 1e-15,
      gold_ties: 'dataset-label',
      prediction_ties: 'first-listed',
      bootstrap_resamples: 2000,
      seed: 1,
    });
    expect(nonSnakeKeys(doc)).toEqual([]);
  });

  it('is identical for the same --seed, moves with another, and --no-ci turns intervals off', async () => {
    const args = ['score', '--dataset', DATASET, '--results', results('loud-1')];
    const a = await json(...args, '--seed', '42');
    expect(await json(...args, '--seed', '42')).toEqual(a);
    const b = await json(...args, '--seed', '43');
    expect(b['accuracy']).toBe(a['accuracy']);
    // Accuracy moves in steps of 1/30 here; log loss is continuous.
    expect(b['log_loss_ci']).not.toEqual(a['log_loss_ci']);
    const off = await json(...args, '--no-ci');
    expect(off['accuracy']).toBe(a['accuracy']);
    expect(off['ece']).toBe(a['ece']);
    for (const k of ['accuracy_ci', 'brier_ci', 'log_loss_ci', 'ece_ci', 'ece_noise_floor']) expect(off[k]).toBeNull();
    expect((off['conventions'] as { bootstrap_resamples: number }).bootstrap_resamples).toBe(0);
  });

  it('averages ECE per question: one decision per prompt here, so it is the mean |hit - confidence|', async () => {
    const ds = decisions('budget-1');
    const want = [...ds.values()].reduce((s, d) => s + Math.abs(Number(d.hit) - d.confidence), 0) / ds.size;
    const doc = await json(
      'score',
      '--dataset',
      DATASET,
      '--results',
      results('budget-1'),
      '--ece-average',
      'per-question',
      '--no-ci',
    );
    expect(doc['ece']).toBeCloseTo(want, 12);
    expect((doc['conventions'] as { ece_average: string }).ece_average).toBe('per-question');
  });

  it('bins with --ece-bins and --ece-binning, and says so', async () => {
    const ds = [...decisions('careful-1').values()];
    const doc = await json(
      'score',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      '--ece-bins',
      '15',
      '--no-ci',
    );
    // Fifteen equal-width bins, computed here.
    const bins = new Map<number, { n: number; hits: number; conf: number }>();
    for (const d of ds) {
      const b = Math.min(Math.floor(d.confidence * 15), 14);
      const x = bins.get(b) ?? { n: 0, hits: 0, conf: 0 };
      bins.set(b, { n: x.n + 1, hits: x.hits + Number(d.hit), conf: x.conf + d.confidence });
    }
    const want = [...bins.values()].reduce((s, x) => s + Math.abs(x.hits - x.conf), 0) / ds.length;
    expect(doc['ece']).toBeCloseTo(want, 12);
    expect((doc['reliability'] as unknown[]).length).toBe(bins.size);
    const mass = await json(
      'score',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      '--ece-bins',
      '3',
      '--ece-binning',
      'equal-mass',
    );
    expect((mass['reliability'] as { n: number }[]).map((b) => b.n)).toEqual([10, 10, 10]);
    const text = (
      await cli('score', '--dataset', DATASET, '--results', results('careful-1'), '--ece-binning', 'equal-mass')
    ).stdout;
    expect(text).toContain('Reliability (yes/no and choice, 10 equal-mass bins on confidence)');
    expect(text).toContain('Conventions: ECE over 10 equal-mass bins, pooled over decisions');
  });

  it('shows intervals, the noise floor and how to read them in the terminal', async () => {
    const r = await cli('score', '--dataset', DATASET, '--results', results('careful-1'));
    const doc = await json('score', '--dataset', DATASET, '--results', results('careful-1'));
    const [lo, hi] = doc['accuracy_ci'] as Pair;
    expect(r.stdout).toMatch(new RegExp(`Accuracy\\s+0\\.900\\s+\\[${lo.toFixed(3)}, ${hi.toFixed(3)}\\]`));
    expect(r.stdout).toMatch(
      /a calibrated model would show \d\.\d{3} \(95th percentile \d\.\d{3}\): (within|beyond) noise/,
    );
    expect(r.stdout).toContain('How to read this: [low, high] is a 95% interval from resampling cases');
    expect(r.stdout).toContain('Conventions: ECE over 10 equal-width bins, pooled over decisions');
  });

  it('rejects bad convention options as usage errors', async () => {
    for (const [opt, value, message] of [
      ['--ece-bins', '0', '--ece-bins'],
      ['--ece-binning', 'quantile', 'is not one of: equal-width, equal-mass'],
      ['--ece-average', 'weird', 'is not one of: pooled, per-question'],
      ['--seed', '-1', '--seed'],
    ] as const) {
      const r = await cli('score', '--dataset', DATASET, '--results', results('careful-1'), opt, value);
      expect(r.code, `${opt} ${value}`).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('compare: paired, with a leaderboard', () => {
  interface Difference {
    baseline: number;
    model: number;
    difference: number;
    difference_ci: Pair;
    verdict: string;
  }
  interface Comparison {
    model: string;
    cases: number;
    accuracy: Difference;
    brier: Difference;
    ece: Difference;
    mcnemar: { only_baseline_correct: number; only_model_correct: number; p_value: number };
  }

  it('pairs each model with the first: differences, verdicts and McNemar counted from the files', async () => {
    const doc = await json(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      results('budget-1'),
    );
    expect(nonSnakeKeys(doc)).toEqual([]);
    const comparisons = doc['comparisons'] as Comparison[];
    expect(comparisons.map((c) => c.model)).toEqual(['loud-1', 'budget-1']);
    const base = decisions('careful-1');
    for (const c of comparisons) {
      const other = decisions(c.model);
      let onlyBase = 0;
      let onlyModel = 0;
      for (const [id, d] of base) {
        const o = other.get(id)!;
        if (d.hit && !o.hit) onlyBase++;
        if (o.hit && !d.hit) onlyModel++;
      }
      expect(c.cases).toBe(30);
      expect(c.mcnemar.only_baseline_correct).toBe(onlyBase);
      expect(c.mcnemar.only_model_correct).toBe(onlyModel);
      expect(c.accuracy.difference).toBeCloseTo((onlyModel - onlyBase) / 30, 12);
      for (const d of [c.accuracy, c.brier, c.ece]) {
        expect(d.difference_ci[0]).toBeLessThanOrEqual(d.difference);
        expect(d.difference_ci[1]).toBeGreaterThanOrEqual(d.difference);
        const excludesZero = d.difference_ci[0] > 0 || d.difference_ci[1] < 0;
        expect(d.verdict === 'within_noise').toBe(!excludesZero);
      }
    }
    const budget = comparisons[1]!;
    // budget-1 is far less accurate and worse calibrated than careful-1 on the same cases.
    expect(budget.accuracy.verdict).toBe('worse');
    expect(budget.brier.verdict).toBe('worse');
    expect(budget.mcnemar.p_value).toBeLessThan(0.05);
    // 12 against 2 discordant decisions: 2 · (1 + 14 + 91) / 2^14.
    expect(budget.mcnemar.p_value).toBeCloseTo((2 * (1 + 14 + 91)) / 16384, 12);
  });

  it('ranks by accuracy and marks as tied the models whose interval overlaps the leader’s', async () => {
    const doc = await json(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('budget-1'),
      results('loud-1'),
      results('careful-1'),
    );
    const board = doc['leaderboard'] as { rank: number; model: string; accuracy_ci: Pair; tied_with_leader: boolean }[];
    expect(board.map((r) => r.model)).toEqual(['careful-1', 'loud-1', 'budget-1']);
    expect(board.map((r) => r.rank)).toEqual([1, 2, 3]);
    const leader = board[0]!.accuracy_ci;
    for (const r of board.slice(1))
      expect(r.tied_with_leader).toBe(r.accuracy_ci[0] <= leader[1] && leader[0] <= r.accuracy_ci[1]);
    expect(board[0]!.tied_with_leader).toBe(false);
    // The models keep the order given.
    expect((doc['models'] as { model: string }[]).map((m) => m.model)).toEqual(['budget-1', 'loud-1', 'careful-1']);
    expect((doc['baseline'] as { model: string }).model).toBe('budget-1');
  });

  it('prints the leaderboard, the paired tables, the noise floors and the conventions under the table', async () => {
    const r = await cli('compare', '--dataset', DATASET, '--results', results('careful-1'), results('budget-1'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Leaderboard by accuracy');
    expect(r.stdout).toContain('budget-1 against careful-1 (paired on 30 cases both decided');
    expect(r.stdout).toMatch(
      /\| Accuracy \|\s+0\.900 \|\s+0\.567 \|\s+-0\.333 \| \[-\d\.\d{3}, -\d\.\d{3}\] \| worse\s+\|/,
    );
    expect(r.stdout).toMatch(
      /McNemar \(accuracy\): 12 right only for careful-1, 2 only for budget-1; exact p = 0\.013/,
    );
    expect(r.stdout).toMatch(/careful-1: ECE 0\.065, a calibrated model would show/);
    expect(r.stdout).toContain('Conventions: ECE over 10 equal-width bins');
  });

  it('writes the leaderboard, paired tables and noise floors into the HTML report', async () => {
    const file = join(tmp, 'compare.html');
    const r = await cli(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      '--html',
      file,
    );
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('id="leaderboard-table"');
    expect(html).toContain('id="paired-loud-1"');
    expect(html).toContain('id="noise-table"');
    expect(html).toMatch(/McNemar \(accuracy\): \d+ right only for careful-1/);
    expect(html).toContain('Conventions: ECE over 10 equal-width bins');
  });

  it('with --no-ci keeps the plain table and states that there are no intervals', async () => {
    const r = await cli(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      '--no-ci',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('[');
    expect(r.stdout).not.toContain('Leaderboard');
    expect(r.stdout).toContain('no intervals');
    const doc = await json(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      '--no-ci',
    );
    expect(doc['comparisons']).toEqual([]);
  });
});
