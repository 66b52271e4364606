/** What both store adapters' case parts do alike over their own reads. */
import type { CaseSource } from '../core/bench/run.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import type { StoreCases } from './store.js';

/** Opens a fresh read-only store (its own connection) to read cases from. */
export type OpenReader = () => {
  readonly cases: Pick<StoreCases, 'iterate'>;
  close(): void;
};

/** A run's saved cases read from a fresh connection each time it is iterated (`StoreCases.source`). */
export function freshReaderSource(openReader: OpenReader, runId: string, length: number): CaseSource {
  function* read(fromPosition: number): Generator<CaseResult> {
    const reader = openReader();
    try {
      yield* reader.cases.iterate(runId, fromPosition === 0 ? {} : { fromPosition });
    } finally {
      reader.close();
    }
  }
  return {
    length,
    [Symbol.iterator]: () => read(0),
    from: (position) => ({ [Symbol.iterator]: () => read(position) }),
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
