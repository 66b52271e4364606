import { describe, expect, it } from 'vitest';
import type { TypedDecisionsCase, Failure } from '../core/typed-decisions/case-result.js';
import { DecidekitError } from '../core/errors.js';
import type { Question } from '../core/question.js';
import { drainingQueue, runBenchmark, type DecisionClient, type RunnerEvent } from './run-benchmark.js';

const q: Question = { type: 'noul', instructions: 'Yes?' };
const cases: TypedDecisionsCase[] = Array.from({ length: 20 }, (_, i) => ({
  id: `wf_${String(i).padStart(6, '0')}`,
  workflow: 'wf',
  state: { i },
  questions: [
    ['a', q],
    ['b', q],
  ],
  gold: [
    { labelIndex: 0, probabilities: [0.9, 0.1] },
    { labelIndex: 1, probabilities: [0.2, 0.8] },
  ],
}));

class Unsupported extends DecidekitError {
  constructor() {
    super('unsupported_endpoint', 'server does not serve decision models');
  }
}

const failureOf = (e: unknown): Failure => ({ kind: 'http', message: e instanceof Error ? e.message : String(e) });
const isRunStopping = (e: unknown) => e instanceof Unsupported;
let clock = 0;
const now = () => clock++;
const tick = () => new Promise<void>((r) => setTimeout(r, 1));

function client(
  behaviour: (i: number, signal?: AbortSignal) => Promise<void>,
  counter: { calls: number; inFlight: number; maxInFlight: number },
): DecisionClient {
  return {
    async decide(state, _questions, signal) {
      counter.calls++;
      counter.inFlight++;
      counter.maxInFlight = Math.max(counter.maxInFlight, counter.inFlight);
      try {
        await behaviour((state as { i: number }).i, signal);
        return {
          predicted: [
            [0.7, 0.3],
            [0.6, 0.4],
          ],
          inputTokens: 12,
          latencyMs: 3,
        };
      } finally {
        counter.inFlight--;
      }
    },
  };
}

