import { describe, expect, it, vi } from 'vitest';
import type { BenchRun, RunConfig } from '../../core/bench/run.js';
import { answeredModelsOf, type CaseResult } from '../../core/typed-decisions/case-result.js';
import { compareRuns, DecisionChanges } from '../../core/bench/run-diff.js';
import { fingerprintOf } from '../../store/fingerprint.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import { summarizeRun } from '../../store/run-summary.js';
import {
  answeredCase,
  CASE_IDS,
  failedCase,
  headlineOf,
  rightAnswers,
  runConfig,
  wrongAnswers,
} from '../../core/bench/test-support/run-fixtures.js';
import { stripAnsi } from '../format.js';
import { renderBenchJson } from '../bench/bench-json.js';
import { nonSnakeKeys } from '../test-support/json-keys.js';
import { renderRunComparison, renderRunComparisonJson } from './runs-diff.js';
import { renderRunsList, renderRunsListJson } from './runs-list.js';
import { renderRunShow, renderRunShowJson } from './runs-show.js';

const [c1, c2, c3, c4] = CASE_IDS as [string, string, string, string];

function makeRun(
  id: string,
  cases: CaseResult[],
  config: RunConfig = runConfig(),
  label: string | null = null,
): BenchRun {
  return {
    id,
    createdAt: '2026-11-30T04:15:12.000Z',
    durationMs: 65_000,
    label,
    fingerprint: fingerprintOf(config),
    config,
    summary: summarizeRun(config, cases),
    cases,
  };
}

function headOf(
  run: BenchRun,
  status: StoredRunHead['status'] = run.summary.status,
  saved = run.cases.length,
): StoredRunHead {
  const s = run.summary;
  return {
    id: run.id,
    createdAt: run.createdAt,
    status,
    label: run.label,
    fingerprint: run.fingerprint,
    toolVersion: run.config.toolVersion,
    model: run.config.model,
    endpoint: run.config.endpoint,
    embeddedServer: run.config.embeddedServer,
    dataset: {
      id: run.config.dataset.id,
      revision: run.config.dataset.revision,
      split: run.config.dataset.split,
      synthetic: run.config.dataset.synthetic,
    },
    caseCount: run.config.caseIds.length,
    savedCases: saved,
    filtered: run.config.filters.limit !== null,
    durationMs: run.durationMs,
    headline: status === 'running' ? null : headlineOf(s),
    answeredModels:
      run.config.model === null && run.config.embeddedServer === null ? answeredModelsOf(run.cases) : null,
  };
}

// A: 2 right cases, 1 wrong, 1 failed -> 6/12; B: 3 right, 1 wrong -> 9/12.
const runA = makeRun(
  '20261130-041512-aaaa',
  [
    answeredCase(c1, rightAnswers()),
    failedCase(c2),
    answeredCase(c3, wrongAnswers()),
    answeredCase(c4, rightAnswers()),
  ],
  runConfig(),
  'baseline',
);
const runB = makeRun('20261201-093000-bbbb', [
  answeredCase(c1, wrongAnswers()),
  answeredCase(c2, rightAnswers()),
  answeredCase(c3, rightAnswers()),
  answeredCase(c4, rightAnswers()),
]);
const running = makeRun('20261202-000000-cccc', [answeredCase(c1, rightAnswers())]);

