/**
 * The default transport lets go of a finished exchange: nothing it made for a request (the
 * answer, its bytes) outlives the request, so a run's requests stay young garbage.
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
    req.on('end', () => res.end('{"answers":{}}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = new URL(`http://127.0.0.1:${address.port}/v1/systemone`);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One exchange, in a frame of its own (so no variable of the test holds the answer): weak references to what came back. */
async function exchangeOnce(transport: HttpTransport, i: number): Promise<WeakRef<object>[]> {
  const response = await transport.request({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(`{"n":${i}}`),
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    maxBodyBytes: 1024,
  });
  expect(response.body.toString()).toBe('{"answers":{}}');
  return [new WeakRef(response), new WeakRef(response.body)];
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
});
