/** What the contract's tests share: the adapter under test, fresh stores per test, a seeded run. */
import { afterEach, beforeEach } from 'vitest';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { RunConfig } from '../../core/bench/run.js';
import { DecidekitError } from '../../core/errors.js';
import { answeredCase, failedCase, rightAnswers, runConfig, wrongAnswers } from '../test-support/run-fixtures.js';
import { summarizeRun } from '../run-summary.js';
import type { Store } from '../store.js';

/** What a store may be opened with in the contract: ids drawn from given bytes. */
export interface ContractOpenOptions {
  readonly randomBytes?: (n: number) => Uint8Array;
}

/** One new, empty store for one test. */
export interface StoreUnderTest {
  /** Opens the store; each call another connection to the same store. */
  open(options?: ContractOpenOptions): Store;
  /** Removes the store after the test (its stores are closed first). */
  dispose?(): void;
}

/** Makes a new, empty store: all an adapter gives the contract. */
export type FreshStore = () => StoreUnderTest;

/**
 * Registers a fresh store for every test of the enclosing `describe`; `open` opens it (again),
 * and every store opened is closed after the test.
 */
export function freshStorePerTest(fresh: FreshStore): (options?: ContractOpenOptions) => Store {
  let current: StoreUnderTest | null = null;
  const opened: Store[] = [];
  beforeEach(() => {
    current = fresh();
  });
  afterEach(() => {
    for (const s of opened.splice(0)) s.close();
    current?.dispose?.();
    current = null;
  });
  return (options) => {
    if (current === null) throw new Error('the store contract opens stores only inside a test');
    const store = current.open(options);
    opened.push(store);
    return store;
  };
}

/** The `DecidekitError` that `fn` throws. */
export function errorOf(fn: () => unknown): DecidekitError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DecidekitError) return err;
    throw err;
  }
  throw new Error('expected a DecidekitError');
}

/** Stores a finished run: answered, failed and token-less cases, saved out of order. */
export function seedFinished(store: Store, config: RunConfig = runConfig(), createdAt = '2026-11-30T04:15:12.000Z') {
  const [a, b, c, d] = config.caseIds as [string, string, string, string];
  const cases: CaseResult[] = [
    answeredCase(a, rightAnswers(), 87.5, 321),
    failedCase(b, 10_000.25),
    answeredCase(c, wrongAnswers(), 0.1 + 0.2, null),
    failedCase(d, null),
  ];
  const head = store.runs.create({ config, label: 'baseline', createdAt });
  for (const i of [2, 0, 3, 1]) store.cases.save(head.id, [cases[i]!]);
  const summary = summarizeRun(config, cases);
  store.runs.finish(head.id, { status: summary.status, durationMs: 1234.5, summary });
  return { head, cases, summary };
}
