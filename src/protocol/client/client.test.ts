import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionSet } from '../../core/question.js';
import { createSystemOneClient, failureOf, isRunStopping, type SystemOneClientOptions } from './client.js';
import {
  AuthError,
  HttpError,
  MalformedResponseError,
  RateLimitedError,
  RequestAbortedError,
  RequestRejectedError,
  ResponseTooLargeError,
  SystemOneError,
  TimeoutError,
  TransportError,
  UnreachableServerError,
  UnsupportedEndpointError,
} from './errors.js';
import { MALFORMED_VARIANTS, type FaultOptions } from '../server/faults.js';
import { startReferenceServer, type ReferenceServer } from '../server/server.js';

const KEY = 'sk-PLANTED-a1b2c3d4e5';
const QUESTIONS: QuestionSet = [
  [
    'route',
    {
      type: 'choice',
      instructions: 'Which team should handle this?',
      options: ['billing', 'shipping', 'technical'],
      descriptions: ['Payments', null, 'Bugs'],
    },
  ],
  ['angry', { type: 'noul', instructions: 'Is the customer angry?' }],
  [
    'urgency',
    { type: 'score', instructions: 'How urgent is this?', levels: ['can wait', 'this week', 'today', 'right now'] },
  ],
];

const servers: Array<{ close(): Promise<void> }> = [];
async function serve(faults?: FaultOptions, extra: { model?: string } = {}): Promise<ReferenceServer> {
  const s = await startReferenceServer({
    port: 0,
    priorTable: null,
    closeGraceMs: 50,
    router: true,
    ...(faults ? { faults } : {}),
    ...extra,
  });
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Client defaults for tests: a key is planted everywhere, waits are recorded and skipped. */
function clientFor(baseUrl: string, options: Partial<SystemOneClientOptions> = {}) {
  const waits: number[] = [];
  const client = createSystemOneClient({
    baseUrl,
    apiKey: KEY,
    model: 'uniform',
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return { client, waits };
}

async function failing(promise: Promise<unknown>): Promise<SystemOneError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(SystemOneError);
    const e = err as SystemOneError;
    // The planted key never leaks, whatever the error.
    for (const text of [e.message, e.shortMessage, JSON.stringify(e.context), failureOf(e).message, String(e.stack)])
      expect(text).not.toContain(KEY);
    return e;
  }
  throw new Error('expected the request to fail');
}

describe('createSystemOneClient against the reference server', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await serve();
  });

  it('answers with distributions aligned with the questions, tokens, model and latency', async () => {
    const { client } = clientFor(server.url);
    const r = await client.decide({ ticket: 'I was charged twice' }, QUESTIONS);
    expect(r.predicted).toEqual([
      [1 / 3, 1 / 3, 1 / 3],
      [0.5, 0.5],
      [0.25, 0.25, 0.25, 0.25],
    ]);
    expect(r.model).toBe('uniform');
    expect(r.inputTokens).toBeGreaterThan(10);
    expect(r.latencyMs).toBeGreaterThan(0);
    expect(r.attempts).toBe(1);
    expect(client.endpoint).toBe(`${server.url}/v1/systemone`);
    expect(client.identity).toEqual({ scheme: 'http', host: '127.0.0.1', port: server.port, path: '/v1/systemone' });
    await client.close();
  });

  it('sends a string state as a JSON string and accepts the answer', async () => {
    const { client } = clientFor(server.url, { model: 'heuristic' });
    const r = await client.decide('I was charged twice, refund me now!', QUESTIONS);
    expect(r.model).toBe('heuristic');
    for (const d of r.predicted) expect(d.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    await client.close();
  });

  it('stops the run with UnsupportedEndpointError on a server without the route (404)', async () => {
    const { client } = clientFor(`${server.url}/not-here`);
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(UnsupportedEndpointError);
    expect(e.message).toContain(`server does not serve decision models at ${server.url}/not-here/v1/systemone`);
    expect(isRunStopping(e)).toBe(true);
    expect(failureOf(e)).toEqual({ kind: 'http', message: 'HTTP 404: server does not serve decision models' });
    await client.close();
  });

  it.each([405, 501])('treats HTTP %i as "does not serve decision models"', async (status) => {
    const s = await serve({ forceStatus: status });
    const { client, waits } = clientFor(s.url);
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(UnsupportedEndpointError);
    expect(e.context.status).toBe(status);
    expect(isRunStopping(e)).toBe(true);
    expect(waits).toEqual([]);
    await client.close();
  });

  it('reports a rejected request (400) with the start of the body, without stopping the run', async () => {
    const { client } = clientFor(server.url, { model: 'laya' });
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(RequestRejectedError);
    // A JSON body is quoted as the JSON it is, its inner quotes escaped.
    expect((e as RequestRejectedError).bodyPreview).toContain('unknown model \\"laya\\"');
    expect(JSON.parse((e as RequestRejectedError).bodyPreview).error.message).toMatch(/^unknown model "laya"/);
    expect((e as RequestRejectedError).bodyPreview.length).toBeLessThanOrEqual(200);
    expect(isRunStopping(e)).toBe(false);
    expect(failureOf(e).kind).toBe('request_rejected');
    await client.close();
  });

  it.each([401, 403])('raises AuthError on HTTP %i and stops the run', async (status) => {
    const s = await serve({ forceStatus: status });
    const { client } = clientFor(s.url);
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toMatch(/the API key was refused/);
    expect(isRunStopping(e)).toBe(true);
    expect(failureOf(e).kind).toBe('auth');
    await client.close();
  });

  it('does not retry a 500 and reports it as HttpError', async () => {
    const s = await serve({ failRate: 1, failStatus: 500 });
    const { client, waits } = clientFor(s.url);
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(HttpError);
    expect(e.message).toMatch(/HTTP 500/);
    expect(waits).toEqual([]);
    expect(s.metrics().requestsTotal).toBe(1);
    expect(failureOf(e)).toMatchObject({ kind: 'http' });
    await client.close();
  });

  it('retries 503 with the server Retry-After and then succeeds', async () => {
    const s = await serve({ byCase: { 'case-503': { kind: 'status', status: 503, retryAfter: '2', times: 2 } } });
    const { client, waits } = clientFor(s.url);
    const r = await client.decide({ id: 'case-503' }, QUESTIONS);
    expect(waits).toEqual([2000, 2000]);
    expect(r.attempts).toBe(3);
    expect(s.metrics().responsesByStatus).toEqual({ 503: 2, 200: 1 });
    await client.close();
  });

  it('reads Retry-After as an HTTP date against the wall clock, capped', async () => {
    const s = await serve({
      byCase: { 'case-date': { kind: 'status', status: 429, retryAfter: 'Sun, 01 Mar 2026 12:00:03 GMT', times: 1 } },
    });
    const { client, waits } = clientFor(s.url, { wallClock: () => Date.parse('2026-03-01T12:00:00Z') });
    await client.decide({ id: 'case-date' }, QUESTIONS);
    expect(waits).toEqual([3000]);
    const s2 = await serve({ byCase: { 'case-long': { kind: 'status', status: 429, retryAfter: '3600', times: 1 } } });
    const capped = clientFor(s2.url, { retryMaxDelayMs: 4000 });
    await capped.client.decide({ id: 'case-long' }, QUESTIONS);
    expect(capped.waits).toEqual([4000]);
    await client.close();
    await capped.client.close();
  });

  it('backs off exponentially with jitter when there is no Retry-After (502, 504)', async () => {
    const s = await serve({
      byCase: {
        'case-502': { kind: 'status', status: 502, times: 1 },
        'case-504': { kind: 'status', status: 504, times: 2 },
      },
    });
    const { client, waits } = clientFor(s.url, { retryBaseDelayMs: 100, random: () => 0.5 });
    await client.decide({ id: 'case-504' }, QUESTIONS);
    expect(waits).toEqual([75, 150]);
    await client.decide({ id: 'case-502' }, QUESTIONS);
    expect(waits).toEqual([75, 150, 75]);
    await client.close();
  });

  it('gives up on 429 after the configured retries with RateLimitedError', async () => {
    const s = await serve({ failRate: 1, failStatus: 429, retryAfter: '1' });
    const { client, waits } = clientFor(s.url, { retries: 3 });
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.context.attempts).toBe(4);
    expect(waits).toEqual([1000, 1000, 1000]);
    expect(s.metrics().requestsTotal).toBe(4);
    expect(failureOf(e).kind).toBe('rate_limited');
    await client.close();
  });

  it('times out a slow answer without retrying it', async () => {
    const s = await serve({ latencyMs: 400 });
    const { client, waits } = clientFor(s.url, { timeoutMs: 60 });
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.message).toMatch(/within 60 ms/);
    expect(waits).toEqual([]);
    expect(s.metrics().requestsTotal).toBe(1);
    expect(failureOf(e)).toEqual({ kind: 'timeout', message: 'timed out after 60 ms' });
    await client.close();
  });

  it('times out a body that drips in too slowly', async () => {
    const s = await serve({ dripBytes: 8, dripIntervalMs: 20 });
    const { client } = clientFor(s.url, { timeoutMs: 150 });
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(TimeoutError);
    await client.close();
  });

  it('measures latency around the answered attempt, body included', async () => {
    const s = await serve({ latencyMs: 60 });
    const { client } = clientFor(s.url);
    const r = await client.decide({}, QUESTIONS);
    expect(r.latencyMs).toBeGreaterThanOrEqual(55);
    expect(r.totalMs).toBeGreaterThanOrEqual(r.latencyMs);
    await client.close();
  });

  it('aborts a body over the cap instead of reading it whole', async () => {
    const s = await serve({ byCase: { huge: { kind: 'oversize', bytes: 64 * 1024 * 1024 } } });
    const { client } = clientFor(s.url, { maxBodyBytes: 256 * 1024 });
    const t0 = performance.now();
    const e = await failing(client.decide({ id: 'huge' }, QUESTIONS));
    expect(e).toBeInstanceOf(ResponseTooLargeError);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(failureOf(e).kind).toBe('too_large');
    // A declared Content-Length over the cap is refused before reading.
    const small = clientFor(server.url, { maxBodyBytes: 100 });
    expect(await failing(small.client.decide({}, QUESTIONS))).toBeInstanceOf(ResponseTooLargeError);
    await client.close();
    await small.client.close();
  });

  it.each(MALFORMED_VARIANTS)(
    'rejects a malformed answer (%s) as MalformedResponseError naming the problem',
    async (variant) => {
      const s = await serve({ byCase: { bad: { kind: 'malformed', variant } } });
      const { client } = clientFor(s.url);
      const e = await failing(client.decide({ id: 'bad' }, QUESTIONS));
      expect(e).toBeInstanceOf(MalformedResponseError);
      const reason = (e as MalformedResponseError).reason;
      if (variant === 'not_json') expect(reason).toMatch(/not valid JSON/);
      else if (variant === 'not_object') expect(reason).toMatch(/not a JSON object/);
      else if (variant === 'no_answers') expect(reason).toMatch(/no "answers"/);
      else expect(reason).toMatch(/^question route: /);
      expect(failureOf(e)).toEqual({ kind: 'malformed', message: reason });
      expect(isRunStopping(e)).toBe(false);
      await client.close();
    },
  );

  it('reports a dropped connection as TransportError, and a refused one as an unreachable server that stops the run', async () => {
    const s = await serve({ dropRate: 1 });
    const { client } = clientFor(s.url);
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(TransportError);
    expect(failureOf(e).kind).toBe('transport');
    await client.close();
    const gone = await serve();
    const url = gone.url;
    await gone.close();
    const refused = clientFor(url);
    const e2 = await failing(refused.client.decide({}, QUESTIONS));
    expect(e2).toBeInstanceOf(UnreachableServerError);
    expect(isRunStopping(e2)).toBe(true);
    expect(isRunStopping(e)).toBe(false);
    expect(e2.message).toBe(`nothing is listening at ${new URL(url).host}; is the server running?`);
    expect(failureOf(e2)).toEqual({ kind: 'transport', message: 'connection refused (is the server running?)' });
    expect(failureOf(e).message).toBe('connection closed by the server before the answer');
    await refused.client.close();
  });

  it('stops on the caller abort signal, while waiting for an answer or a retry', async () => {
    const s = await serve({ latencyMs: 1000 });
    const { client } = clientFor(s.url);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('Ctrl+C')), 30);
    const e = await failing(client.decide({}, QUESTIONS, controller.signal));
    expect(e).toBeInstanceOf(RequestAbortedError);
    expect(isRunStopping(e)).toBe(true);
    await client.close();

    const s2 = await serve({ failRate: 1, failStatus: 503 });
    const c2 = createSystemOneClient({ baseUrl: s2.url, retryBaseDelayMs: 10_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t0 = performance.now();
    expect(await failing(c2.decide({}, QUESTIONS, ac.signal))).toBeInstanceOf(RequestAbortedError);
    expect(performance.now() - t0).toBeLessThan(2000);
    await c2.close();
  });

  it('never shows URL credentials or query in messages', async () => {
    const base = server.url.replace('http://', `http://user:${KEY}@`) + `/missing?api_key=${KEY}`;
    const { client } = clientFor(base);
    expect(client.endpoint).toBe(`${server.url}/missing/v1/systemone`);
    const e = await failing(client.decide({}, QUESTIONS));
    expect(e).toBeInstanceOf(UnsupportedEndpointError);
    await client.close();
  });
});

