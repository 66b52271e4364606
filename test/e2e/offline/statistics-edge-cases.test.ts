/**
 * End to end: the edges of the statistics through the
 * real CLI: an ECE on the noise floor's percentile is within noise, the percentile does not
 * jump with the seed, no zero-width intervals, the per-question ECE warning, models that
 * decided other cases in the leaderboard, and the usage messages.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATA = join(ROOT, 'data', 'moderation');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-stats-fixes-');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

async function json(...args: string[]): Promise<Record<string, unknown>> {
  const r = await cli(...args, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

function jsonl(name: string, rows: readonly object[]): string {
  const path = join(tmp, name);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/** yes/no cases c0…c(n-1); `prompt` per case (default unique). */
function dataset(name: string, correct: readonly boolean[], prompt = (i: number) => `q${i}`): string {
  return jsonl(
    name,
    correct.map((c, i) => ({ id: `c${i}`, kind: 'yes_no', prompt: prompt(i), correct: c })),
  );
}

function results(name: string, model: string, probabilities: readonly (number | null)[]): string {
  return jsonl(
    name,
    probabilities.flatMap((p, i) => (p === null ? [] : [{ case_id: `c${i}`, model, decision: { probability: p } }])),
  );
}

type Floor = { mean: number; p95: number; simulations: number; within_noise: boolean };
type Pair = [number, number] | null;

describe('ECE noise floor', () => {
  it('calls an ECE equal to the 95th percentile within noise (30 decisions, two wrong)', async () => {
    // 18 at 0.99 and 12 at 0.98, the first two wrong: ECE |28 - 29.58| / 30 = 0.0527, which
    // is also the calibrated model's 95th percentile (P(at most one wrong) < 0.95).
    const ds = dataset(
      'eds.jsonl',
      Array.from({ length: 30 }, (_, i) => i >= 2),
    );
    const rs = results(
      'er.jsonl',
      'edge',
      Array.from({ length: 30 }, (_, i) => {
        const confidence = i < 18 ? 0.99 : 0.98;
        return confidence; // "yes" at that probability; the first two cases are "no": wrong
      }),
    );
    for (const seed of ['2', '4', '5', '6']) {
      const doc = await json('score', '--dataset', ds, '--results', rs, '--seed', seed);
      const floor = doc['ece_noise_floor'] as Floor;
      expect(Math.abs(floor.p95 - (doc['ece'] as number))).toBeLessThan(1e-9);
      expect(floor.within_noise).toBe(true);
    }
  });

  it('puts the 95th percentile on the same value for every seed on the bundled loud-1 run', async () => {
    const p95 = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) {
      const doc = await json(
        'score',
        '--dataset',
        join(DATA, 'dataset.jsonl'),
        '--results',
        join(DATA, 'results-loud-1.jsonl'),
        '--seed',
        String(seed),
      );
      const floor = doc['ece_noise_floor'] as Floor;
      expect(floor.simulations).toBe(2000);
      p95.add(floor.p95.toFixed(6));
    }
    expect([...p95]).toEqual(['0.052667']);
  });
});

describe('no zero-width intervals', () => {
  it('gives one case the Wilson interval for accuracy and no interval (with the reason) for the rest', async () => {
    const ds = dataset('one.jsonl', [true]);
    const rs = results('rone.jsonl', 'm', [0.2]);
    const doc = await json('score', '--dataset', ds, '--results', rs);
    const acc = doc['accuracy_ci'] as Pair;
    expect(acc![0]).toBe(0);
    expect(acc![1]).toBeCloseTo(0.7935, 3);
    expect(doc['brier_ci']).toBeNull();
    expect(doc['ece_ci']).toBeNull();
    const reasons = doc['null_reasons'] as Record<string, string>;
    expect(reasons['brier_ci']).toMatch(/no variation across cases/);
    const text = await cli('score', '--dataset', ds, '--results', rs);
    expect(text.stdout).toMatch(/Accuracy\s+0\.000\s+\[0\.000, 0\.793\]/);
    expect(text.stdout).toMatch(/Brier\s+1\.280\s+no interval/);
  });

  it('gives 20 of 20 right an interval below 1 in score and compare alike', async () => {
    const ds = dataset(
      'twenty.jsonl',
      Array.from({ length: 20 }, () => true),
    );
    const rs = results(
      'r20.jsonl',
      'all',
      Array.from({ length: 20 }, () => 0.9),
    );
    const scored = await json('score', '--dataset', ds, '--results', rs);
    const acc = scored['accuracy_ci'] as Pair;
    expect(acc![1]).toBe(1);
    expect(acc![0]).toBeCloseTo(0.8389, 3);
    // A copy: the same file twice is refused.
    const copy = join(tmp, 'r20-copy.jsonl');
    copyFileSync(rs, copy);
    const compared = await json('compare', '--dataset', ds, '--results', rs, copy);
    const board = compared['leaderboard'] as { accuracy_ci: Pair }[];
    expect(board[0]!.accuracy_ci).toEqual(acc);
  });
});

