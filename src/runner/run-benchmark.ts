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
  | { readonly type: 'stopping'; readonly reason: StopReason; readonly message: string };

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
}

/**
 * Sends one request per case, `parallel` at a time, and scores each answer. It never
 * prints or saves: progress goes out as events, finished cases through `onCase`.
 */
export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunOutcome> {
  if (!Number.isInteger(options.parallel) || options.parallel < 1)
    throw new OptionError(
      'parallel',
      words`${option('parallel')} must be an integer >= 1, got ${String(options.parallel)}`,
    );
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
    setMaxListeners(Math.max(10, options.parallel + 8), this.inFlight.signal);
    this.rejectionStreak = createFailureStreak(Math.min(REJECTION_STREAK, this.cases.length));
  }

  async run(): Promise<RunOutcome> {
    const { options, cases } = this;
    if (options.signal?.aborted) this.onAbort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
    options.onEvent?.({ type: 'started', cases: cases.length, decisions: this.decisionsTotal });
    try {
      const workers = Math.min(options.parallel, Math.max(cases.length, 1));
      await Promise.all(Array.from({ length: workers }, () => this.worker()));
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
  }

  /** A checkpoint or the case queue failed: the run stops and the error propagates. */
  private failed(error: unknown): void {
    this.callbackError ??= { error };
    this.inFlight.abort(error);
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
    const run = (resolve: () => void) => {
      // A batch still being checkpointed goes first; this one keeps gathering until then.
      if (this.committing !== null) void this.committing.then(() => run(resolve));
      else {
        this.flush();
        resolve();
      }
    };
    const waitMs = this.options.groupCommitMs ?? 0;
    this.flushing ??= new Promise<void>((resolve) =>
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