describe('createSystemOneClient against a plain echo server', () => {
  let echo: http.Server;
  let url: string;
  const seen: Array<{ auth: string | undefined; body: string; socket: number }> = [];
  let sockets = 0;
  beforeAll(async () => {
    echo = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      const socketId =
        (req.socket as unknown as { id?: number }).id ?? ((req.socket as unknown as { id: number }).id = ++sockets);
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ auth: req.headers.authorization, body, socket: socketId });
        if (body.includes('echo-auth')) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end(`bad request, you sent ${req.headers.authorization}`);
          return;
        }
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ answers: { angry: { type: 'noul', noul: 0.25 } } }));
        }, 5);
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    echo.closeAllConnections();
    await new Promise((resolve) => echo.close(resolve));
  });

  const NOUL: QuestionSet = [['angry', { type: 'noul', instructions: 'Angry?' }]];

  it('sends the Bearer key, the model and the state as JSON', async () => {
    seen.length = 0;
    const { client } = clientFor(url, { model: 'laya' });
    const r = await client.decide({ ticket: 'x' }, NOUL);
    expect(r.predicted).toEqual([[0.25, 0.75]]);
    expect(r.inputTokens).toBeNull();
    expect(seen[0]!.auth).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      model: 'laya',
      state: { ticket: 'x' },
      questions: { angry: { type: 'noul', instructions: 'Angry?' } },
    });
    await client.close();
  });

  it('sends no Authorization header and no model when none is configured', async () => {
    seen.length = 0;
    const client = createSystemOneClient({ baseUrl: url });
    await client.decide('text state', NOUL);
    expect(seen[0]!.auth).toBeUndefined();
    expect(JSON.parse(seen[0]!.body)).toEqual({
      state: 'text state',
      questions: { angry: { type: 'noul', instructions: 'Angry?' } },
    });
    await client.close();
  });

  it('scrubs the key from a body that echoes it', async () => {
    const { client } = clientFor(url);
    const e = await failing(client.decide({ id: 'echo-auth' }, NOUL));
    expect(e).toBeInstanceOf(RequestRejectedError);
    expect((e as RequestRejectedError).bodyPreview).toBe('bad request, you sent Bearer [redacted]');
    await client.close();
  });

  it('reuses at most `connections` keep-alive sockets for many concurrent requests', async () => {
    seen.length = 0;
    const before = sockets;
    const { client } = clientFor(url, { connections: 3 });
    await Promise.all(Array.from({ length: 30 }, () => client.decide({}, NOUL)));
    expect(seen).toHaveLength(30);
    expect(sockets - before).toBeLessThanOrEqual(3);
    expect(new Set(seen.map((s) => s.socket)).size).toBeLessThanOrEqual(3);
    await client.close();
  });
});

