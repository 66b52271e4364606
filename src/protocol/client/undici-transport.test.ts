/**
 * The default transport lets go of a finished exchange: nothing it made for a request (the
 * answer, its bytes) outlives the request, so a run's requests stay young garbage, also
 * when they share one abort signal that lives as long as the run.
 */
import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpTransport } from './http-transport.js';
import { createUndiciTransport } from './undici-transport.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: Server;
let url: URL;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    // `/slow` never answers: the request waits until it is aborted.
    if (req.url !== '/slow') req.on('end', () => res.end('{"answers":{}}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = new URL(`http://127.0.0.1:${address.port}/v1/systemone`);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One exchange, in a frame of its own (so no variable of the test holds the answer): weak references to what came back. */
async function exchangeOnce(
  transport: HttpTransport,
  i: number,
  signal = new AbortController().signal,
): Promise<WeakRef<object>[]> {
  const body = Buffer.from(`{"n":${i}}`);
  const response = await transport.request({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body,
    signal,
    timeoutMs: 10_000,
    maxBodyBytes: 1024,
  });
  expect(response.body.toString()).toBe('{"answers":{}}');
  return [new WeakRef(response), new WeakRef(response.body), new WeakRef(body)];
}

describe('the undici transport', () => {
  it('keeps nothing of an answer once its exchange finished', async () => {
    const transport = createUndiciTransport({ connections: 1 });
    try {
      const refs: WeakRef<object>[] = [];
      for (let i = 0; i < 3; i++) refs.push(...(await exchangeOnce(transport, i)));
      // Let undici finish its bookkeeping of the last answer before collecting.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(refs.map((r) => r.deref() === undefined)).toEqual(refs.map(() => true));
    } finally {
      await transport.close();
    }
  });

  it('keeps nothing of an answer once its exchange finished, on a signal every request shares', async () => {
    const transport = createUndiciTransport({ connections: 4 });
    // A run's requests share one abort signal that lives as long as the run.
    const run = new AbortController();
    try {
      const refs: WeakRef<object>[] = [];
      for (let round = 0; round < 3; round++) {
        const inFlight = [0, 1, 2, 3].map((i) => exchangeOnce(transport, 4 * round + i, run.signal));
        for (const r of await Promise.all(inFlight)) refs.push(...r);
      }
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(refs.map((r) => r.deref() === undefined)).toEqual(refs.map(() => true));
      expect(run.signal.aborted).toBe(false);
    } finally {
      await transport.close();
    }
  });

  it('fails every request in flight when their shared signal aborts, and only those', async () => {
    const transport = createUndiciTransport({ connections: 8 });
    const run = new AbortController();
    try {
      // Some finish before the abort (first, middle and last of those in flight), the rest wait.
      const finished = await Promise.all([0, 1, 2].map((i) => exchangeOnce(transport, i, run.signal)));
      expect(finished).toHaveLength(3);
      const waiting = [0, 1, 2, 3].map(() =>
        transport.request({
          method: 'POST',
          url: new URL('/slow', url),
          headers: {},
          body: Buffer.from('{}'),
          signal: run.signal,
          timeoutMs: 10_000,
          maxBodyBytes: 1024,
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
      run.abort(new Error('Ctrl+C'));
      const settled = await Promise.allSettled(waiting);
      expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).name : 'answered'))).toEqual([
        'AbortError',
        'AbortError',
        'AbortError',
        'AbortError',
      ]);
    } finally {
      await transport.close();
    }
  });
});
