import { setMaxListeners } from 'node:events';
import type { TypedDecisionsCase, CaseResult, Failure, PredictedAnswers } from '../core/typed-decisions/case-result.js';
import { scoreCase } from '../core/typed-decisions/case-result.js';
import type { RunProgress } from '../core/bench/progress.js';
import type { QuestionSet } from '../core/question.js';
import { arrayCaseReader } from '../datasets/typed-decisions/case-reader.js';
import { FAILURE_STREAK, createFailureStreak, type FailureStreak } from '../core/failure-streak.js';
import { OptionError } from '../core/errors.js';
import { optionMention as option, words } from '../core/message-words.js';
import { elapsedMsOf, failureOf, isCaseSpecificRejection, isRunStopping } from '../protocol/client/client.js';
import {
  REPLICA_STREAK,
  ReplicaLane,
  replicaFailureOf,
  withReplica,
  type HeldCase,
  type Replica,
  type SetAsideReplica,
  type TakenCase,
} from './replica-lanes.js';

export type { Replica, SetAsideReplica } from './replica-lanes.js';

/** What the runner needs of a System One client. */
export interface DecisionClient {
  decide(
    state: string | object,
    questions: QuestionSet,
    signal?: AbortSignal,
  ): Promise<{
    readonly predicted: PredictedAnswers;
    readonly inputTokens: number | null;
    readonly latencyMs: number;
    /** The model the response named, if any. */
    readonly model?: string | null;
  }>;
}

export type RunnerEvent =
  | { readonly type: 'started'; readonly cases: number; readonly decisions: number }
  | { readonly type: 'case'; readonly result: CaseResult; readonly progress: RunProgress }
  | { readonly type: 'stopping'; readonly reason: StopReason; readonly message: string }
  | ({ readonly type: 'set-aside' } & SetAsideReplica);

export type { RunProgress } from '../core/bench/progress.js';

/**
 * `unsupported`: an error that ends the run (no decision model there, bad key, nothing
 * listening); `rejected`: the first cases were all rejected the same way (a wrong model name,
 * say), so every other case would be too; `timeouts`: the first cases all timed out (a server
 * that accepts connections and never answers); `aborted`: the caller stopped it.
 */
export type StopReason = 'unsupported' | 'rejected' | 'timeouts' | 'aborted';

/** How many first cases rejected with one same message stop the run (the shared stop rule's length). */
export const REJECTION_STREAK = FAILURE_STREAK;

/**
 * Cases handed to the runner one at a time: once it took a case it is the only holder, so
 * a sent case is garbage as soon as it is scored (a large dataset is not kept for the run).
 */
export interface CaseQueue {
  readonly length: number;
  /** Decisions over all the cases (questions per case, summed). */
  readonly decisions: number;
  /**
   * The next case, or undefined when every case was taken; a promise while the case is still
   * being read (a rejection ends the run with that error, as a failed checkpoint does).
   */
  take(): TypedDecisionsCase | undefined | Promise<TypedDecisionsCase | undefined>;
}

/**
 * A queue over `cases` that empties each slot as it hands the case out; the caller gives
 * the array up (it ends empty).
 */
export function drainingQueue(cases: (TypedDecisionsCase | undefined)[]): CaseQueue {
  return {
    length: cases.length,
    decisions: cases.reduce((n, c) => n + (c?.questions.length ?? 0), 0),
    take: arrayCaseReader(cases).take,
  };
}