describe('per-question ECE on one decision per question', () => {
  it('warns once on stderr and beside the conventions, and not when questions repeat', async () => {
    const ds = join(DATA, 'dataset.jsonl');
    const a = join(DATA, 'results-careful-1.jsonl');
    const b = join(DATA, 'results-loud-1.jsonl');
    const r = await cli('compare', '--dataset', ds, '--results', a, b, '--ece-average', 'per-question');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/per-question ECE is degenerate here/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/Conventions: [^\n]*averaged per question[^\n]*Note: per-question ECE is degenerate/);
    const doc = await json('score', '--dataset', ds, '--results', a, '--ece-average', 'per-question');
    expect(doc['convention_notes']).toEqual([expect.stringMatching(/every question \(prompt\) holds one decision/)]);
    const pooled = await cli('score', '--dataset', ds, '--results', a);
    expect(pooled.stderr).not.toMatch(/degenerate/);
    // Questions holding several decisions: no warning.
    const shared = dataset('shared.jsonl', [true, false, true, true], (i) => `q${i % 2}`);
    const rs = results('rshared.jsonl', 'm', [0.8, 0.3, 0.7, 0.6]);
    const fine = await cli('score', '--dataset', shared, '--results', rs, '--ece-average', 'per-question');
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).not.toMatch(/degenerate/);
  });
});

describe('compare', () => {
  const correct = Array.from({ length: 40 }, (_, i) => i % 3 !== 0);
  const files = () => {
    const ds = dataset('ds40.jsonl', correct, (i) => `q${i % 7}`);
    const all = results(
      'all.jsonl',
      'all',
      correct.map((c) => (c ? 0.9 : 0.2)),
    );
    const half = results(
      'half.jsonl',
      'half',
      correct.map((c, i) => (i >= 20 ? null : c ? 0.8 : 0.3)),
    );
    return { ds, all, half };
  };

  it('does not call a model that decided other cases tied with the leader, and says why', async () => {
    const { ds, all, half } = files();
    const doc = await json('compare', '--dataset', ds, '--results', all, half);
    const board = doc['leaderboard'] as {
      model: string;
      tied_with_leader: boolean;
      same_cases_as_leader: boolean;
      decided_cases: number;
    }[];
    const h = board.find((r) => r.model === 'half')!;
    expect(h.decided_cases).toBe(20);
    expect(h.same_cases_as_leader).toBe(false);
    expect(h.tied_with_leader).toBe(false);
    const text = await cli('compare', '--dataset', ds, '--results', all, half);
    expect(text.stdout).toMatch(/\| half +\| +1\.000 \| [^|]+\| 20 of 40 \| other cases than the leader/);
    expect(text.stdout).toMatch(/The models decided different cases/);
    // The same cases: tied as before.
    const allCopy = join(tmp, 'all-copy.jsonl');
    copyFileSync(all, allCopy);
    const again = await json('compare', '--dataset', ds, '--results', all, allCopy);
    const rows = again['leaderboard'] as { tied_with_leader: boolean; same_cases_as_leader: boolean }[];
    expect(rows[1]).toMatchObject({ tied_with_leader: true, same_cases_as_leader: true });
  });

  it('points --format to --html FILE, speaks of one bin, and refuses --seed with --no-ci', async () => {
    const { ds, all } = files();
    const format = await cli('compare', '--dataset', ds, '--results', all, '--format', 'html');
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/unknown option --format .*--html FILE/);
    const one = await cli('score', '--dataset', ds, '--results', all, '--ece-bins', '1');
    expect(one.stdout).toMatch(/ECE over 1 equal-width bin,/);
    expect(one.stdout).not.toMatch(/1 equal-width bins/);
    for (const command of ['score', 'compare']) {
      const r = await cli(command, '--dataset', ds, '--results', all, '--no-ci', '--seed', '5');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--seed has no effect with --no-ci/);
      expect(r.stdout).toBe('');
    }
    const plain = await cli('score', '--dataset', ds, '--results', all, '--no-ci');
    expect(plain.code, plain.stderr).toBe(0);
  });
});
