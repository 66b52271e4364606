import { given } from '../../core/given.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFORMANCE_CHECK_IDS, type ConformanceCheckId } from '../../core/probe/conformance.js';
import { ROBUSTNESS_PROBE_IDS, type RobustnessProbeId } from '../../core/probe/robustness.js';
import type { ProbeRun } from '../../core/probe/run.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import { VIOLATION_NAMES, type Violation } from '../../protocol/server/violations.js';
import { executeProbe } from './execute-probe.js';
import { planProbe } from './plan-probe.js';

const REJECTIONS: ConformanceCheckId[] = CONFORMANCE_CHECK_IDS.filter((id) => id.startsWith('rejects-'));

/** What each violation must break, and nothing else. */
const EXPECTED: Record<Violation, { conformance?: ConformanceCheckId[]; robustness?: RobustnessProbeId[] }> = {
  'missing-answer': { conformance: ['all-questions-answered'] },
  'extra-answer': { conformance: ['no-unasked-answers'] },
  'wrong-type': { conformance: ['answer-type'] },
  'missing-option': { conformance: ['probabilities-cover'] },
  'probability-out-of-range': { conformance: ['probabilities-in-range'] },
  'sum-1.05': { conformance: ['probabilities-sum'] },
  'choice-not-argmax': { conformance: ['choice-is-top'] },
  'score-not-expected': { conformance: ['score-is-expected-level'] },
  'noul-out-of-range': { conformance: ['noul-in-range'] },
  'output-tokens': { conformance: ['output-tokens-zero'] },
  '500-on-invalid': { conformance: REJECTIONS },
  'no-health': { conformance: ['health'] },
  'models-without-decisions': { conformance: ['models'] },
  drift: { robustness: ['determinism'] },
  'stale-cache': { robustness: ['stale-cache'] },
  'question-order': { robustness: ['question-order'] },
  'question-names': { robustness: ['question-names'] },
  'sibling-bleed': { robustness: ['isolation'] },
  'first-option-bias': { robustness: ['option-order'] },
};

let server: ReferenceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A probe of a real reference server on 127.0.0.1 (its body cap lowered so the oversized request stays small). */
async function probeServer(
  violations: readonly Violation[],
  {
    cases = 12,
    seed = 3,
    serverSeed,
    only,
  }: { cases?: number; seed?: number; serverSeed?: number; only?: 'robustness' } = {},
): Promise<ProbeRun> {
  server = await startReferenceServer({
    port: 0,
    violations,
    maxBodyBytes: 64 * 1024,
    priorTable: null,
    ...(serverSeed === undefined ? {} : { faults: { seed: serverSeed } }),
  });
  const outcome = await executeProbe(
    planProbe({
      baseUrl: server.url,
      model: 'heuristic',
      cases,
      seed,
      oversizedBodyBytes: 128 * 1024,
      storePath: null,
      ...given({ only }),
    }),
    {
      toolVersion: 'test',
      cacheDir: '/nonexistent',
      signal: new AbortController().signal,
      now: () => performance.now(),
    },
  );
  if (outcome.kind !== 'finished') throw new Error(outcome.message);
  return outcome.run;
}

const failedChecks = (run: ProbeRun) => run.conformance!.checks.filter((c) => c.status === 'fail').map((c) => c.id);
const failedProbes = (run: ProbeRun) => run.robustness!.probes.filter((p) => p.verdict === 'fail').map((p) => p.id);

