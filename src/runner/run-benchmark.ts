import { setMaxListeners } from 'node:events';
import type { TypedDecisionsCase, CaseResult, Failure, PredictedAnswers } from '../core/typed-decisions/case-result.js';
import { scoreCase } from '../core/typed-decisions/case-result.js';
import type { RunProgress } from '../core/bench/progress.js';
import type { QuestionSet } from '../core/question.js';
import { arrayCaseReader } from '../datasets/typed-decisions/case-reader.js';

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
 * say), so every other case would be too; `aborted`: the caller stopped it.
 */
export type StopReason = 'unsupported' | 'rejected' | 'aborted';

/** How many first cases rejected with one same message stop the run. */
export const REJECTION_STREAK = 5;

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
  /** Maps a thrown client error to the failure of its case. */
  readonly failureOf: (error: unknown) => Failure;
  /** Time the failing request itself took, when the error knows it (retry waits excluded). */
  readonly elapsedMsOf?: (error: unknown) => number | null;
  /** True for errors that end the whole run (the server does not serve decision models). */
  readonly isRunStopping: (error: unknown) => boolean;
  /**
   * True for a rejection about one case only (a body over the server's cap): it never counts
   * toward the first cases "all rejected the same way". Default: none is.
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
  /** Monotonic clock in ms. */
  readonly now: () => number;
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
  const { client, now } = options;
  const cases = 'take' in options.cases ? options.cases : drainingQueue([...options.cases]);
  if (!Number.isInteger(options.parallel) || options.parallel < 1)
    throw new RangeError(`parallel must be an integer >= 1, got ${options.parallel}`);
  const started = now();
  const decisionsTotal = cases.decisions;
  const keep = options.keepResults !== false;
  const finished: (CaseResult | undefined)[] = keep ? new Array(cases.length) : [];
  const inFlight = new AbortController();
  // Every request in flight listens to this one signal.
  setMaxListeners(Math.max(10, options.parallel + 8), inFlight.signal);
  let stopped: RunOutcome['stopped'] = null;
  let callbackError: { error: unknown } | null = null;
  let next = 0;
  let casesDone = 0;
  let decisionsDone = 0;
  let errors = 0;
  // The first finished cases, while they are all rejected with one same message.
  let rejectionStreak: { message: string; count: number } | null = { message: '', count: 0 };
  const streakTarget = Math.min(REJECTION_STREAK, cases.length);

  const stop = (reason: StopReason, error: unknown) => {
    if (stopped || callbackError) return;
    stopped = { reason, error };
    options.onEvent?.({ type: 'stopping', reason, message: error instanceof Error ? error.message : String(error) });
    inFlight.abort(error);
  };
  const onAbort = () => stop('aborted', options.signal?.reason ?? new Error('aborted'));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  options.onEvent?.({ type: 'started', cases: cases.length, decisions: decisionsTotal });

  // Cases that finished in one turn of the event loop are checkpointed together (one
  // transaction, one fsync) and only then counted.
  let pending: Array<{ index: number; result: CaseResult }> = [];
  // Typed by assertion so that the awaits below see what the closures may have set.
  let flushing = null as Promise<void> | null;
  // The checkpoint of the batch before, while it is still being committed (async checkpoints).
  let committing = null as Promise<void> | null;
  const failed = (error: unknown) => {
    callbackError ??= { error };
    inFlight.abort(error);
  };
  const count = (batch: Array<{ index: number; result: CaseResult }>) => {
    for (const { index, result } of batch) {
      if (keep) finished[index] = result;
      casesDone++;
      decisionsDone += result.decisions.length;
      if (result.request.status === 'failed') errors++;
      options.onEvent?.({
        type: 'case',
        result,
        progress: {
          casesDone,
          casesTotal: cases.length,
          decisionsDone,
          decisionsTotal,
          errors,
          elapsedMs: now() - started,
        },
      });
    }
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    flushing = null;
    if (batch.length === 0 || callbackError) return;
    let checkpointed: void | Promise<void>;
    try {
      checkpointed = options.checkpoint?.(batch.map((b) => b.result));
    } catch (error) {
      failed(error);
      return;
    }
    if (!(checkpointed instanceof Promise)) {
      count(batch);
      return;
    }
    const done: Promise<void> = checkpointed.then(
      () => {
        if (committing === done) committing = null;
        if (!callbackError) count(batch);
      },
      (error: unknown) => {
        if (committing === done) committing = null;
        failed(error);
      },
    );
    committing = done;
  };
  const finish = (index: number, result: CaseResult) => {
    pending.push({ index, result });
    const run = (resolve: () => void) => {
      // A batch still being checkpointed goes first; this one keeps gathering until then.
      if (committing !== null) void committing.then(() => run(resolve));
      else {
        flush();
        resolve();
      }
    };
    const waitMs = options.groupCommitMs ?? 0;
    flushing ??= new Promise<void>((resolve) =>
      waitMs > 0 ? setTimeout(() => run(resolve), waitMs) : setImmediate(() => run(resolve)),
    );
  };

  const worker = async () => {
    while (!stopped && !callbackError) {
      let benchCase: TypedDecisionsCase | undefined;
      try {
        const taken = cases.take();
        // A case at hand is sent in this same turn (no await), as before the queue could wait.
        benchCase = taken instanceof Promise ? await taken : taken;
      } catch (error) {
        failed(error);
        return;
      }
      if (benchCase === undefined || stopped || callbackError) return;
      const index = next++;
      const t0 = now();
      try {
        const answer = await client.decide(benchCase.state, benchCase.questions, inFlight.signal);
        if (stopped || callbackError) return;
        rejectionStreak = null;
        finish(
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
        if (stopped || callbackError) return;
        if (options.isRunStopping(error)) {
          stop('unsupported', error);
          return;
        }
        const failure = options.failureOf(error);
        finish(
          index,
          scoreCase(benchCase, { status: 'failed', failure, latencyMs: options.elapsedMsOf?.(error) ?? now() - t0 }),
        );
        if (
          rejectionStreak !== null &&
          failure.kind === 'request_rejected' &&
          options.isCaseSpecificRejection?.(error) !== true
        ) {
          if (rejectionStreak.count > 0 && rejectionStreak.message !== failure.message) rejectionStreak = null;
          else rejectionStreak = { message: failure.message, count: rejectionStreak.count + 1 };
          if (rejectionStreak !== null && rejectionStreak.count >= streakTarget) stop('rejected', error);
        } else {
          rejectionStreak = null;
        }
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(options.parallel, Math.max(cases.length, 1)) }, worker));
    await flushing;
    await committing;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (callbackError) throw (callbackError as { error: unknown }).error;
  return {
    results: finished.filter((r): r is CaseResult => r !== undefined),
    finishedCases: casesDone,
    answeredCases: casesDone - errors,
    stopped,
    durationMs: now() - started,
  };
}