export interface RunBenchmarkOptions {
  /** An array (kept by the caller), or a queue the runner empties as it sends. */
  readonly cases: readonly TypedDecisionsCase[] | CaseQueue;
  readonly client: DecisionClient;
  /** Requests in flight (>= 1). */
  readonly parallel: number;
  /**
   * Several servers of the same model (two or more): each takes the next case when it has
   * room for one, `client` and `parallel` are then not used. Every case records the replica
   * that answered; a replica that fails is set aside and its cases go to the others (the last
   * one left is never set aside: it fails as one server would).
   */
  readonly replicas?: readonly Replica[];
  /**
   * Maps a thrown client error to the failure of its case. Default: the System One client's
   * (`failureOf`), which reads its errors and calls anything else a transport failure.
   */
  readonly failureOf?: (error: unknown) => Failure;
  /**
   * Time the failing request itself took, when the error knows it (retry waits excluded).
   * Default: the System One client's errors carry it.
   */
  readonly elapsedMsOf?: (error: unknown) => number | null;
  /**
   * True for errors that end the whole run (the server does not serve decision models).
   * Default: the System One client's (`isRunStopping`).
   */
  readonly isRunStopping?: (error: unknown) => boolean;
  /**
   * True for a rejection about one case only (a body over the server's cap): it never counts
   * toward the first cases "all rejected the same way". Default: the System One client's
   * (a 413 answer).
   */
  readonly isCaseSpecificRejection?: (error: unknown) => boolean;
  /** Aborting it (Ctrl+C) stops the run: nothing new is sent, requests in flight are cancelled. */
  readonly signal?: AbortSignal;
  /**
   * Called with the cases that finished in the same turn of the event loop, before any of
   * them is counted, e.g. to checkpoint them durably in one transaction. It may return a
   * promise (a commit on another thread): the cases are counted once it resolves, and the
   * next batch is handed over only then (it gathers the cases finished meanwhile), so at
   * most one batch is being checkpointed at a time. If it throws or its promise rejects,
   * the run stops and the error propagates.
   */
  readonly checkpoint?: (results: readonly CaseResult[]) => void | Promise<void>;
  /**
   * Gather cases for one checkpoint for up to this long after the first of them finished,
   * instead of only those of one event-loop turn: fewer, larger transactions (a store
   * rewrites its index pages once per commit). The cases wait uncounted meanwhile. Default 0.
   */
  readonly groupCommitMs?: number;
  readonly onEvent?: (event: RunnerEvent) => void;
  /**
   * Keep every finished case for `RunOutcome.results`. Default true; a caller that takes
   * the cases from `checkpoint` or the `case` events passes false, so a run of any size
   * holds none of them.
   */
  readonly keepResults?: boolean;
  /** Monotonic clock in ms. Default `performance.now`. */
  readonly now?: () => number;
}

export interface RunOutcome {
  /** Finished cases in the order of `cases` (empty with `keepResults: false`). */
  readonly results: readonly CaseResult[];
  /** Cases finished (checkpointed and counted), answered or failed. */
  readonly finishedCases: number;
  /** Finished cases whose request was answered. */
  readonly answeredCases: number;
  /** Why the run stopped early, or null when every case was sent. */
  readonly stopped: { readonly reason: StopReason; readonly error: unknown } | null;
  readonly durationMs: number;
  /** The replicas set aside during the run, in the order they were (none on one server). */
  readonly setAside: readonly SetAsideReplica[];
}

/**
 * Sends one request per case, `parallel` at a time, and scores each answer. It never
 * prints or saves: progress goes out as events, finished cases through `onCase`.
 */
export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunOutcome> {
  for (const parallel of [options.parallel, ...(options.replicas ?? []).map((r) => r.parallel)])
    if (!Number.isInteger(parallel) || parallel < 1)
      throw new OptionError('parallel', words`${option('parallel')} must be an integer >= 1, got ${String(parallel)}`);
  return new BenchmarkRun(options).run();
}

type FinishedCase = { index: number; result: CaseResult };