describe('decidekit probe against the reference server', () => {
  it('finds the clean server conformant and robust: every check and probe ran and passed', async () => {
    const run = await probeServer([]);
    expect(run.conformance!.checks.map((c) => [c.id, c.status])).toEqual(
      CONFORMANCE_CHECK_IDS.map((id) => [id, 'pass']),
    );
    expect(run.robustness!.probes.map((p) => [p.id, p.verdict])).toEqual(
      ROBUSTNESS_PROBE_IDS.map((id) => [id, 'pass']),
    );
    for (const p of run.robustness!.probes) {
      expect(p.pairs).toBeGreaterThan(0);
      expect(p.flips).toBe(0);
      expect(p.lost).toEqual({ requests: 0, decisions: 0 });
    }
    expect(run.robustness!.noiseFloor).toMatchObject({
      flipRate: { value: 0 },
      meanTv: { value: 0 },
      deterministic: true,
    });
  });

  it.each(VIOLATION_NAMES)('catches exactly --violate %s', async (violation) => {
    const run = await probeServer([violation]);
    const want = EXPECTED[violation];
    expect(failedChecks(run)).toEqual(want.conformance ?? []);
    expect(failedProbes(run)).toEqual(want.robustness ?? []);
    for (const check of run.conformance!.checks.filter((c) => c.status === 'fail')) {
      expect(check.examples.length).toBeGreaterThan(0);
      expect(check.examples[0]!.request.length).toBeGreaterThan(0);
      expect(check.examples[0]!.answer.length).toBeGreaterThan(0);
    }
    if (violation === 'missing-answer') {
      // Asked alone, every question loses its only answer: nothing left to compare.
      expect(run.robustness!.probes.find((p) => p.id === 'isolation')).toMatchObject({ verdict: 'no_data', pairs: 0 });
    }
    for (const probe of run.robustness!.probes.filter((p) => p.verdict === 'fail')) {
      expect(probe.reason).not.toBeNull();
      expect(probe.moved.length).toBeGreaterThan(0);
    }
  });

  // Seeds at which option order once failed on servers with no option-order effect: its
  // floor then came from every question, while it compares choice questions only.
  it.each([
    { name: 'drift --seed 7', violations: ['drift'], serverSeed: 7, seed: 1, expected: ['determinism'] },
    { name: 'stale-cache', violations: ['stale-cache'], seed: 3, expected: ['stale-cache'] },
    { name: 'stale-cache', violations: ['stale-cache'], seed: 6, expected: ['stale-cache'] },
    {
      name: 'stale-cache,sibling-bleed,question-order',
      violations: ['stale-cache', 'sibling-bleed', 'question-order'],
      seed: 3,
      expected: ['stale-cache', 'question-order', 'isolation'],
    },
  ] as const)(
    'serve --violate $name, probe --seed $seed: only the violated probes fail, option order passes',
    async ({ violations, seed, expected, ...rest }) => {
      const serverSeed = 'serverSeed' in rest ? rest.serverSeed : undefined;
      const run = await probeServer(violations, {
        cases: 50,
        seed,
        only: 'robustness',
        ...given({ serverSeed }),
      });
      expect(failedProbes(run)).toEqual(expected);
      const o = run.robustness!.probes.find((p) => p.id === 'option-order')!;
      // Judged against the repeats of the same choice questions, each as often as it compared them.
      expect(o.floor!.deterministic).toBe(false);
      expect(o.floor!.meanTv.value).not.toBe(run.robustness!.noiseFloor!.meanTv.value);
    },
  );

  it.each(['all', 'conformance', 'robustness'] as const)(
    'announces as many requests as it sends and the server receives (scope %s)',
    async (scope) => {
      server = await startReferenceServer({ port: 0, maxBodyBytes: 64 * 1024, priorTable: null });
      let announced: number | null = null;
      const outcome = await executeProbe(
        planProbe({
          baseUrl: server.url,
          model: 'heuristic',
          cases: 7,
          seed: 2,
          oversizedBodyBytes: 128 * 1024,
          storePath: null,
          ...(scope === 'all' ? {} : { only: scope }),
        }),
        {
          toolVersion: 'test',
          cacheDir: '/nonexistent',
          signal: new AbortController().signal,
          now: () => performance.now(),
          reporter: { onStart: (start) => (announced = start.requests) },
        },
      );
      if (outcome.kind !== 'finished') throw new Error(outcome.message);
      expect(announced).toBe(outcome.run.requests);
      expect(server.metrics().requestsTotal).toBe(outcome.run.requests);
    },
  );
});
