/**
 * End to end: the real CLI (`runCli` in process, on the current source) on the bundled
 * moderation sample and on broken files. Expected numbers come from the library, not from
 * earlier output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeModerationSample } from '../../../scripts/make-moderation-sample.js';
import { loadOfflineDataset } from '../../../src/datasets/offline/dataset.js';
import { loadResults, scoreResults } from '../../../src/datasets/offline/results.js';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const DATA = join(ROOT, 'data', 'moderation');
const DATASET = join(DATA, 'dataset.jsonl');
const results = (model: string) => join(DATA, `results-${model}.jsonl`);
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-offline-');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

interface JsonRow {
  model: string;
  accuracy: number;
  brier: number;
  log_loss: number;
  ece: number;
  cost_per_correct_usd: number;
  counts: { n_missing: number };
}

describe('decidekit score', () => {
  it('prints headline metrics, counts and the reliability table', async () => {
    const r = await cli('score', '--dataset', DATASET, '--results', results('careful-1'));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const label of [
      'decidekit score: careful-1',
      'Accuracy',
      'Brier',
      'Log loss',
      'ECE',
      'Score MAE',
      '$ / correct',
      'Latency (ms)',
      'Cases  36',
      'Reliability',
    ]) {
      expect(r.stdout).toContain(label);
    }
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('prints the library summary, unrounded, with --json', async () => {
    const r = await cli('score', '--dataset', DATASET, '--results', results('loud-1'), '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as JsonRow & { reliability: unknown[] };
    const expected = (await scoreResults(results('loud-1'), await loadOfflineDataset(DATASET))).summary;
    expect(doc.model).toBe('loud-1');
    expect(doc.accuracy).toBe(expected.accuracy);
    expect(doc.brier).toBe(expected.brier);
    expect(doc.log_loss).toBe(expected.logLoss);
    expect(doc.ece).toBe(expected.ece);
    expect(doc.cost_per_correct_usd).toBe(expected.costPerCorrectUsd);
    expect(doc.reliability).toHaveLength(expected.reliability.length);
  });

  it('applies --threshold to yes/no predictions', async () => {
    const at = async (t: string) =>
      (
        JSON.parse(
          (await cli('score', '--dataset', DATASET, '--results', results('budget-1'), '--json', '--threshold', t))
            .stdout,
        ) as JsonRow
      ).accuracy;
    expect(await at('0.42')).toBeGreaterThan(await at('0.5'));
  });

  it('exits 2 on usage errors', async () => {
    const missing = await cli('score', '--results', results('careful-1'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--dataset is required');
    const two = await cli('score', '--dataset', DATASET, '--results', results('careful-1'), results('loud-1'));
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("use 'decidekit compare' for several");
    expect((await cli('score', '--dataset', DATASET, '--results', results('careful-1'), '--threshold', '2')).code).toBe(
      2,
    );
  });

  it('exits 1 on an invalid results file, listing each problem with its line', async () => {
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(
      bad,
      [
        '{"case_id": "yn-1", "model": "x", "decision": {"probability": 0.9}}',
        '{"case_id": "ch-1", "model": "x", "decision": {"probabilities": {"allow": 0.3, "flag": 0.15, "remove": 0.85}}}',
        '{"case_id": "zz-1", "model": "x", "decision": {"probability": 0.9}}',
      ].join('\n'),
    );
    const r = await cli('score', '--dataset', DATASET, '--results', bad);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${bad}:2 case ch-1: probabilities sum to 1.30, expected 1`);
    expect(r.stderr).toContain(`${bad}:3 case zz-1: case_id "zz-1" is not in the dataset`);
    expect(r.stderr).toContain('invalid input (2 problems)');
    expectNoStackTrace(r.stderr);
  });

  it('exits 1 naming a file that does not exist', async () => {
    const r = await cli('score', '--dataset', join(tmp, 'nope.jsonl'), '--results', results('careful-1'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nope.jsonl (no such file or folder)');
    expectNoStackTrace(r.stderr);
  });
});

describe('decidekit compare', () => {
  it('prints one Markdown table, rows in the order given, and the demo story holds', async () => {
    const r = await cli(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      results('budget-1'),
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(
      lines[0]!
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean),
    ).toEqual(['Model', 'Accuracy', 'Brier', 'Log loss', 'ECE', 'Score MAE', '$ / correct', 'Latency (ms)']);
    expect(lines[1]).toMatch(/^\|[ \-:|]+\|$/);
    expect(lines.slice(2, 5).map((l) => l.split('|')[1]!.trim())).toEqual(['careful-1', 'loud-1', 'budget-1']);

    const json = JSON.parse(
      (
        await cli(
          'compare',
          '--dataset',
          DATASET,
          '--results',
          results('careful-1'),
          '--results',
          results('loud-1'),
          '--results',
          results('budget-1'),
          '--json',
        )
      ).stdout,
    ) as {
      models: JsonRow[];
    };
    const [careful, loud, budget] = json.models as [JsonRow, JsonRow, JsonRow];
    // careful-1: most accurate and best calibrated; loud-1: confident when wrong; budget-1: cheapest per correct decision.
    expect(careful.accuracy).toBeGreaterThan(loud.accuracy);
    expect(loud.accuracy).toBeGreaterThan(budget.accuracy);
    expect(loud.brier).toBeGreaterThan(careful.brier);
    expect(loud.log_loss).toBeGreaterThan(careful.log_loss);
    expect(loud.ece).toBeGreaterThan(careful.ece);
    expect(budget.cost_per_correct_usd).toBeLessThan(loud.cost_per_correct_usd);
    expect(loud.cost_per_correct_usd).toBeLessThan(careful.cost_per_correct_usd);
    for (const m of json.models) expect(m.counts.n_missing).toBe(0);
  });

  it('reorders rows with --sort and rejects an unknown metric', async () => {
    const r = await cli(
      'compare',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      results('budget-1'),
      '--sort',
      'cost_per_correct',
      '--json',
    );
    expect((JSON.parse(r.stdout) as { models: JsonRow[] }).models.map((m) => m.model)).toEqual([
      'budget-1',
      'loud-1',
      'careful-1',
    ]);
    const bad = await cli('compare', '--dataset', DATASET, '--results', results('careful-1'), '--sort', 'vibes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort "vibes" is not a metric');
  });

  it('refuses the same results file twice, naming it, however it is spelled', async () => {
    const twice = await cli('compare', '--dataset', DATASET, '--results', results('loud-1'), results('loud-1'));
    expect(twice.code).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toContain(`--results ${results('loud-1')} is given twice: list each results file once`);
    const spelled = `${DATA}/../moderation/results-loud-1.jsonl`;
    const again = await cli('compare', '--dataset', DATASET, '--results', results('loud-1'), spelled);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--results ${results('loud-1')} and ${spelled} are the same file`);
  });

  it('names the file beside the model when two files carry the same model name, in every table and in JSON', async () => {
    const rerun = join(tmp, 'rerun.jsonl');
    writeFileSync(rerun, readFileSync(results('loud-1')));
    const r = await cli('compare', '--dataset', DATASET, '--results', results('loud-1'), rerun, results('careful-1'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `decidekit compare: note: ${results('loud-1')} and ${rerun} both carry model "loud-1": each row names its file beside the model`,
    );
    const modelCells = r.stdout
      .split('\n')
      .filter((line) => /^\| (loud|careful)/.test(line))
      .map((line) => line.split('|')[1]!.trim());
    expect(new Set(modelCells)).toEqual(
      new Set(['loud-1 (results-loud-1.jsonl)', 'loud-1 (rerun.jsonl)', 'careful-1']),
    );
    expect(r.stdout).toContain('loud-1 (rerun.jsonl) against loud-1 (results-loud-1.jsonl)');
    // Paired rows: the difference and both ends of its interval are signed.
    const paired = r.stdout.split('\n').filter((line) => /^\| (Accuracy|Brier|Log loss|ECE) +\|/.test(line));
    expect(paired.length).toBeGreaterThanOrEqual(8);
    for (const line of paired) expect(line).toMatch(/\| +[+-]\d\.\d{3} \| +\[[+-]\d\.\d{3}, [+-]\d\.\d{3}\] \|/);
    const json = JSON.parse(
      (await cli('compare', '--dataset', DATASET, '--results', results('loud-1'), rerun, '--json')).stdout,
    ) as {
      models: { model: string }[];
      leaderboard: { model: string }[];
    };
    expect(json.models.map((m) => m.model)).toEqual(['loud-1 (results-loud-1.jsonl)', 'loud-1 (rerun.jsonl)']);
    expect(json.leaderboard.map((m) => m.model).sort()).toEqual([
      'loud-1 (rerun.jsonl)',
      'loud-1 (results-loud-1.jsonl)',
    ]);
  });

  it('gathers the problems of every invalid file before failing', async () => {
    const a = join(tmp, 'a.jsonl');
    const b = join(tmp, 'b.jsonl');
    writeFileSync(a, '{"case_id": "yn-1", "model": "a", "decision": {"probability": 2}}\n');
    writeFileSync(b, '{"case_id": "sc-1", "model": "b", "decision": {"value": 99}}\n');
    const r = await cli('compare', '--dataset', DATASET, '--results', a, b);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${a}:1 case yn-1: probability must be a number in [0, 1], got 2`);
    expect(r.stderr).toContain(`${b}:1 case sc-1: value 99 is outside [0, 10]`);
    expectNoStackTrace(r.stderr);
  });
});

describe('decidekit validate', () => {
  it('passes the bundled files', async () => {
    const r = await cli(
      'validate',
      '--dataset',
      DATASET,
      '--results',
      results('careful-1'),
      results('loud-1'),
      results('budget-1'),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('36 cases (18 yes/no, 12 choice, 6 score)');
    expect(r.stdout).toContain('all files valid');
  });

  it('lists every problem with its line and exits 1', async () => {
    const dataset = join(tmp, 'dataset.jsonl');
    writeFileSync(
      dataset,
      [
        '{"id": "a", "kind": "yes_no", "correct": "yes"}',
        '{"id": "b", "kind": "choice", "options": ["x"], "correct": "x"}',
        '{"id": "c", "kind": "yes_no", "correct": true}',
      ].join('\n'),
    );
    const r = await cli('validate', '--dataset', dataset, '--json');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      ok: boolean;
      files: { ok: boolean; problems: { line: number; case_id: string; field: string; message: string }[] }[];
    };
    expect(doc.ok).toBe(false);
    expect(doc.files[0]!.problems.map((p) => [p.line, p.case_id, p.field])).toEqual([
      [1, 'a', 'correct'],
      [2, 'b', 'options'],
    ]);
    const text = await cli('validate', '--dataset', dataset, '--results', results('careful-1'));
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${dataset}:1 case a: correct must be true or false, got "yes"`);
    expect(text.stdout).toContain('not checked: the dataset is invalid');
    expectNoStackTrace(text.stdout + text.stderr);
  });

  it('reports an unreadable results file as a problem, not a crash', async () => {
    const r = await cli('validate', '--dataset', DATASET, '--results', join(tmp, 'gone.jsonl'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('gone.jsonl (no such file or folder)');
  });
});

describe('moderation sample', () => {
  it('regenerates byte-identical files', async () => {
    const out = join(tmp, 'sample');
    const written = writeModerationSample(out);
    expect(written.length).toBe(4);
    for (const path of written) {
      const name = path.slice(out.length + 1);
      expect(readFileSync(path, 'utf8'), name).toBe(readFileSync(join(DATA, name), 'utf8'));
    }
  });

  it('has at least 30 cases of every kind, and budget-1 scores real violations just under 0.5', async () => {
    const dataset = await loadOfflineDataset(DATASET);
    expect(dataset.cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(dataset.cases.map((c) => c.kind))).toEqual(new Set(['yes_no', 'choice', 'score']));
    const { results: budget } = await loadResults(results('budget-1'), dataset);
    const positives = budget.filter((r) => {
      const c = dataset.byId.get(r.caseId)!;
      return c.kind === 'yes_no' && c.correct;
    });
    expect(positives.length).toBeGreaterThan(3);
    for (const r of positives) {
      const p = r.decision.kind === 'yes_no' ? r.decision.probability : NaN;
      expect(p >= 0.42 && p < 0.5).toBe(true);
    }
  });
});

describe('large results files (pre-parsed on a worker thread)', () => {
  it('scores a large file and its copy, once per listing, with equal rows', async () => {
    const n = 150_000;
    const dataset: string[] = [];
    const answers: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `c-${String(i).padStart(6, '0')}`;
      dataset.push(JSON.stringify({ id, kind: 'yes_no', correct: i % 3 === 0 }));
      answers.push(
        JSON.stringify({ case_id: id, model: 'big-1', decision: { probability: ((i * 7919) % 1000) / 1000 } }),
      );
    }
    const ds = join(tmp, 'big-dataset.jsonl');
    const rs = join(tmp, 'big-results.jsonl');
    writeFileSync(ds, `${dataset.join('\n')}\n`);
    writeFileSync(rs, `${answers.join('\n')}\n`);
    expect(readFileSync(rs).byteLength).toBeGreaterThan(8 * 1024 * 1024);
    const copy = join(tmp, 'big-results-copy.jsonl');
    writeFileSync(copy, readFileSync(rs));
    const r = await cli('compare', '--dataset', ds, '--results', rs, copy, '--json');
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { models: JsonRow[] }).models;
    expect(rows).toHaveLength(2);
    const unnamed = (row: JsonRow) => ({ ...row, model: null, results: null });
    expect(unnamed(rows[1]!)).toEqual(unnamed(rows[0]!));
    expect(rows[0]!.counts.n_missing).toBe(0);
  });
});
