import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';

/**
 * Cases handed out one at a time, in order, by a reader that may still be reading them:
 * `take()` gives the next case (a promise when it is not read yet), undefined once every
 * case was taken. `close()` stops the reading early (the run stopped); later takes give
 * undefined.
 */
export interface CaseReader {
  take(): TypedDecisionsCase | undefined | Promise<TypedDecisionsCase | undefined>;
  close(): void;
}

/** A reader over cases already in memory; each slot is emptied as its case is taken. */
export function arrayCaseReader(cases: (TypedDecisionsCase | undefined)[]): CaseReader {
  let next = 0;
  return {
    take: () => {
      if (next >= cases.length) return undefined;
      const taken = cases[next];
      cases[next++] = undefined;
      return taken;
    },
    close: () => {
      cases.length = 0;
    },
  };
}

/**
 * The buffer between a producer that reads cases (pass 2 over a file) and the runner that
 * takes them: the producer waits in `waitForRoom` while `capacity` cases are buffered, so
 * only about that many cases (plus one read's worth) are in memory at a time.
 */
export class BufferedCaseReader implements CaseReader {
  readonly #capacity: number;
  /**
   * A case, or how to build it when it is taken: a line kept as one string while it waits
   * (cheap for the garbage collector to move) rather than as its parsed objects.
   */
  #buffer: (TypedDecisionsCase | (() => TypedDecisionsCase) | undefined)[] = [];
  #head = 0;
  readonly #takers: { resolve: (c: TypedDecisionsCase | undefined) => void; reject: (error: unknown) => void }[] = [];
  #room: ((more: boolean) => void) | null = null;
  #ended = false;
  #failure: { readonly error: unknown } | null = null;
  #closed = false;

  constructor(capacity: number) {
    this.#capacity = Math.max(1, capacity);
  }

  /** Cases read and not taken yet. */
  get buffered(): number {
    return this.#buffer.length - this.#head;
  }

  /** Producer: one more case (or how to build it, when it is taken), in order. */
  push(c: TypedDecisionsCase | (() => TypedDecisionsCase)): void {
    if (this.#closed) return;
    const taker = this.#takers.shift();
    if (taker === undefined) this.#buffer.push(c);
    else if (typeof c !== 'function') taker.resolve(c);
    else {
      try {
        taker.resolve(c());
      } catch (error) {
        taker.reject(error);
      }
    }
  }

  /** Producer: resolves to true when it may read on, false when the reader was closed. */
  waitForRoom(): boolean | Promise<boolean> {
    if (this.#closed) return false;
    if (this.buffered < this.#capacity) return true;
    return new Promise<boolean>((resolve) => {
      this.#room = resolve;
    });
  }

  /** Producer: every case was pushed (or reading failed with `error`). */
  end(error?: { readonly error: unknown }): void {
    if (this.#closed) return;
    this.#ended = true;
    if (error !== undefined) this.#failure = error;
    for (const taker of this.#takers.splice(0)) {
      if (this.#failure === null) taker.resolve(undefined);
      else taker.reject(this.#failure.error);
    }
  }

  take(): TypedDecisionsCase | undefined | Promise<TypedDecisionsCase | undefined> {
    if (this.#head < this.#buffer.length) {
      const c = this.#buffer[this.#head];
      this.#buffer[this.#head++] = undefined;
      if (this.#head >= 1024 && this.#head * 2 >= this.#buffer.length) {
        this.#buffer = this.#buffer.slice(this.#head);
        this.#head = 0;
      }
      // Reading resumes once half the buffer was taken (not after every case).
      if (this.#room !== null && this.buffered * 2 <= this.#capacity) {
        const room = this.#room;
        this.#room = null;
        room(true);
      }
      return typeof c === 'function' ? c() : c;
    }
    if (this.#failure !== null) return Promise.reject(this.#failure.error);
    if (this.#ended || this.#closed) return undefined;
    if (this.#room !== null) {
      const room = this.#room;
      this.#room = null;
      room(true);
    }
    return new Promise((resolve, reject) => this.#takers.push({ resolve, reject }));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer = [];
    this.#head = 0;
    const room = this.#room;
    this.#room = null;
    room?.(false);
    for (const taker of this.#takers.splice(0)) taker.resolve(undefined);
  }
}