describe('runBenchmark', () => {
  it('sends one request per case, never more than `parallel` at once, and keeps case order', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const out = await runBenchmark({
      cases,
      client: client(tick, counter),
      parallel: 4,
      failureOf,
      isRunStopping,
      now,
    });
    expect(counter.calls).toBe(20);
    expect(counter.maxInFlight).toBe(4);
    expect(out.stopped).toBeNull();
    expect(out.results.map((r) => r.caseId)).toEqual(cases.map((c) => c.id));
    expect(out.results[0]!.decisions.map((d) => d.outcome.status === 'answered' && d.outcome.correct)).toEqual([
      true,
      false,
    ]);
  });

  it('turns a failed request into error rows for every decision of its case', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const out = await runBenchmark({
      cases,
      client: client(async (i) => {
        if (i === 3) throw new Error('HTTP 500: boom');
      }, counter),
      parallel: 2,
      failureOf,
      isRunStopping,
      now,
    });
    const failed = out.results.find((r) => r.caseId === cases[3]!.id)!;
    expect(failed.request.status).toBe('failed');
    expect(failed.decisions.map((d) => d.outcome)).toEqual([
      { status: 'failed', failure: { kind: 'http', message: 'HTTP 500: boom' } },
      { status: 'failed', failure: { kind: 'http', message: 'HTTP 500: boom' } },
    ]);
    expect(out.results).toHaveLength(20);
  });

  it('stops at once on an unsupported endpoint, after at most `parallel` requests', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const events: RunnerEvent[] = [];
    const out = await runBenchmark({
      cases,
      client: client(async () => {
        await tick();
        throw new Unsupported();
      }, counter),
      parallel: 3,
      failureOf,
      isRunStopping,
      now,
      onEvent: (e) => events.push(e),
    });
    expect(counter.calls).toBeLessThanOrEqual(3);
    expect(out.stopped?.reason).toBe('unsupported');
    expect(out.results).toEqual([]);
    expect(events.filter((e) => e.type === 'stopping')).toHaveLength(1);
  });

  it('stops on abort, keeps finished cases and drops the ones in flight', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const controller = new AbortController();
    const saved: string[] = [];
    const out = await runBenchmark({
      cases,
      client: client(async (i, signal) => {
        if (i === 5) controller.abort(new Error('SIGINT'));
        await new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          const t = setTimeout(resolve, 1);
          signal?.addEventListener('abort', () => {
            clearTimeout(t);
            reject(signal.reason);
          });
        });
      }, counter),
      parallel: 2,
      failureOf,
      isRunStopping,
      now,
      signal: controller.signal,
      checkpoint: (rs) => {
        saved.push(...rs.map((r) => r.caseId));
      },
    });
    expect(out.stopped?.reason).toBe('aborted');
    expect(out.results.length).toBeGreaterThanOrEqual(4);
    expect(out.results.length).toBeLessThan(20);
    expect(out.results.map((r) => r.caseId)).toEqual(saved.slice().sort());
    expect(out.results.every((r) => r.request.status === 'answered')).toBe(true);
  });

  it('checkpoints each case before counting it, and stops when the checkpoint fails', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const counted: number[] = [];
    await expect(
      runBenchmark({
        cases,
        client: client(tick, counter),
        parallel: 1,
        failureOf,
        isRunStopping,
        now,
        checkpoint: (rs) => {
          if (rs.some((r) => r.caseId === cases[2]!.id)) throw new Error('disk full');
        },
        onEvent: (e) => {
          if (e.type === 'case') counted.push(e.progress.casesDone);
        },
      }),
    ).rejects.toThrow('disk full');
    expect(counted).toEqual([1, 2]);
    // The next request may already be in flight when a checkpoint fails; it is cancelled, never counted.
    expect(counter.calls).toBeLessThanOrEqual(4);
  });

  it('checkpoints cases that finish together in one batch', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const batches: number[] = [];
    const gate = new Promise<void>((resolve) => setTimeout(resolve, 5));
    const out = await runBenchmark({
      cases: cases.slice(0, 8),
      client: client(() => gate, counter),
      parallel: 8,
      failureOf,
      isRunStopping,
      now,
      checkpoint: (rs) => {
        batches.push(rs.length);
      },
    });
    expect(out.results).toHaveLength(8);
    expect(batches).toEqual([8]);
  });

  it('gathers cases finishing over several turns into one checkpoint with groupCommitMs, counting each after it', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const batches: number[] = [];
    const counted: number[] = [];
    // Cases finish one after another, each in its own turn (1 ms apart), all within 200 ms.
    const out = await runBenchmark({
      cases: cases.slice(0, 6),
      client: client((i) => new Promise((r) => setTimeout(r, 1 + i)), counter),
      parallel: 6,
      failureOf,
      isRunStopping,
      now,
      groupCommitMs: 200,
      checkpoint: (rs) => {
        expect(counted).toHaveLength(0);
        batches.push(rs.length);
      },
      onEvent: (e) => {
        if (e.type === 'case') counted.push(e.progress.casesDone);
      },
      keepResults: false,
    });
    expect(batches).toEqual([6]);
    expect(counted).toEqual([1, 2, 3, 4, 5, 6]);
    expect(out.results).toEqual([]);
    expect(out.finishedCases).toBe(6);
    expect(out.answeredCases).toBe(6);
  });

  it('counts the cases of an async checkpoint only once it resolves, with one batch checkpointed at a time', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const batches: string[][] = [];
    const counted: string[] = [];
    let committing = 0;
    let maxCommitting = 0;
    const out = await runBenchmark({
      cases: cases.slice(0, 12),
      client: client((i) => new Promise((r) => setTimeout(r, 1 + i)), counter),
      parallel: 4,
      failureOf,
      isRunStopping,
      now,
      groupCommitMs: 2,
      // Each commit takes 15 ms, longer than the cases take to finish: batches must wait.
      checkpoint: async (rs) => {
        const ids = rs.map((r) => r.caseId);
        expect(ids.some((id) => counted.includes(id))).toBe(false);
        batches.push(ids);
        maxCommitting = Math.max(maxCommitting, ++committing);
        await new Promise((r) => setTimeout(r, 15));
        committing--;
      },
      onEvent: (e) => {
        if (e.type !== 'case') return;
        // Counted only after its own batch finished committing.
        expect(batches.findIndex((b) => b.includes(e.result.caseId))).toBeGreaterThanOrEqual(0);
        counted.push(e.result.caseId);
      },
      keepResults: false,
    });
    expect(maxCommitting).toBe(1);
    expect(batches.flat().sort()).toEqual(cases.slice(0, 12).map((c) => c.id));
    expect(counted).toEqual(batches.flat());
    // Later batches gathered the cases that finished while the one before was committed.
    expect(batches.length).toBeLessThan(12);
    expect(out.finishedCases).toBe(12);
  });

  it('stops the run when an async checkpoint rejects, counting nothing of that batch', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const counted: string[] = [];
    const committed: string[] = [];
    let batchesSeen = 0;
    await expect(
      runBenchmark({
        cases,
        client: client(tick, counter),
        parallel: 1,
        failureOf,
        isRunStopping,
        now,
        checkpoint: async (rs) => {
          await tick();
          if (++batchesSeen === 3) throw new Error('disk full');
          committed.push(...rs.map((r) => r.caseId));
        },
        onEvent: (e) => {
          if (e.type === 'case') counted.push(e.result.caseId);
        },
      }),
    ).rejects.toThrow('disk full');
    expect(counted).toEqual(committed);
    expect(counted.length).toBeGreaterThanOrEqual(2);
    expect(counted.length).toBeLessThan(cases.length);
  });

  it('empties a draining queue as it sends, holding only the cases in flight', async () => {
    const given: (TypedDecisionsCase | undefined)[] = [...cases];
    const heldWhenSent: number[] = [];
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const events: RunnerEvent[] = [];
    const out = await runBenchmark({
      cases: drainingQueue(given),
      client: client(async () => {
        heldWhenSent.push(given.filter((c) => c !== undefined).length);
        await tick();
      }, counter),
      parallel: 3,
      failureOf,
      isRunStopping,
      now,
      onEvent: (e) => events.push(e),
    });
    expect(events[0]).toEqual({ type: 'started', cases: 20, decisions: 40 });
    expect(out.results.map((r) => r.caseId)).toEqual(cases.map((c) => c.id));
    // The n-th request sent: the queue still holds the cases not yet taken.
    expect(heldWhenSent).toEqual(Array.from({ length: 20 }, (_, n) => 19 - n));
    expect(given.every((c) => c === undefined)).toBe(true);
  });

  it('rejects a parallelism below 1', async () => {
    const counter = { calls: 0, inFlight: 0, maxInFlight: 0 };
    await expect(
      runBenchmark({ cases, client: client(tick, counter), parallel: 0, failureOf, isRunStopping, now }),
    ).rejects.toThrow('parallel');
  });
});