/** One run of `runBenchmark`: its counters, its checkpoint batches and its workers. */
class BenchmarkRun {
  private readonly options: RunBenchmarkOptions;
  private readonly now: () => number;
  private readonly failureOf: (error: unknown) => Failure;
  private readonly isRunStopping: (error: unknown) => boolean;
  private readonly elapsedMsOf: (error: unknown) => number | null;
  private readonly isCaseSpecificRejection: (error: unknown) => boolean;
  private readonly cases: CaseQueue;
  private readonly started: number;
  private readonly decisionsTotal: number;
  private readonly keep: boolean;
  private readonly finished: (CaseResult | undefined)[];
  private readonly inFlight = new AbortController();
  private stopped: RunOutcome['stopped'] = null;
  private callbackError: { error: unknown } | null = null;
  private next = 0;
  private casesDone = 0;
  private decisionsDone = 0;
  private errors = 0;
  // The first finished cases, while they are all rejected with one same message.
  private readonly rejectionStreak: FailureStreak;
  // The first finished cases, while they all time out (the stop rule probe and audit share).
  private readonly timeoutStreak: FailureStreak = createFailureStreak(FAILURE_STREAK);
  // Cases that finished in one turn of the event loop are checkpointed together (one
  // transaction, one fsync) and only then counted.
  private pending: FinishedCase[] = [];
  private flushing: Promise<void> | null = null;
  // The checkpoint of the batch before, while it is still being committed (async checkpoints).
  private committing: Promise<void> | null = null;
  // With replicas: their lanes, the cases given back by a replica set aside, the requests in
  // flight, and the workers waiting for one of those to change.
  private readonly lanes: ReplicaLane[];
  private readonly setAside: SetAsideReplica[] = [];
  private readonly retry: TakenCase[] = [];
  private sending = 0;
  private waiting: (() => void)[] = [];
  private readonly onAbort = () => this.stop('aborted', this.options.signal?.reason ?? new Error('aborted'));

  constructor(options: RunBenchmarkOptions) {
    this.options = options;
    this.now = options.now ?? (() => performance.now());
    this.failureOf = options.failureOf ?? failureOf;
    this.isRunStopping = options.isRunStopping ?? isRunStopping;
    this.elapsedMsOf = options.elapsedMsOf ?? elapsedMsOf;
    this.isCaseSpecificRejection = options.isCaseSpecificRejection ?? isCaseSpecificRejection;
    this.cases = 'take' in options.cases ? options.cases : drainingQueue([...options.cases]);
    this.started = this.now();
    this.decisionsTotal = this.cases.decisions;
    this.keep = options.keepResults !== false;
    this.finished = this.keep ? new Array(this.cases.length) : [];
    // Every request in flight listens to this one signal.
    this.lanes = (options.replicas ?? []).map((r) => new ReplicaLane(r));
    const inFlight = this.lanes.length > 0 ? this.lanes.reduce((n, l) => n + l.replica.parallel, 0) : options.parallel;
    setMaxListeners(Math.max(10, inFlight + 8), this.inFlight.signal);
    this.rejectionStreak = createFailureStreak(Math.min(REJECTION_STREAK, this.cases.length));
  }

  async run(): Promise<RunOutcome> {
    const { options, cases } = this;
    if (options.signal?.aborted) this.onAbort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
    options.onEvent?.({ type: 'started', cases: cases.length, decisions: this.decisionsTotal });
    try {
      if (this.lanes.length > 0) await this.sendToReplicas();
      else {
        const workers = Math.min(options.parallel, Math.max(cases.length, 1));
        await Promise.all(Array.from({ length: workers }, () => this.worker()));
      }
      await this.flushing;
      await this.committing;
    } finally {
      options.signal?.removeEventListener('abort', this.onAbort);
    }
    if (this.callbackError) throw this.callbackError.error;
    return {
      results: this.finished.filter((r): r is CaseResult => r !== undefined),
      finishedCases: this.casesDone,
      answeredCases: this.casesDone - this.errors,
      stopped: this.stopped,
      durationMs: this.now() - this.started,
      setAside: this.setAside,
    };
  }

  private get ending(): boolean {
    return this.stopped !== null || this.callbackError !== null;
  }

  private stop(reason: StopReason, error: unknown): void {
    if (this.ending) return;
    this.stopped = { reason, error };
    const message = error instanceof Error ? error.message : String(error);
    this.options.onEvent?.({ type: 'stopping', reason, message });
    this.inFlight.abort(error);
    this.wake();
  }

  /** A checkpoint or the case queue failed: the run stops and the error propagates. */
  private failed(error: unknown): void {
    this.callbackError ??= { error };
    this.inFlight.abort(error);
    this.wake();
  }