describe('renderRunsList', () => {
  it('says where runs are kept when there are none', () => {
    expect(renderRunsList([], { colour: false, storePath: '/data/runs.sqlite' })).toContain(
      'No runs stored in /data/runs.sqlite',
    );
  });

  it('shows one row per run in the order given, with n/a for a run without a summary', () => {
    const text = renderRunsList([headOf(running, 'running', 1), headOf(runB), headOf(runA)], {
      colour: false,
      storePath: 's.sqlite',
    });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^id\s+model\s+dataset\s+status\s+accuracy\s+fingerprint\s+label$/);
    expect(lines[1]).toContain('20261202-000000-cccc');
    expect(lines[1]).toContain('running 1/4');
    expect(lines[1]).toMatch(/running 1\/4\s+n\/a/);
    expect(lines[2]).toContain('75.0%');
    expect(lines[3]).toContain('50.0%');
    expect(lines[3]).toContain('baseline');
    expect(text).toContain('3 runs in s.sqlite');
    expect(text).not.toContain('\u001b[');
  });

  it('fits 100 columns: long model names, dataset paths and labels are cut with an ellipsis', () => {
    const long = 'x'.repeat(150);
    const config = runConfig();
    const run = makeRun(
      '20261203-000000-dddd',
      [answeredCase(c1, rightAnswers())],
      { ...config, model: `vendor/${long}`, dataset: { ...config.dataset, id: `/home/me/${long}.jsonl` } },
      `label ${long}`,
    );
    const text = renderRunsList([headOf(run), headOf(runA)], { colour: false, storePath: `/data/${long}/runs.sqlite` });
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    // The dataset gives way before the label, the one name the user chose.
    expect(lines[1]).toMatch(/^20261203-000000-dddd  vendor\/x+…  \/home\/m\S*…  incomplete 1\/4 /);
    expect(lines[1]).toMatch(/  label x+…$/);
    expect(lines[1]).toContain(run.fingerprint.slice(0, 8));
    expect(text).toContain(`/data/${'x'.repeat(40)}`); // the store path wraps, it is not cut
    // Wider terminals get more of the names.
    const wide = renderRunsList([headOf(run)], { colour: false, storePath: 's', width: 160 }).split('\n');
    expect([...wide[1]!].length).toBe(160);
  });

  it('counts every run of the store by status in the footer, and says when only the newest are shown', () => {
    const counts = { running: 1, complete: 9, incomplete: 0, interrupted: 2 };
    const all = renderRunsList([headOf(runB), headOf(runA)], { colour: false, storePath: 's.sqlite', counts });
    expect(all).toContain('The 2 newest of 12 runs in s.sqlite (9 complete, 2 interrupted, 1 running).');
    const one = { running: 0, complete: 2, incomplete: 0, interrupted: 0 };
    expect(renderRunsList([headOf(runB), headOf(runA)], { colour: false, storePath: 's', counts: one })).toContain(
      '2 runs in s (2 complete).',
    );
  });

  it('hides hosts when redacting', () => {
    const text = renderRunsList([headOf(runA)], { colour: false, storePath: 's', redactHost: true });
    expect(text).not.toContain('127.0.0.1');
    expect(renderRunsListJson([headOf(runA)], 's', true)).not.toContain('127.0.0.1');
  });

  it('writes unrounded numbers and nulls in JSON', () => {
    const doc = JSON.parse(renderRunsListJson([headOf(running, 'running', 1), headOf(runA)], 's.sqlite'));
    expect(doc.store).toBe('s.sqlite');
    expect(doc.runs[0].headline).toBeNull();
    expect(doc.runs[0].null_reasons.headline).toMatch(/^no summary saved yet: the run is running/);
    expect(doc.runs[1]).not.toHaveProperty('null_reasons');
    expect(doc.runs[1].headline.kl).toBe(runA.summary.kl);
    expect(doc.runs[1].fingerprint).toBe(runA.fingerprint);
    expect(doc.runs[1].headline.latency_p50_ms).toBe(runA.summary.latencyMs.p50);
    expect(doc.runs[1].case_count).toBe(runA.config.caseIds.length);
    expect(nonSnakeKeys(doc)).toEqual([]);
  });
});

describe('renderRunShow', () => {
  it('shows configuration, provenance and headline results', () => {
    const text = renderRunShow(headOf(runA), runA, { colour: false });
    expect(text).toContain('Run 20261130-041512-aaaa  baseline');
    expect(text).toContain(runA.fingerprint);
    expect(text).toContain('http://127.0.0.1:8080/v1/systemone');
    expect(text).toMatch(/accuracy\s+50\.0%\s+\(6\/12 decisions; 3 errors count as misses\)/);
    expect(text).toContain('timeout 1');
    expect(text).toContain('synthetic sample');
  });

  it('shows n/a with its reason for metrics of a run where nothing was answered', () => {
    const none = makeRun('20261203-000000-dddd', [failedCase(c1)]);
    const text = renderRunShow(headOf(none), none, { colour: false });
    expect(text).toMatch(/KL from gold\s+n\/a {2}\(no decision was answered \(\d+ failed\)\)/);
    expect(text).toMatch(/latency\s+n\/a {2}\(no request completed\)/);
    expect(text).toMatch(/input tokens\s+n\/a {2}\(no request was answered\)/);
  });

  it('puts config and summary in JSON, with the host redacted on request', () => {
    const doc = JSON.parse(renderRunShowJson(headOf(runA), runA));
    expect(nonSnakeKeys(doc, ['by_workflow', 'by_question', 'question_set'])).toEqual([]);
    expect(doc.created_at).toBe(runA.createdAt);
    expect(doc.config).toMatchObject({
      tool_version: runA.config.toolVersion,
      timeout_ms: runA.config.timeoutMs,
      case_ids: runA.config.caseIds,
      question_set: runA.config.questionSet,
      endpoint: runA.config.endpoint,
    });
    expect(doc.dataset).toMatchObject({ id: runA.config.dataset.id, license: runA.config.dataset.license, file: null });
    // The summary is the one bench --json writes.
    expect(doc.summary).toEqual(JSON.parse(renderBenchJson(runA)).summary);
    expect(doc.summary.mean_confidence).toBe(runA.summary.meanConfidence);
    expect(doc.summary.latency_ms.p50).toBe(runA.summary.latencyMs.p50);
    expect(renderRunShowJson(headOf(runA), runA, true)).not.toContain('127.0.0.1');
  });
});

