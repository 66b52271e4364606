import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemOneClient } from './client.js';
import { HttpError, TransportError } from './errors.js';
import { getHealth, listModels, readMetrics } from './server-gets.js';
import { startReferenceServer, type ReferenceServer } from '../server/server.js';

let withMetrics: ReferenceServer;
let without: ReferenceServer;
beforeAll(async () => {
  withMetrics = await startReferenceServer({
    port: 0,
    metrics: true,
    priorTable: null,
    model: 'uniform',
    router: true,
  });
  without = await startReferenceServer({ port: 0, priorTable: null });
});
afterAll(async () => {
  await withMetrics.close();
  await without.close();
});

describe('GET requests to a server (health, models, metrics)', () => {
  it('reports health ok, also through a /v1 base URL', async () => {
    expect(await getHealth(withMetrics.url)).toEqual({ status: 'ok', httpStatus: 200 });
    expect(await getHealth(`${withMetrics.url}/v1/`)).toEqual({ status: 'ok', httpStatus: 200 });
  });

  it('reports loading on 503 and error on other statuses', async () => {
    let status = 503;
    const loading = http.createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}');
    });
    await new Promise<void>((resolve) => loading.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(loading.address() as AddressInfo).port}`;
    expect(await getHealth(url)).toEqual({ status: 'loading', httpStatus: 503 });
    status = 500;
    expect(await getHealth(url)).toEqual({ status: 'error', httpStatus: 500 });
    loading.closeAllConnections();
    await new Promise((resolve) => loading.close(resolve));
  });

  it('lists the models with their decisions modality', async () => {
    const models = await listModels(withMetrics.url);
    expect(models.map((m) => m.id)).toEqual(['uniform', 'heuristic', 'prior', 'zero', 'judge']);
    expect(models.every((m) => m.decisions)).toBe(true);
  });

  it('reads the llama.cpp counters and sees them move', async () => {
    const before = await readMetrics(withMetrics.url);
    const client = createSystemOneClient({ baseUrl: withMetrics.url });
    const r = await client.decide('hello', [['q', { type: 'noul', instructions: 'Greeting?' }]]);
    await client.close();
    const after = await readMetrics(withMetrics.url);
    expect(after!.llamaCppLike).toBe(true);
    expect(after!.decodeTotal! - before!.decodeTotal!).toBe(1);
    expect(after!.promptTokensTotal! - before!.promptTokensTotal!).toBe(r.inputTokens);
  });

  it('returns null when the server has no metrics endpoint (501)', async () => {
    expect(await readMetrics(without.url)).toBeNull();
  });

  it('raises typed errors for a refused connection and a non-200 model list', async () => {
    const gone = await startReferenceServer({ port: 0, priorTable: null });
    const url = gone.url;
    await gone.close();
    await expect(getHealth(url)).rejects.toBeInstanceOf(TransportError);
    // The reason in words, never a raw code such as ECONNREFUSED in parentheses.
    await expect(getHealth(url)).rejects.toThrow(
      `connection failed: ${url}/health (connection refused: nothing is listening there)`,
    );
    const s = await startReferenceServer({ port: 0, priorTable: null });
    await expect(listModels(`${s.url}/elsewhere`)).rejects.toBeInstanceOf(HttpError);
    await s.close();
  });
});

describe('a connection the server drops', () => {
  it('is said in words, with no raw code in the message', async () => {
    const dropping = net.createServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    try {
      const get = await getHealth(url).catch((e: unknown) => e as Error);
      expect(get).toBeInstanceOf(TransportError);
      expect((get as Error).message).toBe(`connection failed: ${url}/health (the server closed the connection)`);
      const client = createSystemOneClient({ baseUrl: url, retries: 0 });
      const post = await client.send('{}').catch((e: unknown) => e as Error);
      await client.close();
      expect(post).toBeInstanceOf(TransportError);
      expect((post as Error).message).toMatch(/^connection failed: \S+ \([a-z][^()]*\)$/);
      expect((post as Error).message).not.toMatch(/[A-Z]{2,}_|\bE[A-Z]{3,}/);
    } finally {
      dropping.close();
    }
  });
});

describe('GET requests to a hostile server', () => {
  const KEY = 'sk-probe-5Qm2Zr8Tb1Kc7Vd';
  it('scrubs an echoed key and strips terminal escapes from error bodies and model ids', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: `\u001b]0;pwned\u0007m ${KEY}`, architecture: {} }] }));
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`\u001b[2J${' '.repeat(300)}${KEY}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const models = await listModels(url, { apiKey: KEY });
      expect(models.map((m) => m.id)).toEqual([']0;pwnedm [redacted]']);
      const err = await readMetrics(url, { apiKey: KEY }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).message).toContain('[2J [redacted]');
      expect((err as HttpError).message).not.toContain('\u001b');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
