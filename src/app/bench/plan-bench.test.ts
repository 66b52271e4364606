import { spellForCli } from '../../cli/option-flags.js';
import { spellForLibrary } from '../../core/message-words.js';
import { describe, expect, it } from 'vitest';
import { conventionsText, DEFAULT_CONVENTIONS } from '../../core/stats/conventions.js';
import type { BenchRun, RunConfig } from '../../core/bench/run.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { checkResumable } from '../../store/resume-check.js';
import { answeredCase, benchCase, failedCase, rightAnswers, runConfig } from '../../store/test-support/run-fixtures.js';
import { summarizeRun } from '../../store/run-summary.js';
import {
  planBench,
  runConfigOf,
  selectCases,
  startRun,
  type BenchPlan,
  type BenchRequest,
  type ResumableRun,
} from './plan-bench.js';
import { EMBEDDED_IDENTITY } from '../server-plan.js';

const STORE = '/tmp/runs.sqlite';

/** `ResumableRun` of a run held whole: its saved case ids by outcome. */
function resumableRunOf(run: BenchRun): ResumableRun {
  const { cases, ...record } = run;
  const answered = new Set<string>();
  const failed = new Set<string>();
  for (const c of cases) (c.request.status === 'answered' ? answered : failed).add(c.caseId);
  return { ...record, answered, failed };
}

function storedRun(config: RunConfig, extra: Partial<BenchRun> = {}): ResumableRun {
  const cases = [answeredCase(config.caseIds[0]!, rightAnswers()), failedCase(config.caseIds[1]!)];
  return resumableRunOf({
    id: '20261130-041512-ab12',
    createdAt: '2026-11-30T04:15:12.000Z',
    durationMs: 1500,
    label: 'first try',
    fingerprint: 'f',
    config,
    summary: summarizeRun(config, cases),
    cases,
    ...extra,
  });
}

const fresh: BenchRequest = { storePath: STORE };

