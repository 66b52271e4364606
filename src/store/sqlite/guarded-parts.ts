/**
 * The adapter's parts (runs, cases, audits, probes) as the store hands them out: every
 * method, and every iterator one returns, with SQLite's failures in the store's words. A
 * damaged file can fail any statement, not only those a part runs through
 * `SqliteConnection.reading` (a transaction's COMMIT after a damaged page, say); guarding
 * the parts' surface once means no read is left to say "database disk image is malformed"
 * as an internal error.
 */
import type { SqliteConnection } from './connection.js';

type Translate = (err: unknown) => unknown;

function inWords<T>(translate: Translate, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw translate(err);
  }
}

function isIterator(value: unknown): value is Iterator<unknown> & Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { next?: unknown }).next === 'function' &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}

/** A generator's steps (and its early end), each in the store's words. */
function guardedIterator(it: Iterator<unknown>, translate: Translate): IterableIterator<unknown> {
  const guarded: IterableIterator<unknown> = {
    // Written out rather than through `inWords`: a step is taken for every row a read yields.
    next: (value?: unknown) => {
      try {
        return it.next(value);
      } catch (err) {
        throw translate(err);
      }
    },
    return: (value?: unknown) => inWords(translate, () => it.return?.(value) ?? { done: true, value }),
    throw: (err?: unknown) =>
      inWords(translate, () => {
        if (it.throw === undefined) throw err;
        return it.throw(err);
      }),
    [Symbol.iterator]: () => guarded,
  };
  return guarded;
}

/** `part` with each method's failures (and those of the iterators it returns) translated by `conn`. */
export function guardedPart<T extends object>(part: T, conn: SqliteConnection): T {
  const translate: Translate = (err) => conn.readFailure(err);
  return new Proxy(part, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = inWords(translate, () => (value as (...a: unknown[]) => unknown).apply(target, args));
        return isIterator(result) ? guardedIterator(result, translate) : result;
      };
    },
  });
}