describe('the node:http transport (dependency-free alternative)', () => {
  it('answers, caps bodies, times out and reports drops like the default transport', async () => {
    const { createNodeHttpTransport } = await import('./node-http-transport.js');
    const ok = await serve();
    const a = clientFor(ok.url, { transport: createNodeHttpTransport({ connections: 2 }) });
    expect((await a.client.decide({}, QUESTIONS)).predicted[1]).toEqual([0.5, 0.5]);
    await a.client.close();
    const capped = clientFor(ok.url, { transport: createNodeHttpTransport(), maxBodyBytes: 100 });
    expect(await failing(capped.client.decide({}, QUESTIONS))).toBeInstanceOf(ResponseTooLargeError);
    await capped.client.close();
    const slow = await serve({ latencyMs: 300 });
    const b = clientFor(slow.url, { transport: createNodeHttpTransport(), timeoutMs: 50 });
    expect(await failing(b.client.decide({}, QUESTIONS))).toBeInstanceOf(TimeoutError);
    await b.client.close();
    const dropping = await serve({ dropRate: 1 });
    const c = clientFor(dropping.url, { transport: createNodeHttpTransport() });
    expect(await failing(c.client.decide({}, QUESTIONS))).toBeInstanceOf(TransportError);
    await c.client.close();
  });
});