  /** Takes cases and sends them, one at a time, until none is left or the run stops. */
  private async worker(): Promise<void> {
    const { cases, options } = this;
    while (!this.ending) {
      let benchCase: TypedDecisionsCase | undefined;
      try {
        const taken = cases.take();
        // A case at hand is sent in this same turn (no await), as before the queue could wait.
        benchCase = taken instanceof Promise ? await taken : taken;
      } catch (error) {
        this.failed(error);
        return;
      }
      if (benchCase === undefined || this.ending) return;
      const index = this.next++;
      const t0 = this.now();
      try {
        const answer = await options.client.decide(benchCase.state, benchCase.questions, this.inFlight.signal);
        if (this.ending) return;
        this.rejectionStreak.broken();
        this.timeoutStreak.broken();
        this.finish(
          index,
          scoreCase(benchCase, {
            status: 'answered',
            latencyMs: answer.latencyMs,
            inputTokens: answer.inputTokens,
            predicted: answer.predicted,
            model: answer.model ?? null,
          }),
        );
      } catch (error) {
        // A request cancelled because the run is stopping is not a failed case: it was never finished.
        if (this.ending) return;
        if (this.isRunStopping(error)) {
          this.stop('unsupported', error);
          return;
        }
        const failure = this.failureOf(error);
        const latencyMs = this.elapsedMsOf(error) ?? this.now() - t0;
        this.finish(index, scoreCase(benchCase, { status: 'failed', failure, latencyMs }));
        this.noteFailure(failure, error);
      }
    }
  }

  /** Every replica's workers, then the cases still held by a streak that never ended (failed). */
  private async sendToReplicas(): Promise<void> {
    await Promise.all(
      this.lanes.flatMap((lane) => Array.from({ length: lane.replica.parallel }, () => this.replicaWorker(lane))),
    );
    if (this.ending) return;
    for (const lane of this.lanes) this.finishHeld(lane);
  }

