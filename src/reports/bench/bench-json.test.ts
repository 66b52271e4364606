import { describe, expect, it } from 'vitest';
import { renderBenchJson, renderBenchJsonChunks } from './bench-json.js';
import { nonSnakeKeys } from '../test-support/json-keys.js';
import {
  createFailedRun,
  createMixedRun,
  createRunStatistics,
} from '../../core/bench/test-support/bench-run-fixture.js';

type Json = Record<string, unknown>;

describe('renderBenchJson', () => {
  const run = createMixedRun({ config: { pricePerMtokUsd: 0.5 } });
  const text = renderBenchJson(run);
  const doc = JSON.parse(text) as Json;

  it('is one JSON document ending in a newline, with the documented top-level keys in order', () => {
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys(doc)).toEqual([
      'format',
      'version',
      'id',
      'created_at',
      'duration_ms',
      'fingerprint',
      'label',
      'config',
      'dataset',
      'summary',
      'decisions',
    ]);
    expect(doc['id']).toBe(run.id);
    expect(doc['fingerprint']).toBe(run.fingerprint);
    expect(doc['label']).toBeNull();
  });

  it('has every documented summary key', () => {
    const summary = doc['summary'] as Json;
    for (const key of [
      'accuracy',
      'kl',
      'brier',
      'ece',
      'mean_confidence',
      'total',
      'answered',
      'errors',
      'error_kinds',
      'status',
      'by_type',
      'by_workflow',
      'by_question',
      'reliability',
      'latency_ms',
      'input_tokens',
      'rating',
      'cost',
    ]) {
      expect(summary, key).toHaveProperty(key);
    }
    expect(Object.keys(summary['by_type'] as Json)).toEqual(['noul', 'choice', 'score']);
    expect(summary['error_kinds']).toEqual({ timeout: 1 });
  });

  it('keeps numbers unrounded', () => {
    const summary = doc['summary'] as Json;
    expect(summary['accuracy']).toBe(run.summary.accuracy);
    expect(summary['kl']).toBe(run.summary.kl);
    expect(summary['ece']).toBe(run.summary.ece);
    expect((summary['latency_ms'] as Json)['p95']).toBe(run.summary.latencyMs.p95);
    expect((summary['cost'] as Json)['per_correct_usd']).toBe(run.summary.cost!.perCorrectUsd);
  });

  it('has one flat row per decision, failed ones with their error and null metrics', () => {
    const rows = doc['decisions'] as Json[];
    expect(rows).toHaveLength(run.summary.total);
    expect(Object.keys(rows[0]!)).toEqual([
      'case_id',
      'workflow',
      'question_id',
      'type',
      'answers',
      'gold_label',
      'gold_probabilities',
      'status',
      'predicted',
      'correct',
      'confidence',
      'kl',
      'brier',
      'probabilities',
      'latency_ms',
      'input_tokens',
      'error',
    ]);
    expect(rows[0]).toMatchObject({
      case_id: 'security_incidents_000001',
      question_id: 'needs_review',
      type: 'noul',
      answers: ['true', 'false'],
      gold_label: 'false',
      gold_probabilities: [0.25, 0.75],
      status: 'answered',
      predicted: 'true',
      correct: false,
      confidence: 0.611,
      probabilities: [0.611, 0.389],
      latency_ms: 212.4,
      input_tokens: 1180,
      error: null,
    });
    const failed = rows.filter((r) => r['status'] === 'failed');
    expect(failed).toHaveLength(run.summary.errors);
    expect(failed[0]).toMatchObject({
      case_id: 'security_incidents_000003',
      predicted: null,
      correct: false,
      confidence: null,
      kl: null,
      brier: null,
      probabilities: null,
      latency_ms: 30_000,
      input_tokens: null,
      error: { kind: 'timeout', message: 'no answer within 30 s' },
    });
    // The rows alone reproduce the summary's accuracy: failed decisions are misses.
    expect(rows.filter((r) => r['correct'] === true).length / rows.length).toBe(run.summary.accuracy);
  });

  it('puts a [low, high] interval beside each headline metric, with the noise floor and conventions', () => {
    const statistics = createRunStatistics(run);
    const summary = (JSON.parse(renderBenchJson(run, { statistics })) as Json)['summary'] as Json;
    expect(nonSnakeKeys(summary, ['by_workflow', 'by_question'])).toEqual([]);
    for (const [key, metric] of [
      ['accuracy', 'accuracy'],
      ['kl', 'kl'],
      ['brier', 'brier'],
      ['log_loss', 'logLoss'],
      ['ece', 'ece'],
    ] as const) {
      const ci = statistics.intervals![metric]!;
      expect(summary[`${key}_ci`]).toEqual([ci.low, ci.high]);
      expect(ci.low).toBeLessThanOrEqual(summary[key] as number);
      expect(ci.high).toBeGreaterThanOrEqual(summary[key] as number);
    }
    expect(summary['ece_noise_floor']).toEqual({
      mean: statistics.eceNoise!.mean,
      p95: statistics.eceNoise!.p95,
      p95_upper: statistics.eceNoise!.p95Upper,
      simulations: 2000,
      within_noise: statistics.eceNoise!.withinNoise,
      tie: statistics.eceNoise!.tie,
    });
    expect(summary['conventions']).toMatchObject({ ece_bins: 10, ece_binning: 'equal-width', seed: 1 });
    const off = (
      JSON.parse(renderBenchJson(run, { statistics: { ...statistics, intervals: null, eceNoise: null } })) as Json
    )['summary'] as Json;
    expect([off['accuracy_ci'], off['ece_noise_floor']]).toEqual([null, null]);
  });

  it('writes every key snake_case (data keys such as workflow names aside), version 2', () => {
    expect(doc['version']).toBe(2);
    expect(nonSnakeKeys(doc, ['by_workflow', 'by_question', 'question_set'])).toEqual([]);
    expect(Object.keys(doc['config'] as Json)).toEqual([
      'tool_version',
      'model',
      'endpoint',
      'embedded_server',
      'parallel',
      'timeout_ms',
      'retries',
      'filters',
      'price_per_mtok_usd',
      'case_ids',
      'question_set',
      'conventions',
    ]);
    expect((doc['summary'] as Json)['reliability']).toEqual(
      run.summary.reliability.map((b) => ({
        index: b.index,
        lower: b.lower,
        upper: b.upper,
        n: b.n,
        mean_confidence: b.meanConfidence,
        accuracy: b.accuracy,
        gap: b.gap,
      })),
    );
  });

  it('round-trips: parsing and rendering again gives the same text', () => {
    expect(JSON.stringify(JSON.parse(text), null, 2) + '\n').toBe(text);
    // Rendering is deterministic.
    expect(renderBenchJson(run)).toBe(text);
  });

  it('writes null, not 0, for metrics of a run with nothing answered', () => {
    const failed = JSON.parse(renderBenchJson(createFailedRun())) as Json;
    const summary = failed['summary'] as Json;
    expect(summary['kl']).toBeNull();
    expect(summary['brier']).toBeNull();
    expect(summary['ece']).toBeNull();
    expect(summary['mean_confidence']).toBeNull();
    expect(summary['input_tokens']).toBeNull();
    const latency = { p50: 'no request completed', p95: 'no request completed', mean: 'no request completed' };
    expect(summary['latency_ms']).toEqual({ n: 0, p50: null, p95: null, mean: null, null_reasons: latency });
    expect(summary['rating']).toEqual({ stars: 0, label: 'Incomplete: no successful cases' });
    expect(summary['cost']).toBeNull();
  });

  it('says beside every null why it is null (null_reasons, snake_case keys), and nothing when none is', () => {
    const summary = (JSON.parse(renderBenchJson(createFailedRun())) as Json)['summary'] as Json;
    const total = summary['total'] as number;
    const reasons = summary['null_reasons'] as Record<string, string>;
    const nulls = Object.keys(summary).filter((k) => summary[k] === null);
    expect(Object.keys(reasons).sort()).toEqual(nulls.sort());
    expect(reasons['kl']).toBe(`no decision was answered (${total} failed)`);
    expect(reasons['mean_confidence']).toBe(reasons['kl']);
    expect(reasons['input_tokens']).toBe('no request was answered');
    expect(reasons['cost']).toBe('no price given (--price-per-mtok)');
    for (const group of Object.values(summary['by_workflow'] as Record<string, Json>))
      expect((group['null_reasons'] as Record<string, string>)['brier']).toMatch(/^no decision was answered/);
    const answered = (doc['summary'] as Json)['null_reasons'] as Record<string, string> | undefined;
    const answeredNulls = Object.entries(doc['summary'] as Json).filter(([, v]) => v === null);
    expect(Object.keys(answered ?? {}).sort()).toEqual(answeredNulls.map(([k]) => k).sort());
  });

  it('keeps the dataset out of config and in its own key', () => {
    expect(doc['config']).not.toHaveProperty('dataset');
    expect(doc['dataset']).toMatchObject({
      id: run.config.dataset.id,
      revision: 'sample-v1',
      license: 'Apache-2.0',
      synthetic: true,
    });
  });
});

describe('renderBenchJsonChunks', () => {
  it('writes exactly the text JSON.stringify pretty-prints for the same document', () => {
    for (const run of [createMixedRun({ config: { pricePerMtokUsd: 0.5 } }), createFailedRun()]) {
      const text = [...renderBenchJsonChunks(run)].join('');
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      expect((JSON.parse(text) as Json)['decisions']).toHaveLength(
        run.cases.reduce((n, c) => n + c.decisions.length, 0),
      );
    }
  });

  it('writes an empty decisions array for a run without cases', () => {
    const run = { ...createMixedRun(), cases: [] };
    const text = [...renderBenchJsonChunks(run)].join('');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect((JSON.parse(text) as Json)['decisions']).toEqual([]);
  });
});
