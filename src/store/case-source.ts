/** What both store adapters' case parts do alike over their own reads. */
import type { CaseSource } from '../core/bench/run.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';

/** Opens a fresh read-only store (its own connection) to read cases from. */
export type OpenReader = () => { readonly cases: { iterate(runId: string): Generator<CaseResult> }; close(): void };

/** A run's saved cases read from a fresh connection each time it is iterated (`StoreCases.source`). */
export function freshReaderSource(openReader: OpenReader, runId: string, length: number): CaseSource {
  return {
    length,
    *[Symbol.iterator]() {
      const reader = openReader();
      try {
        yield* reader.cases.iterate(runId);
      } finally {
        reader.close();
      }
    },
  };
}

/** The ids of `StoreCases.savedIds` from the ids by outcome: answered, with the failed too when asked. */
export function savedIdsOf(
  outcomes: { readonly answered: Set<string>; readonly failed: Set<string> },
  includeFailed: boolean | undefined,
): Set<string> {
  const { answered, failed } = outcomes;
  if (includeFailed === true) for (const id of failed) answered.add(id);
  return answered;
}
