/**
 * The replicas of one run (several servers of the same model): each its own client and its
 * own requests in flight, all pulling from the run's one queue, so whichever replica is free
 * takes the next case. A replica that fails is set aside and its unfinished cases go back to
 * the queue for the others.
 */
import type { CaseResult, Failure, TypedDecisionsCase } from '../core/typed-decisions/case-result.js';
import { FAILURE_STREAK } from '../core/failure-streak.js';
import type { DecisionClient } from './run-benchmark.js';

/** One server of a run with several. */
export interface Replica {
  /** How the replica is named in the run's records and notes: its URL without credentials. */
  readonly name: string;
  readonly client: DecisionClient;
  /** Its requests in flight (>= 1). */
  readonly parallel: number;
}

/** A replica set aside during a run, and why. */
export interface SetAsideReplica {
  readonly replica: string;
  readonly message: string;
  /** The cases it had answered in this run before it was set aside. */
  readonly answeredCases: number;
}

/** How many server errors or timeouts in a row set a replica aside (the shared stop rule's length). */
export const REPLICA_STREAK = FAILURE_STREAK;

/** A case taken from the queue, with its place in the run. */
export interface TakenCase {
  readonly index: number;
  readonly benchCase: TypedDecisionsCase;
}

/** A case a replica failed with a server error or a timeout, held while its streak lasts. */
export interface HeldCase extends TakenCase {
  readonly result: CaseResult;
  readonly failure: Failure;
  readonly error: unknown;
}

/** What a failed request on a replica means for its case. */
export type ReplicaFailure =
  /** Nothing more is asked of the replica: the case goes to another one. */
  | 'set-aside'
  /** One of a streak that may set the replica aside: the case waits for the streak's end. */
  | 'held'
  /** A failure of the case itself, recorded as on one server. */
  | 'case';

/**
 * How a failure on a replica is taken, when another replica is still sending: a connection
 * that failed or an error that would end a run on one server sets the replica aside at once;
 * a server error or a timeout is held until the streak ends (an answer) or reaches its length.
 */
export function replicaFailureOf(failure: Failure, runStopping: boolean): ReplicaFailure {
  if (runStopping || failure.kind === 'transport') return 'set-aside';
  if (failure.kind === 'http' || failure.kind === 'timeout') return 'held';
  return 'case';
}

/** A replica's state in a run. */
export class ReplicaLane {
  readonly replica: Replica;
  setAside = false;
  /** The cases it answered. */
  answered = 0;
  /** The cases of its current streak of server errors or timeouts. */
  held: HeldCase[] = [];

  constructor(replica: Replica) {
    this.replica = replica;
  }

  get name(): string {
    return this.replica.name;
  }

  /** The held cases, given up (the streak ended). */
  release(): HeldCase[] {
    const held = this.held;
    this.held = [];
    return held;
  }
}

/** A result recorded as coming from `replica`. */
export function withReplica(result: CaseResult, replica: string): CaseResult {
  return { ...result, request: { ...result.request, replica } };
}
