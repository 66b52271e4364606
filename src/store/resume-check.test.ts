import { describe, expect, it } from 'vitest';
import { checkResumable } from './resume-check.js';
import { CASE_IDS, runConfig } from '../core/bench/test-support/run-fixtures.js';

describe('checkResumable', () => {
  const stored = runConfig();

  it('accepts the same run with other parallelism, timeout, retries and price', () => {
    expect(
      checkResumable(stored, runConfig({ parallel: 16, timeoutMs: 5, retries: 2, pricePerMtokUsd: null })),
    ).toEqual({ ok: true });
  });

  it('names each difference', () => {
    const now = runConfig({
      dataset: { ...stored.dataset, revision: 'r2' },
      caseIds: [...CASE_IDS.slice(1), 'customer_service_000099'],
      questionSet: { ...stored.questionSet, 'customer_service/route': 'zzzz' },
      model: 'bigger',
      endpoint: { ...stored.endpoint, port: 9090 },
    });
    const check = checkResumable(stored, now);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.reasons).toEqual([
      'dataset revision: stored "r1", now "r2"',
      'case set: stored 4 cases, now 4; not in this run: customer_service_000001; new in this run: customer_service_000099',
      'question set: 1 question differs (customer_service/route)',
      'model: stored "tiny-decider", now "bigger"',
      'endpoint: stored http://127.0.0.1:8080/v1/systemone, now http://127.0.0.1:9090/v1/systemone',
    ]);
  });

  it('refuses another dataset, split, a filtered case set and a missing model', () => {
    const check = checkResumable(
      stored,
      runConfig({
        dataset: { ...stored.dataset, id: 'other', split: 'train' },
        caseIds: CASE_IDS.slice(0, 1),
        filters: { limit: 1, workflow: null },
        model: null,
      }),
    );
    expect(check.ok ? [] : check.reasons.map((r) => r.split(':')[0])).toEqual([
      'dataset',
      'dataset split',
      'case set',
      'model',
    ]);
  });

  it('shortens long lists of differing cases', () => {
    const many = Array.from({ length: 12 }, (_, i) => `x_${i}`);
    const check = checkResumable(runConfig({ caseIds: many }), runConfig({ caseIds: [] }));
    expect(check.ok ? '' : check.reasons[0]).toBe(
      'case set: stored 12 cases, now 0; not in this run: x_0, x_1, x_2, x_3, x_4 and 7 more',
    );
  });

  it('compares the embedded server by model and ignores its port', () => {
    const a = runConfig({ embeddedServer: { model: 'uniform' }, endpoint: { ...stored.endpoint, port: 1111 } });
    expect(checkResumable(a, { ...a, endpoint: { ...a.endpoint, port: 2222 } })).toEqual({ ok: true });
    const check = checkResumable(a, { ...a, embeddedServer: { model: 'prior' } });
    expect(check.ok ? [] : check.reasons).toEqual([
      'endpoint: stored embedded reference server (uniform), now embedded reference server (prior)',
    ]);
  });
});
