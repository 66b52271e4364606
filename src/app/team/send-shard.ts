/**
 * One shard sent by a worker: the shard's cases not saved yet (an earlier holder of the
 * shard may have saved some before it died) read from the run's dataset, sent through the
 * bench runner, and each finished batch saved to the store before it counts. The save is
 * synchronous on purpose: at any moment, the requests a worker sent whose answers are not
 * in the store are only those in flight (at most `--parallel`), which is all a worker
 * killed outright can cause to be sent twice. The lease is renewed while sending; a lease
 * lost (the worker was stalled past it and another took the shard) stops the send at once.
 */
import type { RunProgress } from '../../core/bench/progress.js';
import { DecidekitError } from '../../core/errors.js';
import type { RunConfig } from '../../core/bench/run.js';
import type { SystemOneClient } from '../../protocol/client/client.js';
import type { ScannedBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import type { CaseEntry } from '../../datasets/typed-decisions/scan-cases.js';
import { runBenchmark, type StopReason } from '../../runner/run-benchmark.js';
import type { ShardQueue, TakenShard } from '../../store/queue/shard-queue.js';
import type { Store } from '../../store/store.js';

/** What a worker keeps of a run while it sends its shards: read once a run, not once a shard. */
export interface RunSetup {
  readonly config: RunConfig;
  readonly dataset: Pick<ScannedBenchDataset, 'readCases'>;
  readonly entryOf: ReadonlyMap<string, CaseEntry>;
  readonly client: SystemOneClient;
  readonly close: () => Promise<void>;
}

export type ShardEnd =
  | { readonly kind: 'sent'; readonly cases: number }
  /** Ctrl+C: what finished is saved, the rest goes back to the queue. */
  | { readonly kind: 'interrupted'; readonly cases: number }
  /** The lease ran out before it could be renewed: another worker has the shard now. */
  | { readonly kind: 'lease-lost'; readonly cases: number }
  /** The server ended the send (not a decision model, key refused, nothing listening …). */
  | { readonly kind: 'stopped'; readonly cases: number; readonly reason: StopReason; readonly error: unknown };

export interface SendShardInput {
  readonly store: Store;
  readonly queue: ShardQueue;
  readonly shard: TakenShard;
  readonly setup: RunSetup;
  readonly parallel: number;
  readonly leaseSec: number;
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly onCase?: (progress: RunProgress) => void;
}

export async function sendShard(input: SendShardInput): Promise<ShardEnd> {
  const { store, queue, shard, setup } = input;
  const { runId } = shard.data;
  // Cases saved by an earlier holder of the shard are not sent again (failed ones too, unless retried).
  const kept =
    shard.data.retryFailed === true
      ? store.cases.byOutcome(runId).answered
      : store.cases.savedIds(runId, { includeFailed: true });
  const entries = shard.data.caseIds.filter((id) => !kept.has(id)).map((id) => entryOf(setup, id, runId));
  if (entries.length === 0) return { kind: 'sent', cases: 0 };
  const reader = setup.dataset.readCases(entries, { bufferCases: Math.max(64, input.parallel * 4) });
  const leaseLost = new AbortController();
  const stop = AbortSignal.any([input.signal, leaseLost.signal]);
  // Renewed three times a lease: one late renewal still keeps it.
  const renewing = setInterval(
    () =>
      void queue.renew(shard, input.leaseSec).then(
        (ok) => ok || leaseLost.abort(),
        () => undefined,
      ),
    (input.leaseSec * 1000) / 3,
  );
  // A case is taken only while fewer than `parallel` taken cases are unsaved: the runner
  // sends the next case before the finished one's checkpoint (the turn after), and a worker
  // killed in between would leave one more answered case unsaved than it has requests in flight.
  let taken = 0;
  let saved = 0;
  let waiting: (() => void)[] = [];
  const wake = () => {
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  stop.addEventListener('abort', wake, { once: true });
  const take = async () => {
    while (taken - saved >= input.parallel && !stop.aborted)
      await new Promise<void>((resolve) => waiting.push(resolve));
    if (stop.aborted) return undefined;
    taken++;
    return reader.take();
  };
  try {
    const outcome = await runBenchmark({
      cases: {
        length: entries.length,
        decisions: entries.reduce((n, e) => n + e.questions, 0),
        take,
      },
      client: setup.client,
      parallel: input.parallel,
      signal: stop,
      now: input.now,
      keepResults: false,
      checkpoint: (results) => {
        try {
          store.cases.save(runId, results);
          saved += results.length;
        } finally {
          wake();
        }
      },
      onEvent: (e) => {
        if (e.type === 'case') input.onCase?.(e.progress);
      },
    });
    const cases = outcome.finishedCases;
    if (outcome.stopped === null) return { kind: 'sent', cases };
    if (outcome.stopped.reason === 'aborted')
      return { kind: leaseLost.signal.aborted && !input.signal.aborted ? 'lease-lost' : 'interrupted', cases };
    return { kind: 'stopped', cases, reason: outcome.stopped.reason, error: outcome.stopped.error };
  } finally {
    clearInterval(renewing);
    reader.close();
  }
}

function entryOf(setup: RunSetup, id: string, runId: string): CaseEntry {
  const entry = setup.entryOf.get(id);
  if (entry === undefined)
    throw new DecidekitError(
      'not_resumable',
      `cannot send run ${runId}: case ${JSON.stringify(id)} is not in the dataset this worker read`,
    );
  return entry;
}