describe('planBench', () => {
  it('plans the embedded heuristic model on the sample by default', () => {
    const plan = planBench(fresh, null);
    expect(plan).toEqual({
      dataset: { kind: 'sample' },
      workflow: null,
      limit: null,
      sample: null,
      server: { kind: 'embedded', model: 'heuristic' },
      replicaUrls: [],
      parallel: 1,
      parallelByReplica: null,
      timeoutMs: 60_000,
      retries: 2,
      pricePerMtokUsd: null,
      label: null,
      storePath: STORE,
      conventions: conventionsText(DEFAULT_CONVENTIONS),
      resume: null,
    });
  });

  it('records the chosen ECE convention and seed with a new run', () => {
    const plan = planBench({ ...fresh, conventions: { eceBins: 15, eceAverage: 'per-question', seed: 7 } }, null);
    expect(plan.conventions).toBe(
      conventionsText({ ...DEFAULT_CONVENTIONS, eceBins: 15, eceAverage: 'per-question', seed: 7 }),
    );
  });

  it('plans a remote server with its key and model', () => {
    const plan = planBench(
      { ...fresh, baseUrl: 'http://127.0.0.1:8080', model: 'laya', apiKey: 'k', parallel: 8, timeoutSec: 2.5 },
      null,
    );
    expect(plan.server).toEqual({ kind: 'remote', baseUrl: 'http://127.0.0.1:8080', model: 'laya', apiKey: 'k' });
    expect(plan.parallel).toBe(8);
    expect(plan.timeoutMs).toBe(2500);
  });

  it('refuses an API key an HTTP header cannot carry, without showing it', () => {
    expect(() => planBench({ ...fresh, apiKey: 'abc\r\nX-Evil: 1' }, null)).toThrow(/apiKey contains a line break/);
    expect(() => planBench({ ...fresh, apiKey: 'clé→secret' }, null)).toThrow(/position 4/);
    expect(() => planBench({ ...fresh, apiKey: 'clé→secret' }, null)).not.toThrow(/secret/);
    expect(() => planBench({ ...fresh, apiKey: 'clé-ok' }, null)).not.toThrow();
  });

  it('refuses --limit with --sample', () => {
    expect(() => planBench({ ...fresh, limit: 5, sample: { cases: 5, seed: 1 } }, null)).toThrow(/give one of the two/);
  });

  it('refuses retryFailed without resume, and resume without a store, naming the options', () => {
    expect(() => planBench({ ...fresh, retryFailed: true }, null)).toThrow(OptionError);
    expect(() => planBench({ storePath: null, resume: 'x' }, storedRun(runConfig()))).toThrow(
      /^resume needs the run store; drop storePath: null$/,
    );
  });

  it('continues a stored run as started: dataset, filters, server and model come from the run', () => {
    const config = runConfig({
      model: 'laya',
      endpoint: { scheme: 'http', host: '127.0.0.1', port: 8080, path: '/v1/systemone' },
      embeddedServer: null,
      filters: { limit: 2, workflow: 'customer_service' },
    });
    const plan = planBench({ ...fresh, resume: '2026' }, storedRun(config));
    expect(plan.dataset).toEqual({ kind: 'sample' });
    expect(plan.workflow).toBe('customer_service');
    expect(plan.limit).toBe(2);
    expect(plan.server).toEqual({ kind: 'remote', baseUrl: 'http://127.0.0.1:8080', model: 'laya' });
    expect(plan.resume?.retryFailed).toBe(false);
  });

  it('continues a run on replicas on the same replicas, unless base URLs are given again', () => {
    const config = runConfig({ replicas: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'] });
    const plan = planBench({ ...fresh, resume: 'x' }, storedRun(config));
    expect(plan.replicaUrls).toEqual(['http://127.0.0.1:8081']);
    const given = planBench({ ...fresh, resume: 'x', baseUrl: 'http://127.0.0.1:8080' }, storedRun(config));
    expect(given.replicaUrls).toEqual([]);
  });

  it('refuses replicas without a first base URL, and one given twice', () => {
    expect(() => planBench({ ...fresh, replicaUrls: ['http://127.0.0.1:8081'] })).toThrow(/replicas need/);
    expect(() =>
      planBench({ ...fresh, baseUrl: 'http://127.0.0.1:8081/', replicaUrls: ['http://user:pw@127.0.0.1:8081'] }),
    ).toThrow(/given twice/);
  });

  it('continues an embedded run on the same built-in model', () => {
    const config = runConfig({ embeddedServer: { model: 'prior' }, model: 'prior', endpoint: EMBEDDED_IDENTITY });
    expect(planBench({ ...fresh, resume: 'x' }, storedRun(config)).server).toEqual({
      kind: 'embedded',
      model: 'prior',
    });
  });

  it('asks for the path again when a resumed run read its dataset from a file', () => {
    const config = runConfig();
    const byPath = { ...config, dataset: { ...config.dataset, id: 'my-cases.jsonl' } };
    expect(() => planBench({ ...fresh, resume: 'x' }, storedRun(byPath))).toThrow(/pass dataset again/);
  });

  it('lets the command line override what the stored run would give', () => {
    const plan = planBench(
      { ...fresh, resume: 'x', workflow: 'security_incidents', model: 'uniform' },
      storedRun(runConfig({ embeddedServer: { model: 'prior' }, model: 'prior', endpoint: EMBEDDED_IDENTITY })),
    );
    expect(plan.workflow).toBe('security_incidents');
    expect(plan.server).toEqual({ kind: 'embedded', model: 'uniform' });
  });
});

describe('selectCases', () => {
  const cases = [benchCase('a', 'x'), benchCase('b', 'y'), benchCase('c', 'x'), benchCase('d', 'x')];

  it('filters by workflow, then takes the first N', () => {
    expect(selectCases(cases, { workflow: 'x', limit: 2 }).map((c) => c.id)).toEqual(['a', 'c']);
    expect(selectCases(cases, { workflow: null, limit: null }).map((c) => c.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('takes a seeded sample spread over every workflow, in file order', () => {
    const many = Array.from({ length: 40 }, (_, i) => benchCase(`c${i}`, i < 30 ? 'x' : 'y'));
    const picked = selectCases(many, { workflow: null, limit: null, sample: { cases: 8, seed: 5 } });
    expect(picked.filter((c) => c.workflow === 'x')).toHaveLength(6);
    expect(picked.filter((c) => c.workflow === 'y')).toHaveLength(2);
    expect(selectCases(many, { workflow: null, limit: null, sample: { cases: 8, seed: 5 } })).toEqual(picked);
  });

  it('names the known workflows when the asked one is absent', () => {
    expect(() => selectCases(cases, { workflow: 'z', limit: null })).toThrow('(workflows: x, y)');
  });
});

describe('runConfigOf and startRun', () => {
  const config = runConfig();
  const plan = (over: Partial<BenchPlan> = {}): BenchPlan => ({ ...planBench(fresh, null), ...over });

  it('records the embedded server under its stable identity, not its port', () => {
    const made = runConfigOf(plan(), {
      toolVersion: '9.9.9',
      dataset: { dataset: config.dataset, questionSet: config.questionSet },
      cases: config.caseIds.map((id) => benchCase(id)),
      endpoint: null,
    });
    expect(made.endpoint).toEqual(EMBEDDED_IDENTITY);
    expect(made.embeddedServer).toEqual({ model: 'heuristic' });
    expect(made.caseIds).toEqual(config.caseIds);
    expect(made.filters).toEqual({ limit: null, workflow: null });
  });

  it('starts a fresh run with nothing kept', () => {
    const start = startRun(plan({ label: 'L' }), config, '2026-12-01T00:00:00.000Z', checkResumable);
    expect(start).toMatchObject({ id: null, label: 'L', priorDurationMs: 0, notes: [] });
    expect(start.kept.size).toBe(0);
  });

  it('keeps answered and failed cases on resume, and only answered ones with --retry-failed', () => {
    const run = storedRun(config);
    const keep = startRun(plan({ resume: { run, retryFailed: false } }), config, 'now', checkResumable);
    expect([...keep.kept.keys()]).toEqual(config.caseIds.slice(0, 2));
    expect(keep).toMatchObject({ id: run.id, createdAt: run.createdAt, label: 'first try', priorDurationMs: 1500 });
    const retry = startRun(plan({ resume: { run, retryFailed: true } }), config, 'now', checkResumable);
    expect([...retry.kept.keys()]).toEqual(config.caseIds.slice(0, 1));
  });

  it('says when a resumed run has nothing left to send, and not when cases remain', () => {
    const done = config.caseIds.map((id) => answeredCase(id, rightAnswers()));
    const complete = storedRun(config, { cases: done });
    const start = startRun(plan({ resume: { run: complete, retryFailed: false } }), config, 'now', checkResumable);
    expect(start.notes.map(spellForLibrary)).toEqual([
      `run ${complete.id} already has a result for each of its ${config.caseIds.length} cases: nothing to send; below is the stored run's report`,
    ]);
    const partial = startRun(
      plan({ resume: { run: storedRun(config), retryFailed: true } }),
      config,
      'now',
      checkResumable,
    );
    expect(partial.notes.map(spellForLibrary).filter((n) => n.includes('nothing to send'))).toEqual([]);
  });

  it('records one --parallel given to a resume of a run whose replicas each had their own, as it sends', () => {
    const replicas = ['http://127.0.0.1:8001', 'http://127.0.0.1:8002'];
    const run = storedRun(runConfig({ replicas, parallel: 2, parallelByReplica: [2, 3] }));
    const now = runConfig({ replicas, parallel: 5 });
    const start = startRun(plan({ resume: { run, retryFailed: false } }), now, 'now', checkResumable);
    expect(start.config.parallel).toBe(5);
    expect(start.config.parallelByReplica).toBeUndefined();
    const kept = startRun(
      plan({ resume: { run, retryFailed: false } }),
      runConfig({ replicas, parallel: 2, parallelByReplica: [2, 3] }),
      'now',
      checkResumable,
    );
    expect(kept.config).toMatchObject({ parallel: 2, parallelByReplica: [2, 3] });
  });

  it("keeps the stored run's price and says so, but takes this session's sending settings", () => {
    const run = storedRun(runConfig({ pricePerMtokUsd: 0.5 }));
    const now = runConfig({ pricePerMtokUsd: 2, parallel: 8, timeoutMs: 1000, retries: 0 });
    const start = startRun(
      plan({ resume: { run, retryFailed: false }, pricePerMtokUsd: 2 }),
      now,
      'now',
      checkResumable,
    );
    expect(start.config.pricePerMtokUsd).toBe(0.5);
    expect(start.config).toMatchObject({ parallel: 8, timeoutMs: 1000, retries: 0 });
    expect(spellForCli(start.notes[0]!)).toMatch(
      /keeping the run's price \(0\.5 per Mtok\); --price-per-mtok 2 applies/,
    );
    expect(spellForLibrary(start.notes[1]!)).toBe('1 failed case is kept as it is; add retryFailed to send it again');
    expect(spellForCli(start.notes[1]!)).toBe('1 failed case is kept as it is; add --retry-failed to send it again');
  });

  it('refuses a resume whose cases would not be comparable, naming the difference', () => {
    const run = storedRun(config);
    const other = runConfig({ model: 'laya' });
    expect(() => startRun(plan({ resume: { run, retryFailed: false } }), other, 'now', checkResumable)).toThrow(
      DecidekitError,
    );
    expect(() => startRun(plan({ resume: { run, retryFailed: false } }), other, 'now', checkResumable)).toThrow(
      /cannot resume run 20261130-041512-ab12: model/,
    );
  });
});
