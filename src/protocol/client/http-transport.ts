export interface TransportRequest {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
  /** The caller's signal (Ctrl+C): aborts the request and the body read. */
  readonly signal: AbortSignal | undefined;
  /** The whole exchange (headers and body) must finish within this; else `TransportTimeoutError`. */
  readonly timeoutMs: number;
  /** The body read stops (and the connection is dropped) once this many bytes arrived. */
  readonly maxBodyBytes: number;
}

export interface TransportResponse {
  readonly status: number;
  /** Header value by lower-case name (first value when repeated). */
  header(name: string): string | undefined;
  readonly body: Buffer;
}

/** Thrown by a transport when a response body passes `maxBodyBytes`. */
export class BodyOverCapError extends Error {
  override readonly name = 'BodyOverCapError';
  constructor(readonly bytesRead: number) {
    super(`response body over cap after ${bytesRead} bytes`);
  }
}

/** Thrown by a transport when `timeoutMs` passes before the body ended. */
export class TransportTimeoutError extends Error {
  override readonly name = 'TransportTimeoutError';
}

/** Thrown by a transport when the caller's signal aborts the request. */
export class TransportAbortedError extends Error {
  override readonly name = 'AbortError';
}

/** How the client sends HTTP; tests or embedders may pass their own. */
export interface HttpTransport {
  request(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

/** Response headers as both transports receive them: lower-case names, repeated values as arrays. */
export type RawHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One request/response exchange, run the same way by every transport: it settles once,
 * owns the timeout timer and the abort listener, counts body bytes against the cap (the
 * declared length first, then as chunks arrive) and builds the response. The transport
 * only moves bytes and says how to drop its connection.
 */
export interface Exchange {
  /** True once the exchange resolved or failed; later events are ignored. */
  readonly settled: boolean;
  /** Fails the exchange (once): stops the timer, drops the connection, rejects with `err`. */
  fail(err: Error): void;
  /** Fails with `BodyOverCapError` when a declared Content-Length is over the cap; returns whether it did. */
  failIfDeclaredOverCap(contentLength: string | string[] | undefined): boolean;
  /** Keeps a body chunk, or fails once the body passes the cap. */
  addChunk(chunk: Buffer): void;
  /** Resolves with the response (once). */
  finish(status: number, headers: RawHeaders): void;
}

/**
 * The exchanges in flight on one signal, told when it aborts: one listener a signal rather
 * than one a request (a run's requests share one signal, and adding a listener to a signal
 * that has many walks them all). The exchanges are linked through themselves, so watching
 * one allocates nothing, and the signal's listener holds this list only. (A set of a callback
 * a request, with the listener made in the first request's scope, kept that first exchange
 * and its answer for the signal's life, and a client at 32 in flight spent three times the
 * scavenge time and 6–8 full collections instead of 2: about 7 µs of CPU a request.)
 */
class SignalWatch {
  first: PendingExchange | null = null;

  constructor(signal: AbortSignal) {
    signal.addEventListener('abort', () => this.#abortAll(), { once: true });
  }

  add(exchange: PendingExchange): void {
    exchange.watchNext = this.first;
    if (this.first !== null) this.first.watchPrevious = exchange;
    this.first = exchange;
  }

  remove(exchange: PendingExchange): void {
    const { watchPrevious: previous, watchNext: next } = exchange;
    if (previous === null) {
      if (this.first === exchange) this.first = next;
    } else previous.watchNext = next;
    if (next !== null) next.watchPrevious = previous;
    exchange.watchPrevious = null;
    exchange.watchNext = null;
  }

  #abortAll(): void {
    // Taken first: failing one exchange unlinks it (and may settle others).
    const all: PendingExchange[] = [];
    for (let e = this.first; e !== null; e = e.watchNext) all.push(e);
    for (const e of all) e.fail(new TransportAbortedError('request aborted'));
  }
}

const watches = new WeakMap<AbortSignal, SignalWatch>();

function watchOf(signal: AbortSignal): SignalWatch {
  let watch = watches.get(signal);
  if (watch === undefined) watches.set(signal, (watch = new SignalWatch(signal)));
  return watch;
}

/**
 * Starts an exchange for `r`, or rejects at once and returns null when the caller's signal
 * has already aborted. `drop` frees the transport's connection when the exchange fails.
 */
export function startExchange(
  r: TransportRequest,
  resolve: (response: TransportResponse) => void,
  reject: (err: Error) => void,
  drop: (err: Error) => void,
): Exchange | null {
  if (r.signal?.aborted) {
    reject(new TransportAbortedError('request aborted'));
    return null;
  }
  return new PendingExchange(r, resolve, reject, drop);
}

/**
 * An exchange as one object with methods, not an object literal of closures: an accessor in
 * a literal (the `settled` flag was one) is made in the old generation each time, and from
 * there it kept the exchange's closures, and through them the request, the answer and the
 * caller's promise, alive until the next full collection, so every request's objects were
 * copied and promoted by the young collector (measured: three times the promotion of a bare
 * undici `Pool` client, and about 10 µs of CPU a request).
 */
class PendingExchange implements Exchange {
  settled = false;
  readonly #r: TransportRequest;
  readonly #resolve: (response: TransportResponse) => void;
  readonly #reject: (err: Error) => void;
  readonly #drop: (err: Error) => void;
  readonly #chunks: Buffer[] = [];
  #size = 0;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #watch: SignalWatch | null;
  /** Its neighbours among the exchanges in flight on its signal (`SignalWatch`). */
  watchPrevious: PendingExchange | null = null;
  watchNext: PendingExchange | null = null;

  constructor(
    r: TransportRequest,
    resolve: (response: TransportResponse) => void,
    reject: (err: Error) => void,
    drop: (err: Error) => void,
  ) {
    this.#r = r;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#drop = drop;
    this.#watch = r.signal === undefined ? null : watchOf(r.signal);
    this.#watch?.add(this);
    this.#timer = setTimeout(timeOut, r.timeoutMs, this, r.timeoutMs);
  }

  fail(err: Error): void {
    if (this.settled) return;
    this.#settle();
    this.#drop(err);
    this.#reject(err);
  }

  failIfDeclaredOverCap(contentLength: string | string[] | undefined): boolean {
    const declared = Number(contentLength);
    if (!(Number.isFinite(declared) && declared > this.#r.maxBodyBytes)) return false;
    this.fail(new BodyOverCapError(0));
    return true;
  }

  addChunk(chunk: Buffer): void {
    if (this.settled) return;
    this.#size += chunk.length;
    if (this.#size > this.#r.maxBodyBytes) {
      this.fail(new BodyOverCapError(this.#size));
      return;
    }
    this.#chunks.push(chunk);
  }

  finish(status: number, headers: RawHeaders): void {
    if (this.settled) return;
    this.#settle();
    const chunks = this.#chunks;
    this.#resolve({
      status,
      header: (name) => {
        const v = headers[name];
        return Array.isArray(v) ? v[0] : v;
      },
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size),
    });
  }

  #settle(): void {
    this.settled = true;
    clearTimeout(this.#timer);
    this.#watch?.remove(this);
  }
}

function timeOut(exchange: PendingExchange, timeoutMs: number): void {
  exchange.fail(new TransportTimeoutError(`no complete response within ${timeoutMs} ms`));
}

/**
 * True for the failure undici (every 7.x, and the `fetch` built on it) gives when a server
 * writes an interim `100 Continue` that was not asked for: it drops the connection with a
 * "bad response" socket error, where a client must skip a 1xx it did not expect (RFC 9110,
 * section 15.2). node:http skips it, so the request is sent again through node:http.
 */
export function isUnsolicitedContinueFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === 'UND_ERR_SOCKET' && e.message === 'bad response') return true;
  }
  return false;
}
