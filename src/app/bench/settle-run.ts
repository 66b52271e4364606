/**
 * What becomes of a run once sending is over: stopped early (deleted, or kept incomplete),
 * or finished (complete, or interrupted by Ctrl+C), kept in the store or not, and summed from
 * the cases counted while sending or read back from the store. A pure decision: the caller
 * applies it to the store and writes the outputs.
 */
import { optionMention, said, words, type Said } from '../../core/message-words.js';
import { FAILURE_STREAK } from '../../core/failure-streak.js';
import { failureOf } from '../../protocol/client/client.js';
import type { RunOutcome } from '../../runner/run-benchmark.js';

export interface SendingOver {
  /** Why the runner stopped early, or null when every case was sent. */
  readonly stopped: RunOutcome['stopped'];
  readonly finishedCases: number;
  readonly answeredCases: number;
  /** The run is a stored one continued (`--resume`). */
  readonly resumed: boolean;
  /** The run has an id already: resumed, or made when its first cases were saved. */
  readonly hasId: boolean;
  readonly hasStore: boolean;
  /** A `--retry-failed` resume. */
  readonly retryFailed: boolean;
  /** The per-request timeout, named when the first requests all timed out. */
  readonly timeoutMs: number;
}

export type Settlement =
  | ({
      readonly kind: 'stopped';
      /** `delete`: a new run that never reached a decision model is no run; `incomplete`: kept as such. */
      readonly record: 'delete' | 'incomplete' | 'none';
      /** Sum the kept run from the store rather than from the cases counted while sending. */
      readonly sumFromStore: boolean;
    } & Said)
  | {
      readonly kind: 'finished';
      /** Stopped by the caller (Ctrl+C) before every case was sent. */
      readonly interrupted: boolean;
      /** The run is kept in the store (finished there, its statistics saved). */
      readonly keep: boolean;
      readonly sumFromStore: boolean;
    };

export function settleRun(over: SendingOver): Settlement {
  const { stopped } = over;
  // A --retry-failed resume stopped before it re-sent every failed case: the ones not re-sent
  // are still stored (failed) but were never counted here, so the run is summed from the store.
  const sumFromStore = over.hasStore && over.retryFailed && stopped !== null;
  if (stopped !== null && stopped.reason !== 'aborted') {
    // A server that accepts connections may answer later (a slow model): its run is kept
    // to resume, where a server that refused every first case is no run.
    const keepUnanswered = over.resumed || stopped.reason === 'timeouts';
    const record = !over.hasId ? 'none' : !keepUnanswered && over.answeredCases === 0 ? 'delete' : 'incomplete';
    const why =
      stopped.reason === 'rejected'
        ? words`${over.finishedCases === 1 ? 'the server rejected the only request' : `the server rejected the first ${over.finishedCases} requests the same way`}: ${failureOf(stopped.error).message} (check ${optionMention('model')} and the server's log)`
        : stopped.reason === 'timeouts'
          ? words`the first ${FAILURE_STREAK} requests all timed out (no answer within ${over.timeoutMs / 1000} s each): the server accepts connections but does not answer`
          : words`${stopped.error instanceof Error ? stopped.error : String(stopped.error)}`;
    return { kind: 'stopped', record, sumFromStore, ...said(why) };
  }
  const interrupted = stopped?.reason === 'aborted';
  // A new run stopped (Ctrl+C) before any of its cases finished keeps nothing: no empty run
  // is stored for a resume that would start from nothing anyway.
  const keep = over.hasStore && !(interrupted && !over.hasId);
  return { kind: 'finished', interrupted, keep, sumFromStore };
}