describe('secrets in error bodies', () => {
  it('scrubs the key, URL credentials and query values a server echoes back', async () => {
    // A server that echoes what it was sent, as some proxies do in their error pages.
    const echo = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`bad request to ${req.url} auth=${req.headers.authorization ?? ''}`);
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const port = (echo.address() as AddressInfo).port;
    try {
      for (const [url, key] of [
        [`http://alice:PWSECRET@127.0.0.1:${port}/`, undefined],
        [`http://127.0.0.1:${port}/?token=QSECRET`, 'SECRETKEY123'],
      ] as const) {
        const client = createSystemOneClient({ baseUrl: url, ...(key ? { apiKey: key } : {}), retries: 0 });
        const e = await client.decide('x', QUESTIONS).then(
          () => null,
          (err: unknown) => err,
        );
        const text = `${(e as Error).message} ${failureOf(e).message} ${JSON.stringify((e as { context?: unknown }).context)}`;
        for (const secret of ['PWSECRET', 'QSECRET', 'SECRETKEY123', Buffer.from('alice:PWSECRET').toString('base64')])
          expect(text).not.toContain(secret);
        expect(failureOf(e).message).toContain('[redacted]');
        await client.close();
      }
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  /** The failure message of a decide sent with `key` to a server answering 400 with `body(the key it was sent)`. */
  async function failureEchoingKey(key: string, contentType: string, body: (sent: string) => string): Promise<string> {
    const echo = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const sent = (req.headers.authorization ?? '').replace('Bearer ', '');
        res.writeHead(400, { 'content-type': contentType });
        res.end(body(sent));
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const port = (echo.address() as AddressInfo).port;
    try {
      const client = createSystemOneClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: key, retries: 0 });
      const e = await client.decide('x', QUESTIONS).then(
        () => null,
        (err: unknown) => err,
      );
      await client.close();
      return failureOf(e).message;
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  }

  it('scrubs a key a JSON error body echoes split by zero-width characters', async () => {
    const message = await failureEchoingKey('SECRETKEY123', 'application/json', (sent) =>
      JSON.stringify({ error: { message: `denied: ${sent.slice(0, 6)}\u200b${sent.slice(6)}` } }),
    );
    expect(message).toBe('HTTP 400: {"error":{"message":"denied: [redacted]"}}');
  });

  it('scrubs a key the server echoes split by zero-width characters', async () => {
    const key = 'SECRETKEY123';
    const message = await failureEchoingKey(
      key,
      'text/plain',
      (sent) => `denied: ${sent.slice(0, 6)}\u200b${sent.slice(6, 9)}\ufeff${sent.slice(9)}`,
    );
    expect(message).toContain('denied: [redacted]');
    expect(message.replace(/[\u200b\ufeff]/g, '')).not.toContain(key);
  });
});
