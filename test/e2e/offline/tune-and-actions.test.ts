/**
 * End-to-end: the real CLI (`runCli` in process, on the current source) on the bundled
 * samples. Expected numbers are derived here from the sample files or from how the samples
 * were designed, not copied from the implementation's output.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const INBOX = join(ROOT, 'data', 'inbox');
const run = promisify(execFile);
const MODERATION = join(ROOT, 'data', 'moderation');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

async function jsonl(path: string): Promise<Record<string, unknown>[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const tmp = tempFolderRemovedAfterAll('decidekit-e2e-tune-actions-');

const INBOX_ARGS = ['--dataset', join(INBOX, 'dataset.jsonl'), '--spec', join(INBOX, 'spec.json')];
const BOTH = ['--results', join(INBOX, 'results-fieldsharp-1.jsonl'), join(INBOX, 'results-actionwise-1.jsonl')];
const BUDGET = [
  '--dataset',
  join(MODERATION, 'dataset.jsonl'),
  '--results',
  join(MODERATION, 'results-budget-1.jsonl'),
];

describe('inbox sample', () => {
  it('regenerates byte for byte', async () => {
    const out = join(tmp, 'inbox');
    await run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'make-inbox-sample.ts'), out], {
      cwd: ROOT,
    });
    const names = (await readdir(out)).sort();
    expect(names).toEqual((await readdir(INBOX)).sort());
    for (const name of names)
      expect(await readFile(join(out, name), 'utf8'), name).toBe(await readFile(join(INBOX, name), 'utf8'));
  });

  it('has at least 12 emails of three yes/no fields each', async () => {
    const cases = await jsonl(join(INBOX, 'dataset.jsonl'));
    const groups = new Set(cases.map((c) => c['group']));
    expect(groups.size).toBeGreaterThanOrEqual(12);
    expect(cases).toHaveLength(groups.size * 3);
    expect(new Set(cases.map((c) => String(c['id']).split(':')[1]))).toEqual(
      new Set(['is_noise', 'needs_reply', 'urgent']),
    );
  });
});

describe('decidekit actions', () => {
  it('ranks fieldsharp-1 first by field accuracy and last by action cost', async () => {
    const r = await cli('actions', ...INBOX_ARGS, ...BOTH);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Ranked by field accuracy: fieldsharp-1 > actionwise-1/);
    expect(r.stdout).toMatch(/Ranked by action cost: +actionwise-1 > fieldsharp-1/);
    expect(r.stdout).toMatch(/fieldsharp-1 +task -> ignore x1 \(cost 10 each, 10 total\)/);
    for (const col of [
      'field acc',
      'field rank',
      'action acc',
      'cost/item',
      'action rank',
      'false-inaction',
      'items',
      'incomplete',
    ])
      expect(r.stdout).toContain(col);
  });

  it('reports field accuracy as the share of fields right at 0.5, recomputed from the files', async () => {
    const gold = new Map((await jsonl(join(INBOX, 'dataset.jsonl'))).map((c) => [c['id'], c['correct']]));
    const r = await cli('actions', ...INBOX_ARGS, ...BOTH, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    for (const [i, file] of ['results-fieldsharp-1.jsonl', 'results-actionwise-1.jsonl'].entries()) {
      const results = await jsonl(join(INBOX, file));
      const right = results.filter(
        (x) => (x['decision'] as { probability: number }).probability >= 0.5 === gold.get(x['case_id']),
      ).length;
      expect(doc.models[i].field_accuracy).toBeCloseTo(right / results.length, 12);
    }
  });

  it('prices fieldsharp-1 one task->ignore at the spec cost (10), orientation gold->pred', async () => {
    const doc = JSON.parse((await cli('actions', ...INBOX_ARGS, ...BOTH, '--json')).stdout);
    const [sharp, wise] = doc.models;
    expect(sharp.model).toBe('fieldsharp-1');
    expect(sharp.confusions).toEqual([{ gold: 'task', pred: 'ignore', count: 1, unit_cost: 10, total_cost: 10 }]);
    expect(sharp.mean_cost_per_item).toBeCloseTo(10 / sharp.items, 12);
    expect(sharp.false_inaction_rate).toBeGreaterThan(0);
    expect(wise.false_inaction_rate).toBe(0);
    expect(sharp.field_accuracy).toBeGreaterThan(wise.field_accuracy);
    expect(sharp.mean_cost_per_item).toBeGreaterThan(wise.mean_cost_per_item);
    expect([sharp.field_rank, sharp.action_rank, wise.field_rank, wise.action_rank]).toEqual([1, 2, 2, 1]);
    expect(doc.ranking).toEqual({
      by_field_accuracy: [['fieldsharp-1'], ['actionwise-1']],
      by_action_cost: [['actionwise-1'], ['fieldsharp-1']],
    });
  });

  it('prints --json with stable keys', async () => {
    const doc = JSON.parse((await cli('actions', ...INBOX_ARGS, ...BOTH, '--json')).stdout);
    expect(Object.keys(doc)).toEqual([
      'dataset',
      'spec',
      'actions',
      'inaction',
      'fields',
      'groups',
      'thresholds',
      'models',
      'ranking',
    ]);
    expect(Object.keys(doc.models[0])).toEqual([
      'model',
      'results',
      'field_accuracy',
      'field_rank',
      'action_accuracy',
      'mean_cost_per_item',
      'total_cost',
      'action_rank',
      'false_inaction_rate',
      'actionable_items',
      'items',
      'incomplete_items',
      'unanswered_items',
      'field_decisions',
      'confusions',
    ]);
  });

  it('applies a per-field threshold and rejects one on an unknown field', async () => {
    // fieldsharp-1 gives the noise field of its one miss 0.62: at 0.7 it is no longer noise.
    const doc = JSON.parse(
      (await cli('actions', ...INBOX_ARGS, ...BOTH, '--threshold', 'is_noise=0.7', '--json')).stdout,
    );
    expect(doc.thresholds).toEqual({ is_noise: 0.7 });
    expect(
      doc.models[0].confusions.some((c: { gold: string; pred: string }) => c.gold === 'task' && c.pred === 'ignore'),
    ).toBe(false);
    const bad = await cli('actions', ...INBOX_ARGS, ...BOTH, '--threshold', 'urgnt=0.3');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /'urgnt' is not a yes_no field of the dataset \(yes_no fields: is_noise, needs_reply, urgent\)/,
    );
  });

  it('counts a partly answered group as incomplete', async () => {
    const partial = join(tmp, 'partial.jsonl');
    const lines = (await readFile(join(INBOX, 'results-actionwise-1.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l !== '' && !l.includes('"mail-5:urgent"'));
    await writeFile(partial, `${lines.join('\n')}\n`);
    const doc = JSON.parse((await cli('actions', ...INBOX_ARGS, '--results', partial, '--json')).stdout);
    expect(doc.models[0].incomplete_items).toBe(1);
    expect(doc.models[0].items).toBe(doc.groups - 1);
  });

  let specs = 0;
  async function withSpec(spec: unknown): Promise<CliResult> {
    const path = join(tmp, `spec-${++specs}.json`);
    await writeFile(path, typeof spec === 'string' ? spec : JSON.stringify(spec));
    return cli(
      'actions',
      '--dataset',
      join(INBOX, 'dataset.jsonl'),
      '--spec',
      path,
      '--results',
      join(INBOX, 'results-actionwise-1.jsonl'),
    );
  }
  const base = JSON.parse(
    `{"actions":["task","draft","ignore"],"inaction":"ignore","rules":[{"when":{"is_noise":true},"action":"ignore"},{"when":{"needs_reply":true,"urgent":true},"action":"task"},{"when":{"needs_reply":true},"action":"draft"},{"action":"ignore"}],"costs":{"task->ignore":10}}`,
  );

  it('rejects a spec without a default rule, naming the file and rule', async () => {
    const r = await withSpec({ ...base, rules: base.rules.slice(0, 3) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/spec-.*\.json: rule 3 \(draft\): the last rule must be a default without "when"/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a condition on an unknown field, naming rule and field', async () => {
    const r = await withSpec({ ...base, rules: [{ when: { urgnt: true }, action: 'task' }, { action: 'ignore' }] });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /rule 1 \(task\): condition on unknown field 'urgnt' \(fields: is_noise, needs_reply, urgent\)/,
    );
  });

  it('rejects a condition of the wrong type', async () => {
    const r = await withSpec({ ...base, rules: [{ when: { urgent: 'high' }, action: 'task' }, { action: 'ignore' }] });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /rule 1 \(task\): field 'urgent' is yes_no, but the condition is for a choice field \(use true or false\)/,
    );
  });

  it('names each unknown action of a cost key, not one of them as "the same problem on 2 lines"', async () => {
    const r = await withSpec({ ...base, costs: { 'x->y': 2 } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('costs key "x->y" names unknown action "x"');
    expect(r.stderr).toContain('costs key "x->y" names unknown action "y"');
    expect(r.stderr).not.toContain('lines');
  });

  it('rejects a spec that is not JSON', async () => {
    const r = await withSpec('{"actions": [');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/spec-.*\.json: not valid JSON/);
  });

  it('fails naming a group that lacks a field', async () => {
    const path = join(tmp, 'lacking.jsonl');
    const lines = (await readFile(join(INBOX, 'dataset.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l !== '' && !l.includes('"mail-7:urgent"'));
    await writeFile(path, `${lines.join('\n')}\n`);
    const r = await cli(
      'actions',
      '--dataset',
      path,
      '--spec',
      join(INBOX, 'spec.json'),
      '--results',
      join(tmp, 'none.jsonl'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/lacking\.jsonl: group mail-7 is missing field 'urgent'/);
  });

  it('exits 2 without --spec', async () => {
    const r = await cli('actions', '--dataset', join(INBOX, 'dataset.jsonl'), ...BOTH);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--spec is required/);
  });
});

describe('decidekit tune', () => {
  it('finds a threshold below 0.5 for budget-1, whose real violations score just under it', async () => {
    const r = await cli('tune', ...BUDGET);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ +default +0\.500 /m);
    expect(r.stdout).toMatch(/^ +tuned +0\.4\d\d /m);
    expect(r.stdout).toMatch(/^ +cross-validated +per fold /m);
    for (const col of ['threshold', 'precision', 'recall', 'F1', 'accuracy', '$/100', '$/correct'])
      expect(r.stdout).toContain(col);
  });

  it('reports recall 1 at the tuned threshold, checked against the file', async () => {
    const doc = JSON.parse((await cli('tune', ...BUDGET, '--json')).stdout);
    const cases = new Map((await jsonl(join(MODERATION, 'dataset.jsonl'))).map((c) => [c['id'], c]));
    const yesScores = (await jsonl(join(MODERATION, 'results-budget-1.jsonl')))
      .filter(
        (x) =>
          (cases.get(x['case_id']) as { kind: string; correct: unknown }).kind === 'yes_no' &&
          (cases.get(x['case_id']) as { correct: unknown }).correct === true,
      )
      .map((x) => (x['decision'] as { probability: number }).probability);
    expect(Math.max(...yesScores)).toBeLessThan(0.5);
    expect(doc.default.recall).toBe(0);
    expect(doc.tuned.threshold).toBeLessThanOrEqual(Math.min(...yesScores));
    expect(doc.tuned.recall).toBe(1);
    expect(doc.tuned.f1).toBeGreaterThan(doc.default.f1);
    expect(doc.default.cost_per_100_usd).toBe(doc.tuned.cost_per_100_usd);
  });

  it('prints --json with stable keys', async () => {
    const doc = JSON.parse((await cli('tune', ...BUDGET, '--json')).stdout);
    expect(Object.keys(doc)).toEqual([
      'model',
      'dataset',
      'results',
      'objective',
      'costs',
      'floors',
      'floors_met',
      'counts',
      'total_cost_usd',
      'ranking',
      'default',
      'tuned',
      'cross_validated',
      'cross_validation_skipped',
    ]);
    expect(Object.keys(doc.tuned)).toEqual([
      'threshold',
      'n',
      'precision',
      'recall',
      'f1',
      'accuracy',
      'error_cost_per_call',
      'meets_floors',
      'confusion',
      'cost_per_100_usd',
      'cost_per_correct_usd',
    ]);
    expect(doc.cross_validated.fold_thresholds).toHaveLength(doc.cross_validated.k);
    expect(doc.cross_validated.k).toBe(5);
  });

  it('flags floors no threshold meets and still shows the best-F1 threshold', async () => {
    const free = JSON.parse((await cli('tune', ...BUDGET, '--json')).stdout);
    const r = await cli('tune', ...BUDGET, '--min-precision', '0.95', '--min-recall', '0.95');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ +tuned \* +/m);
    expect(r.stdout).toMatch(/no threshold meets precision >= 0\.95 and recall >= 0\.95/);
    const doc = JSON.parse(
      (await cli('tune', ...BUDGET, '--min-precision', '0.95', '--min-recall', '0.95', '--json')).stdout,
    );
    expect(doc.floors_met).toBe(false);
    expect(doc.tuned.threshold).toBe(free.tuned.threshold);
  });

  it('gives the same folds for the same seed', async () => {
    const a = JSON.parse((await cli('tune', ...BUDGET, '--seed', '7', '--json')).stdout);
    const b = JSON.parse((await cli('tune', ...BUDGET, '--seed', '7', '--json')).stdout);
    expect(b.cross_validated).toEqual(a.cross_validated);
    expect(a.cross_validated.seed).toBe(7);
  });

  it('selects by expected cost with --cost-fp/--cost-fn and shows the cost at each row', async () => {
    const r = await cli('tune', ...BUDGET, '--cost-fp', '1', '--cost-fn', '5');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('err cost/call');
    const doc = JSON.parse((await cli('tune', ...BUDGET, '--cost-fp', '1', '--cost-fn', '5', '--json')).stdout);
    expect(doc.objective).toBe('cost');
    const c = doc.default.confusion;
    expect(doc.default.error_cost_per_call).toBeCloseTo((c.fp * 1 + c.fn * 5) / doc.default.n, 12);
    expect(doc.tuned.error_cost_per_call).toBeLessThanOrEqual(doc.default.error_cost_per_call);
    expect(doc.cross_validated.error_cost_per_call.mean).toBeGreaterThanOrEqual(0);
  });

  it('explains a missing cross-validated row when a class has one case', async () => {
    const dataset = join(tmp, 'one-yes.jsonl');
    const results = join(tmp, 'one-yes-results.jsonl');
    await writeFile(
      dataset,
      [
        '{"id":"a","kind":"yes_no","correct":true}',
        '{"id":"b","kind":"yes_no","correct":false}',
        '{"id":"c","kind":"yes_no","correct":false}',
      ].join('\n'),
    );
    await writeFile(
      results,
      [
        '{"case_id":"a","model":"m","decision":{"probability":0.4}}',
        '{"case_id":"b","model":"m","decision":{"probability":0.2}}',
        '{"case_id":"c","model":"m","decision":{"probability":0.1}}',
      ].join('\n'),
    );
    const r = await cli('tune', '--dataset', dataset, '--results', results);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/cross-validation: n\/a \(needs at least 2 cases of each class \(found 1 yes, 2 no\)\)/);
  });

  it('fails clearly when the yes_no cases have one class', async () => {
    const dataset = join(tmp, 'all-yes.jsonl');
    const results = join(tmp, 'all-yes-results.jsonl');
    await writeFile(
      dataset,
      ['{"id":"a","kind":"yes_no","correct":true}', '{"id":"b","kind":"yes_no","correct":true}'].join('\n'),
    );
    await writeFile(
      results,
      [
        '{"case_id":"a","model":"m","decision":{"probability":0.4}}',
        '{"case_id":"b","model":"m","decision":{"probability":0.9}}',
      ].join('\n'),
    );
    const r = await cli('tune', '--dataset', dataset, '--results', results);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /all-yes-results\.jsonl: cannot tune a threshold: .* 2 yes and 0 no \(both classes are needed\)/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on usage errors', async () => {
    for (const args of [
      ['--cost-fp', '1'],
      ['--folds', '1'],
      ['--min-precision', '1.5'],
      ['--seed', '-1'],
    ]) {
      const r = await cli('tune', ...BUDGET, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/decidekit tune: /);
    }
    expect((await cli('tune', '--dataset', join(MODERATION, 'dataset.jsonl'))).code).toBe(2);
  });

  it('shows an example in --help', async () => {
    const r = await cli('tune', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Example:\n  decidekit tune --dataset/);
    expect((await cli('actions', '--help')).stdout).toMatch(/Example:\n  decidekit actions --dataset/);
  });
});

describe('decidekit tune --seed', () => {
  it('defaults to 1, as every other --seed does: the default run equals --seed 1', async () => {
    const help = await runCliInProcess(['tune', '--help']);
    expect(help.stdout).toMatch(/--seed S +fold assignment seed.*\(default 1\)/);
    const bench = await runCliInProcess(['bench', '--help']);
    expect(bench.stdout.replace(/\s+/g, ' ')).toMatch(/--seed S seed of .*\(default 1\)/);
    const byDefault = await cli('tune', ...BUDGET, '--json');
    const seedOne = await cli('tune', ...BUDGET, '--json', '--seed', '1');
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout).toBe(seedOne.stdout);
  });
});
