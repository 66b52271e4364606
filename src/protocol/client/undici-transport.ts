import { createRequire } from 'node:module';
import type { Dispatcher, Pool } from 'undici';
import type { Exchange, HttpTransport, RawHeaders, TransportRequest, TransportResponse } from './http-transport.js';
import { isUnsolicitedContinueFailure, startExchange, TransportAbortedError } from './http-transport.js';
import { createNodeHttpTransport } from './node-http-transport.js';

/**
 * undici is read with the first pool, not when this module loads: a command that only shows
 * its help (or never sends) does not pay for loading it.
 */
let undici: typeof import('undici') | undefined;
const undiciPackage = () => (undici ??= createRequire(import.meta.url)('undici') as typeof import('undici'));

export interface UndiciTransportOptions {
  /** Keep-alive connections per origin (default 8): size it to the request concurrency. */
  readonly connections?: number;
}

/**
 * The default transport: an undici Pool per origin (keep-alive, no pipelining), driven
 * through `dispatch` with a handler, so the body arrives as plain chunk callbacks (no
 * stream machinery) and the cap is enforced as they arrive. Chosen by measurement over
 * node:http (BENCHMARKS.md, "System One client throughput"). undici's own header/body timeouts are off: the
 * client's per-attempt timer covers both phases.
 */
export function createUndiciTransport(options: UndiciTransportOptions = {}): HttpTransport {
  const connections = Math.max(1, Math.floor(options.connections ?? 8));
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string) => {
    let pool = pools.get(origin);
    if (pool === undefined) {
      pool = new (undiciPackage().Pool)(origin, { connections, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
      pools.set(origin, pool);
    }
    return pool;
  };

  // Where each request goes, worked out once for the URL its client sends every request to.
  let lastUrl: URL | null = null;
  let target = { origin: '', path: '' };
  const targetOf = (url: URL) => {
    if (url !== lastUrl) {
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      lastUrl = url;
    }
    return target;
  };

  // Origins whose server writes an interim 100 Continue undici cannot skip: sent through node:http instead.
  const continueFirst = new Set<string>();
  let nodeHttp: HttpTransport | null = null;
  const viaNodeHttp = (r: TransportRequest) => {
    continueFirst.add(r.url.origin);
    return (nodeHttp ??= createNodeHttpTransport({ connections })).request(r);
  };

  const dispatch = (r: TransportRequest): Promise<TransportResponse> => {
    return new Promise<TransportResponse>((resolve, reject) => {
      const handler = new ExchangeHandler();
      // The server answered with a 1xx first: the request is sent again, once, through node:http.
      const failed = (error: Error): void => {
        if (isUnsolicitedContinueFailure(error)) void viaNodeHttp(r).then(resolve, reject);
        else reject(error);
      };
      const exchange = startExchange(r, resolve, failed, (err) => handler.abort(err));
      if (exchange === null) return;
      handler.exchange = exchange;
      const { origin, path } = targetOf(r.url);
      poolFor(origin).dispatch(
        { origin, path, method: r.method, headers: r.headers, body: r.body === null ? null : (r.body as Buffer) },
        handler,
      );
    });
  };

  return {
    request(r: TransportRequest): Promise<TransportResponse> {
      return continueFirst.size > 0 && continueFirst.has(r.url.origin) ? viaNodeHttp(r) : dispatch(r);
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.destroy()));
      pools.clear();
      await nodeHttp?.close();
    },
  };
}

/**
 * One exchange's handler of undici's events, an object with methods rather than closures. It
 * lets go of its exchange (the answer's chunks, the caller's promise) as soon as the answer
 * ended or failed, so whatever still refers to the handler keeps nothing of the answer.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  exchange: Exchange | null = null;
  #controller: Dispatcher.DispatchController | null = null;
  #status = 0;
  #headers: RawHeaders = {};

  /** Drops the connection of an exchange that failed (timeout, abort, a body over the cap). */
  abort(err: Error): void {
    const c = this.#controller;
    if (c !== null && !c.aborted) c.abort(err);
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.#controller = c;
    if (this.exchange === null || this.exchange.settled) c.abort(new TransportAbortedError('request aborted'));
  }

  onResponseStart(
    c: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.#controller = c;
    this.#status = statusCode;
    this.#headers = headers;
    this.exchange?.failIfDeclaredOverCap(headers['content-length']);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.exchange?.addChunk(chunk);
  }

  onResponseEnd(): void {
    const exchange = this.exchange;
    this.#release();
    exchange?.finish(this.#status, this.#headers);
    this.#headers = {};
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    const exchange = this.exchange;
    this.#release();
    exchange?.fail(err);
  }

  #release(): void {
    this.exchange = null;
    this.#controller = null;
  }
}
