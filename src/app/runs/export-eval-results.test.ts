/**
 * `runs export --format eval-results` through the real CLI on real stores: refused with its
 * reasons for the synthetic sample, a filtered run and an incomplete one; written for a run
 * whose stored provenance is the real Typed Decisions test split.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../cli/test-support/in-process-cli.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { RunConfig } from '../../core/bench/run.js';
import { openStore, summarizeRun } from '../../store/index.js';
import {
  answeredCase,
  createRunConfig,
  failedCase,
  rightAnswers,
  SAMPLE_DATASET,
  TYPED_DECISIONS,
  wrongAnswers,
} from '../../core/bench/test-support/run-fixtures.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-eval-results-');
let storePath: string;
const ids: Record<string, string> = {};

const caseIds = Array.from({ length: 400 }, (_, i) => `customer_service_${String(i).padStart(6, '0')}`);
const allAnswered = (): CaseResult[] =>
  caseIds.map((id, i) => answeredCase(id, i % 3 === 0 ? wrongAnswers() : rightAnswers(i), 10 + i, 300));

function seed(name: string, config: RunConfig, cases: CaseResult[], status?: 'interrupted'): void {
  const store = openStore(storePath);
  try {
    const head = store.runs.create({ config, label: name, createdAt: '2026-11-30T04:15:12.000Z' });
    store.cases.save(head.id, cases);
    const summary = summarizeRun(config, cases);
    if (status === 'interrupted') store.runs.markInterrupted(head.id);
    else store.runs.finish(head.id, { status: summary.status, durationMs: 10, summary });
    ids[name] = head.id;
  } finally {
    store.close();
  }
}

beforeAll(() => {
  storePath = join(dir, 'runs.sqlite');
  const real = createRunConfig({ dataset: TYPED_DECISIONS, caseIds });
  seed('real', real, allAnswered());
  seed('sample', createRunConfig({ dataset: SAMPLE_DATASET, caseIds }), allAnswered());
  seed(
    'filtered',
    createRunConfig({
      dataset: TYPED_DECISIONS,
      caseIds: caseIds.slice(0, 25),
      filters: { limit: 25, workflow: null },
    }),
    allAnswered().slice(0, 25),
  );
  seed('incomplete', real, [...allAnswered().slice(0, 398), failedCase(caseIds[398]!), failedCase(caseIds[399]!)]);
  seed('interrupted', real, allAnswered().slice(0, 100), 'interrupted');
  seed('old-revision', createRunConfig({ dataset: { ...TYPED_DECISIONS, revision: 'main' }, caseIds }), allAnswered());
  const calibration = {
    path: 'map.json',
    sha256: 'c'.repeat(64),
    method: 'temperature' as const,
    by: 'all' as const,
    groups: [{ key: 'all', parameters: { method: 'temperature' as const, temperature: 2 } }],
  };
  seed('recalibrated', createRunConfig({ dataset: TYPED_DECISIONS, caseIds, calibration }), allAnswered());
});

async function exportEval(name: string, extra: string[] = []) {
  const out = join(dir, `out-${name}`);
  const r = await runCliInProcess([
    'runs',
    'export',
    ids[name]!,
    '--format',
    'eval-results',
    '--out',
    out,
    '--store',
    storePath,
    ...extra,
  ]);
  return { ...r, out };
}

describe('runs export --format eval-results', () => {
  it('refuses the synthetic sample, naming it', async () => {
    const r = await exportEval('sample');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`run ${ids['sample']} cannot be a Typed Decisions leaderboard entry`);
    expect(r.stderr).toContain('synthetic sample (decidekit/typed-decisions-synthetic-sample)');
    expect(existsSync(r.out)).toBe(false);
  });

  it('refuses a run scored through a calibration map, naming the map', async () => {
    const r = await exportEval('recalibrated');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "its numbers were recalibrated with map.json (temperature by all, sha256 cccccccccccc) as it ran; the leaderboard scores the model's own answers",
    );
    expect(existsSync(r.out)).toBe(false);
  });

  it('refuses a filtered run, naming the filter', async () => {
    const r = await exportEval('filtered');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it is a filtered run (--limit 25)');
    expect(existsSync(r.out)).toBe(false);
  });

  it('refuses an incomplete or interrupted run, with what is missing', async () => {
    const incomplete = await exportEval('incomplete');
    expect(incomplete.code).toBe(1);
    expect(incomplete.stderr).toContain('it is incomplete (2 failed requests, 398 of 400 cases answered');
    expect(incomplete.stderr).toMatch(/send them again with: decidekit bench --resume \S+ --retry-failed --store /);
    const interrupted = await exportEval('interrupted');
    expect(interrupted.code).toBe(1);
    expect(interrupted.stderr).toMatch(
      /it is interrupted \(100 of 400 cases answered; finish it with: decidekit bench --resume \S+ --store /,
    );
  });

  it('refuses another revision than the one the leaderboard scored', async () => {
    const r = await exportEval('old-revision');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`it used revision main; the leaderboard scores revision ${TYPED_DECISIONS.revision}`);
  });

  it('writes the YAML entry and the per-case predictions for a complete run on the real test split', async () => {
    const r = await exportEval('real', ['--source-url', 'https://huggingface.co/datasets/me/preds']);
    expect(r.code).toBe(0);
    const yamlPath = join(r.out, '.eval_results', 'typed-decisions.yaml');
    const predictionsPath = join(r.out, 'typed-decisions-predictions.jsonl');
    expect(r.stdout).toBe(`${yamlPath}\n${predictionsPath}\n`);
    const summary = summarizeRun(createRunConfig({ dataset: TYPED_DECISIONS, caseIds }), allAnswered());
    const yaml = readFileSync(yamlPath, 'utf8');
    const entries = yaml
      .split('\n- ')
      .slice(1)
      .map((e) => e.split('\n'));
    expect(entries.map((e) => e.find((l) => l.includes('task_id:'))!.trim())).toEqual([
      'task_id: accuracy',
      'task_id: kl_from_gold',
      'task_id: brier',
    ]);
    const values = entries.map((e) => Number(e.find((l) => l.startsWith('  value: '))!.slice('  value: '.length)));
    expect(values).toEqual([summary.accuracy, summary.kl, summary.brier]);
    for (const e of entries) {
      expect(e).toContain('dataset:');
      expect(e).toContain('    id: "LocalLLaMA/typed-decisions"');
      expect(e).toContain(`    revision: "${TYPED_DECISIONS.revision}"`);
      expect(e).toContain('  date: "2026-11-30T04:15:12.000Z"');
      expect(e).toContain('    url: "https://huggingface.co/datasets/me/preds"');
    }
    expect(yaml).not.toContain('task_id: ece');

    const lines = readFileSync(predictionsPath, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(400);
    const first = JSON.parse(lines[0]!);
    const decisions = allAnswered()[0]!.decisions;
    expect(first.id).toBe(caseIds[0]);
    expect(Object.keys(first.predictions)).toEqual(decisions.map((d) => d.questionId));
    for (const d of decisions) {
      const o = d.outcome;
      if (o.status !== 'answered') throw new Error('expected answered');
      expect(first.predictions[d.questionId].label).toBe(o.predicted);
      expect(d.answers.map((a) => first.predictions[d.questionId].probabilities[a])).toEqual(o.probabilities);
    }
  });

  it('leaves the source out without --source-url, and says how to add one', async () => {
    const r = await exportEval('real');
    expect(r.code).toBe(0);
    expect(readFileSync(join(r.out, '.eval_results', 'typed-decisions.yaml'), 'utf8')).not.toContain('source:');
    expect(r.stderr).toContain('--source-url');
  });
});