describe('renderRunComparison', () => {
  it('shows deltas in points and the changed decisions', () => {
    const text = renderRunComparison(compareRuns(runA, runB), { colour: false });
    expect(text).toMatch(/accuracy\s+50\.0%\s+75\.0%\s+\+25\.0 pp/);
    expect(text).toMatch(/errors\s+3\s+0\s+-3/);
    expect(text).toContain('Decisions whose correctness changed: 9');
    expect(text).toMatch(/customer_service_000002\s+urgent\s+noul\s+true\s+error \(timeout\)\s+true \(0\.70\) ✓/);
    expect(text).not.toContain('warning');
  });

  it('colours improvements green and regressions red on a terminal', () => {
    const text = renderRunComparison(compareRuns(runA, runB), { colour: true });
    expect(text).toContain('\u001b[32m+25.0 pp');
    const trimLines = (t: string) => t.replace(/[ ]+$/gm, '');
    expect(trimLines(stripAnsi(text))).toBe(trimLines(renderRunComparison(compareRuns(runA, runB), { colour: false })));
  });

  it('lists a limited number of changed decisions and counts the rest', () => {
    const text = renderRunComparison(compareRuns(runA, runB), { colour: false, maxChanged: 4 });
    expect(text).toContain('... and 5 more');
  });

  it('makes only the changed decisions it lists; the JSON document lists every one', () => {
    const made = vi.spyOn(DecisionChanges.prototype, 'changed', 'get');
    const c = compareRuns(runA, runB);
    const text = renderRunComparison(c, { colour: false, maxChanged: 4 });
    expect(made).not.toHaveBeenCalled();
    expect(text).toContain('Decisions whose correctness changed: 9');
    expect(text).toContain('... and 5 more');
    expect(JSON.parse(renderRunComparisonJson(c)).changed).toHaveLength(9);
    expect(made).toHaveBeenCalled();
    made.mockRestore();
  });

  it('warns in a forced comparison of different work', () => {
    const other = makeRun(
      '20261204-000000-eeee',
      [answeredCase(c1, rightAnswers())],
      runConfig({ caseIds: [c1], filters: { limit: 1, workflow: null } }),
    );
    const text = renderRunComparison(compareRuns(runA, other, { force: true }), { colour: false });
    expect(text).toContain('warning: the runs measured different work');
    expect(text).toContain('9 only in A, 0 only in B');
  });

  it('says in the comparison JSON why a number is null: the run that answered nothing', () => {
    const none = makeRun('20261203-000000-dddd', [failedCase(c1)]);
    const doc = JSON.parse(renderRunComparisonJson(compareRuns(none, runA, { force: true })));
    expect(doc.headline.kl.a).toBeNull();
    expect(doc.headline.kl.null_reasons).toEqual({
      a: 'run A answered no decision this counts',
      delta: 'no number in run A',
    });
    expect(doc.headline.accuracy.null_reasons).toBeUndefined();
  });

  it('writes the whole comparison as JSON', () => {
    const c = compareRuns(runA, runB);
    const doc = JSON.parse(renderRunComparisonJson(c));
    expect(nonSnakeKeys(doc)).toEqual([]);
    expect(doc.a).toMatchObject({ id: runA.id, created_at: runA.createdAt, decisions: 12 });
    expect(doc.same_fingerprint).toBe(true);
    expect(doc.headline.accuracy).toEqual({ a: 0.5, b: 0.75, delta: 0.25 });
    expect(doc.headline.latency_p50_ms).toEqual({
      a: runA.summary.latencyMs.p50,
      b: runB.summary.latencyMs.p50,
      delta: c.headline.latencyP50Ms.delta,
    });
    expect(doc.by_question.map((q: { key: string }) => q.key)).toEqual(c.byQuestion.map((q) => q.key));
    expect(doc.changed).toHaveLength(9);
    expect(doc.changed[0]).toEqual({
      case_id: c.changed[0]!.caseId,
      workflow: c.changed[0]!.workflow,
      question_id: c.changed[0]!.questionId,
      type: c.changed[0]!.type,
      gold: c.changed[0]!.gold,
      before: c.changed[0]!.before,
      after: c.changed[0]!.after,
    });
    expect([doc.fixed, doc.broken, doc.predictions_changed, doc.shared, doc.only_in_a, doc.only_in_b]).toEqual([
      c.fixed,
      c.broken,
      c.predictionsChanged,
      c.shared,
      c.onlyInA,
      c.onlyInB,
    ]);
  });
});
