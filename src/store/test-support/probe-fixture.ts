import type { ProbeRun } from '../../core/probe/run.js';

/** A finished conformance probe of two cases: `failed` of its 20 checks failed. */
export const probeRun = (createdAt: string, failed: number): Omit<ProbeRun, 'id'> => ({
  createdAt,
  config: {
    toolVersion: 't',
    endpoint: { scheme: 'http', host: '127.0.0.1', port: 8084, path: '/v1/systemone' },
    model: 'laya',
    dataset: {
      id: 'd',
      revision: null,
      split: 'test',
      license: 'x',
      synthetic: true,
      attribution: 'a',
      url: null,
    },
    caseIds: ['c1', 'c2'],
    casesAsked: 50,
    seed: 3,
    scope: 'conformance',
    oversizedBodyBytes: 10,
    resamples: 0,
  },
  conformance: { checks: [], passed: 20 - failed, failed, notRun: 0 },
  robustness: null,
  requests: 11,
  durationMs: 12.5,
});
