/**
 * `runs check` for one run, the same in every adapter: its records re-checked against its
 * summary (`run-records-check.ts`), its rows against the digest written with them, its case
 * set against its case positions. An adapter gives the reads; the findings are worded here.
 */
import { checkRunRecords } from './run-records-check.js';
import { StoreDamagedError } from './store-errors.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import type { RunCheck, StoredRunInfo } from './stored-run.js';

/** What an adapter reads for one run's check (inside one read transaction). */
export interface RunCheckReads {
  /** The run's head row, as stored. */
  readonly head: {
    /** Null for a status no adapter writes. */
    readonly status: RunCheck['status'];
    readonly savedCases: number;
    readonly stored: Parameters<typeof checkRunRecords>[1];
  };
  info(): StoredRunInfo;
  cases(): Iterator<CaseResult>;
  /** Ids of the cases whose rows no longer match the digest written with them. */
  changedCases(): string[];
  /** Up to six saved cases outside the run's case set. */
  outsideCaseSet(): string[];
  /** How many case positions are stored. */
  plannedCount(): number;
  /** A failure met while reading, as the adapter words it (a `StoreDamagedError` when the store is damaged). */
  damage(err: unknown): unknown;
}

/** What `runs.check` finds for one run. */
export function checkStoredRun(id: string, reads: RunCheckReads): RunCheck {
  const { head } = reads;
  const base = { id, status: head.status, savedCases: head.savedCases };
  try {
    // The cases are read as they are checked (twice: their records, then the summary).
    const info = reads.info();
    const configured = info.config.caseIds.length;
    const source = { length: head.savedCases, [Symbol.iterator]: () => reads.cases() };
    const problems = checkRunRecords({ ...info, cases: source }, head.stored);
    problems.push(...changedCasesProblem(reads.changedCases()));
    const outside = reads.outsideCaseSet();
    if (outside.length > 0) problems.push(`saved cases outside the run's case set: ${outside.join(', ')}`);
    const planned = reads.plannedCount();
    if (planned !== configured)
      problems.push(`${planned} case positions stored for ${configured} cases in the configuration`);
    return { ...base, problems };
  } catch (err) {
    const damage = reads.damage(err);
    if (!(damage instanceof StoreDamagedError)) throw damage;
    // The run is named on the line above its problems.
    const ownPrefix = `run ${id}: `;
    return {
      ...base,
      problems: [damage.detail.startsWith(ownPrefix) ? damage.detail.slice(ownPrefix.length) : damage.detail],
    };
  }
}

function changedCasesProblem(changed: readonly string[]): string[] {
  return changed.length === 0
    ? []
    : [
        `${changed.length} case${changed.length === 1 ? '' : 's'} changed since saved (their stored rows no longer match their digest): ${changed.slice(0, 10).join(', ')}${changed.length > 10 ? ` and ${changed.length - 10} more` : ''}`,
      ];
}

/** Each run's check; a run whose records cannot be read has that as its problem. */
export function checkEachRun(runs: { check(id: string): RunCheck }, ids: readonly string[]): RunCheck[] {
  return ids.map((id) => {
    try {
      return runs.check(id);
    } catch (err) {
      if (!(err instanceof StoreDamagedError)) throw err;
      return { id, status: null, savedCases: 0, problems: [err.detail] };
    }
  });
}