  /** Wakes the replica workers waiting for a case to be given back or a request to end. */
  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * The next case for a replica: one given back by a replica set aside, else the queue's next.
   * Undefined when none is left and no request is in flight that could give one back.
   */
  private async takeForReplica(): Promise<TakenCase | undefined> {
    for (;;) {
      if (this.ending) return undefined;
      const again = this.retry.shift();
      if (again !== undefined) return again;
      const taken = this.cases.take();
      const benchCase = taken instanceof Promise ? await taken : taken;
      if (benchCase !== undefined) return { index: this.next++, benchCase };
      if (this.retry.length > 0) continue;
      if (this.sending === 0) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Takes cases and sends them to one replica until none is left, the replica is set aside or the run stops. */
  private async replicaWorker(lane: ReplicaLane): Promise<void> {
    while (!this.ending && !lane.setAside) {
      let taken: TakenCase | undefined;
      try {
        taken = await this.takeForReplica();
      } catch (error) {
        this.failed(error);
        return;
      }
      if (taken === undefined || this.ending) return;
      if (lane.setAside) {
        this.giveBack([taken]);
        return;
      }
      const { index, benchCase } = taken;
      const t0 = this.now();
      this.sending++;
      try {
        const answer = await lane.replica.client.decide(benchCase.state, benchCase.questions, this.inFlight.signal);
        if (this.ending) return;
        this.rejectionStreak.broken();
        this.timeoutStreak.broken();
        this.finishHeld(lane);
        const result = scoreCase(benchCase, {
          status: 'answered',
          latencyMs: answer.latencyMs,
          inputTokens: answer.inputTokens,
          predicted: answer.predicted,
          model: answer.model ?? null,
        });
        lane.answered++;
        this.finish(index, withReplica(result, lane.name));
      } catch (error) {
        if (this.ending) return;
        const failure = this.failureOf(error);
        const latencyMs = this.elapsedMsOf(error) ?? this.now() - t0;
        const result = withReplica(scoreCase(benchCase, { status: 'failed', failure, latencyMs }), lane.name);
        this.replicaFailed(lane, { index, benchCase, result, failure, error });
      } finally {
        this.sending--;
        this.wake();
      }
    }
  }

  /** A request failed on a replica: the replica set aside, the case held in its streak, or the case failed. */
  private replicaFailed(lane: ReplicaLane, failed: HeldCase): void {
    if (lane.setAside) {
      this.giveBack([failed]);
      return;
    }
    const runStopping = this.isRunStopping(failed.error);
    const others = this.lanes.some((l) => l !== lane && !l.setAside);
    const kind = others ? replicaFailureOf(failed.failure, runStopping) : 'case';
    if (kind === 'set-aside') {
      this.setReplicaAside(lane, failed.error instanceof Error ? failed.error.message : failed.failure.message);
      this.giveBack([failed]);
      return;
    }
    if (kind === 'held') {
      lane.held.push(failed);
      if (lane.held.length >= REPLICA_STREAK)
        this.setReplicaAside(lane, `${lane.held.length} requests in a row failed (last: ${failed.failure.message})`);
      return;
    }
    this.finishHeld(lane);
    if (runStopping) {
      this.stop('unsupported', failed.error);
      return;
    }
    this.finish(failed.index, failed.result);
    this.noteFailure(failed.failure, failed.error);
  }

  /** Nothing more is sent to a replica; its held cases go to the others. */
  private setReplicaAside(lane: ReplicaLane, message: string): void {
    lane.setAside = true;
    const setAside = { replica: lane.name, message, answeredCases: lane.answered };
    this.setAside.push(setAside);
    this.options.onEvent?.({ type: 'set-aside', ...setAside });
    this.giveBack(lane.release());
  }

  /** Cases for another replica to send. */
  private giveBack(cases: readonly TakenCase[]): void {
    for (const { index, benchCase } of cases) this.retry.push({ index, benchCase });
    this.wake();
  }

  /** The streak of a replica ended: its held cases are failures of their own. */
  private finishHeld(lane: ReplicaLane): void {
    for (const held of lane.release()) {
      this.finish(held.index, held.result);
      this.noteFailure(held.failure, held.error);
    }
  }

  /**
   * Follows the first cases while they are all rejected the same way, or all time out; stops
   * the run when enough are.
   */
  private noteFailure(failure: Failure, error: unknown): void {
    if (failure.kind !== 'request_rejected' || this.isCaseSpecificRejection(error)) this.rejectionStreak.broken();
    else if (this.rejectionStreak.failed(failure.message)) this.stop('rejected', error);
    if (failure.kind !== 'timeout') this.timeoutStreak.broken();
    else if (this.timeoutStreak.failed('timeout')) this.stop('timeouts', error);
  }

  /** Queues a finished case for the next checkpoint batch. */
  private finish(index: number, result: CaseResult): void {
    this.pending.push({ index, result });
    if (this.flushing !== null) return;
    const run = (resolve: () => void) => {
      // A batch still being checkpointed goes first; this one keeps gathering until then.
      if (this.committing !== null) void this.committing.then(() => run(resolve));
      else {
        this.flush();
        resolve();
      }
    };
    const waitMs = this.options.groupCommitMs ?? 0;
    this.flushing = new Promise<void>((resolve) =>
      waitMs > 0 ? setTimeout(() => run(resolve), waitMs) : setImmediate(() => run(resolve)),
    );
  }

  /** Checkpoints the gathered batch, then counts it (once its commit resolved, for an async checkpoint). */
  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.flushing = null;
    if (batch.length === 0 || this.callbackError) return;
    let checkpointed: void | Promise<void>;
    try {
      checkpointed = this.options.checkpoint?.(batch.map((b) => b.result));
    } catch (error) {
      this.failed(error);
      return;
    }
    if (!(checkpointed instanceof Promise)) {
      this.count(batch);
      return;
    }
    const done: Promise<void> = checkpointed.then(
      () => {
        if (this.committing === done) this.committing = null;
        if (!this.callbackError) this.count(batch);
      },
      (error: unknown) => {
        if (this.committing === done) this.committing = null;
        this.failed(error);
      },
    );
    this.committing = done;
  }

  /** Counts a checkpointed batch and reports each of its cases. */
  private count(batch: FinishedCase[]): void {
    for (const { index, result } of batch) {
      if (this.keep) this.finished[index] = result;
      this.casesDone++;
      this.decisionsDone += result.decisions.length;
      if (result.request.status === 'failed') this.errors++;
      this.options.onEvent?.({
        type: 'case',
        result,
        progress: {
          casesDone: this.casesDone,
          casesTotal: this.cases.length,
          decisionsDone: this.decisionsDone,
          decisionsTotal: this.decisionsTotal,
          errors: this.errors,
          elapsedMs: this.now() - this.started,
        },
      });
    }
  }
}
