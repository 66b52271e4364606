import { describe, expect, it } from 'vitest';
import type { TypedDecisionsCase, Failure } from '../core/typed-decisions/case-result.js';
import { DecidekitError } from '../core/errors.js';
import type { Question } from '../core/question.js';
import { runBenchmark, type DecisionClient, type RunnerEvent } from './run-benchmark.js';

const q: Question = { type: 'noul', instructions: 'Yes?' };
const cases: TypedDecisionsCase[] = Array.from({ length: 40 }, (_, i) => ({
  id: `wf_${String(i).padStart(6, '0')}`,
  workflow: 'wf',
  state: { i },
  questions: [['a', q]],
  gold: [{ labelIndex: 0, probabilities: [0.9, 0.1] }],
}));

class Down extends DecidekitError {
  constructor() {
    super('unreachable', 'nothing is listening');
  }
}
class Http500 extends Error {}

const failureOf = (e: unknown): Failure =>
  e instanceof Http500 ? { kind: 'http', message: 'HTTP 500' } : { kind: 'transport', message: 'refused' };
const isRunStopping = (e: unknown) => e instanceof Down;
const turn = () => new Promise<void>((r) => setImmediate(r));

/** A replica that answers after `turns` event-loop turns, or throws what `fail(call)` gives. */
function replica(turns: number, fail: (call: number) => Error | null = () => null) {
  const seen: number[] = [];
  let calls = 0;
  const client: DecisionClient = {
    async decide(state) {
      const call = calls++;
      for (let t = 0; t < turns; t++) await turn();
      const error = fail(call);
      if (error !== null) throw error;
      seen.push((state as { i: number }).i);
      return { predicted: [[0.7, 0.3]], inputTokens: 1, latencyMs: 1 };
    },
  };
  return { client, seen };
}

/**
 * `runBenchmark` over the `named` replicas in order, each with `parallel` requests in flight
 * (the first is the run's own client too).
 */
function runOver(
  parallel: number,
  named: Record<string, ReturnType<typeof replica>>,
  onEvent?: (e: RunnerEvent) => void,
): ReturnType<typeof runBenchmark> {
  const entries = Object.entries(named);
  return runBenchmark({
    cases,
    client: entries[0]![1].client,
    parallel,
    replicas: entries.map(([name, r]) => ({ name, client: r.client, parallel })),
    failureOf,
    isRunStopping,
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}

describe('runBenchmark over replicas', () => {
  it('shares the cases between replicas, the faster one answering more, each case recording its replica', async () => {
    const fast = replica(1);
    const slow = replica(8);
    const out = await runOver(2, { 'http://fast': fast, 'http://slow': slow });
    expect(out.stopped).toBeNull();
    expect(out.results.map((r) => r.caseId)).toEqual(cases.map((c) => c.id));
    expect(fast.seen.length + slow.seen.length).toBe(40);
    expect(slow.seen.length).toBeGreaterThan(0);
    expect(fast.seen.length).toBeGreaterThan(slow.seen.length);
    for (const r of out.results)
      expect(r.request.replica).toBe(fast.seen.includes(Number(r.caseId.slice(3))) ? 'http://fast' : 'http://slow');
  });

  it('sets aside a replica nothing listens at any more and sends its cases to the other', async () => {
    const good = replica(2);
    const dying = replica(1, (call) => (call >= 3 ? new Down() : null));
    const events: RunnerEvent[] = [];
    const out = await runOver(2, { 'http://good': good, 'http://dying': dying }, (e) => events.push(e));
    expect(out.stopped).toBeNull();
    expect(out.results).toHaveLength(40);
    expect(out.results.every((r) => r.request.status === 'answered')).toBe(true);
    expect(new Set(out.results.map((r) => r.caseId)).size).toBe(40);
    expect(dying.seen).toHaveLength(3);
    expect(out.setAside).toEqual([{ replica: 'http://dying', message: 'nothing is listening', answeredCases: 3 }]);
    expect(events.filter((e) => e.type === 'set-aside')).toEqual([
      { type: 'set-aside', replica: 'http://dying', message: 'nothing is listening', answeredCases: 3 },
    ]);
  });

  it('sets aside a replica after a streak of server errors, the streak cases answered by the other', async () => {
    const good = replica(3);
    const broken = replica(1, (call) => (call >= 2 ? new Http500('HTTP 500') : null));
    const out = await runOver(1, { 'http://good': good, 'http://broken': broken });
    expect(out.results).toHaveLength(40);
    expect(out.results.every((r) => r.request.status === 'answered')).toBe(true);
    expect(out.setAside.map((s) => s.replica)).toEqual(['http://broken']);
  });

  it('records a lone server error as the case failure when the replica answers again', async () => {
    const good = replica(3);
    const flaky = replica(1, (call) => (call === 1 ? new Http500('HTTP 500') : null));
    const out = await runOver(1, { 'http://good': good, 'http://flaky': flaky });
    expect(out.setAside).toEqual([]);
    const failed = out.results.filter((r) => r.request.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.request.replica).toBe('http://flaky');
  });

  it('stops the run as a single server would when the last replica fails', async () => {
    const a = replica(1, () => new Down());
    const b = replica(1, () => new Down());
    const out = await runOver(1, { 'http://a': a, 'http://b': b });
    expect(out.stopped?.reason).toBe('unsupported');
    expect(out.setAside).toHaveLength(1);
  });
});
