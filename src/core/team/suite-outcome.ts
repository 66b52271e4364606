/**
 * What a suite did, as its renderers read it: each job's run, each dataset's leaderboard, the
 * paired comparisons against the baseline and the gate's checks. The numbers come from the
 * runs' own comparisons (`runs compare`, `runs gate`); this only gathers them.
 */
import type { LeaderboardRow } from '../bench/leaderboard.js';
import type { RunComparison } from '../bench/run-diff.js';
import type { GateResult } from '../bench/run-gate.js';
import type { StoredStatus } from '../run-status.js';
import type { Conventions } from '../stats/conventions.js';
import type { MessageWords } from '../message-words.js';
import type { Suite, SuiteJob } from './suite.js';

/** How one job ended. */
export type SuiteJobRun =
  | {
      /** A run finished (complete, or kept as interrupted / incomplete), or was reused as it was. */
      readonly kind: 'run';
      readonly runId: string;
      readonly status: StoredStatus;
      /** Found finished in the store (`--resume`): nothing was sent. */
      readonly reused: boolean;
      /** An unfinished run of an earlier try, continued. */
      readonly resumed: boolean;
    }
  | {
      /** Nothing more was sent (the server refused, or answered nothing usable); the run, if kept, is incomplete. */
      readonly kind: 'stopped';
      readonly runId: string | null;
      readonly words: MessageWords;
    }
  /** Never started: the suite was interrupted first. */
  | { readonly kind: 'not_started' };

export interface SuiteJobResult {
  readonly job: SuiteJob;
  readonly run: SuiteJobRun;
}

/** One dataset's complete runs ranked (two or more), or why they could not be. */
export type SuiteLeaderboard =
  | {
      readonly kind: 'ranked';
      readonly dataset: string;
      readonly rows: readonly LeaderboardRow[];
      readonly conventions: Conventions;
      readonly cases: number;
    }
  | { readonly kind: 'refused'; readonly dataset: string; readonly words: MessageWords };

/** A model's run against the baseline's on one dataset, paired; with the gate's verdict when there is a gate. */
export type SuiteComparison =
  | {
      readonly kind: 'compared';
      readonly dataset: string;
      readonly baseline: string;
      readonly candidate: string;
      readonly comparison: RunComparison;
      readonly gate: GateResult | null;
    }
  /** The runs could not be compared (one is missing or unfinished, or they measured different work): the gate fails. */
  | {
      readonly kind: 'refused';
      readonly dataset: string;
      readonly baseline: string;
      readonly candidate: string;
      readonly words: MessageWords;
    };

export interface SuiteOutcome {
  readonly suite: Suite;
  readonly jobs: readonly SuiteJobResult[];
  readonly leaderboards: readonly SuiteLeaderboard[];
  readonly comparisons: readonly SuiteComparison[];
  /** Null without a gate; else whether every comparison passed it. */
  readonly gatePassed: boolean | null;
  /** Every job's run is complete. */
  readonly allComplete: boolean;
  readonly interrupted: boolean;
}

/** Whether the gate passes: every comparison made and passed. */
export function suiteGatePasses(comparisons: readonly SuiteComparison[]): boolean {
  return comparisons.every((c) => c.kind === 'compared' && c.gate !== null && c.gate.pass);
}
