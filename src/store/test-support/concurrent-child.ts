/**
 * What the concurrency tests' child processes share: their case ids, the spin until the
 * shared start, and the one line each prints (its run id, or the error's code and message).
 */
import { writeSync } from 'node:fs';
import { DecidekitError } from '../../core/errors.js';
import { answeredCase, failedCase, rightAnswers } from './run-fixtures.js';

/** `count` case ids of the fixture dataset, in order. */
export function fixtureCaseIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `customer_service_${String(i + 1).padStart(6, '0')}`);
}

/** The `i`th case of a child's run: every fifth one failed, the rest answered in `latencyMs`. */
export function fixtureCase(id: string, i: number, latencyMs: number) {
  return i % 5 === 4 ? failedCase(id, 50) : answeredCase(id, rightAnswers(i), latencyMs);
}

/** Waits until `startEpochMs`, then runs `work` and prints the run id it returns, or its error. */
export function runAtStart(startEpochMs: number, work: () => string): void {
  while (Date.now() < startEpochMs) {
    // Spin until the shared start: the point is to collide with the other processes.
  }
  try {
    writeSync(1, `${work()}\n`);
  } catch (err) {
    const code = err instanceof DecidekitError ? err.code : 'crash';
    writeSync(1, `error ${code}: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
