import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseDecideResponse } from '../wire/decide-response.js';
import { parseWireQuestions } from '../wire/questions-json.js';
import { startReferenceServer, type ReferenceServer } from './server.js';
import { SPEC_EXAMPLE_REQUEST } from '../test-support/fixtures.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({
    port: 0,
    metrics: true,
    priorTable: null,
    maxBodyBytes: 64 * 1024,
    router: true,
  });
});
afterAll(async () => {
  await server.close();
});

async function post(body: string | object, url = server.url) {
  const res = await fetch(`${url}/v1/systemone`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    json: (() => {
      try {
        return JSON.parse(text) as any;
      } catch {
        return undefined;
      }
    })(),
  };
}

const VALID = { ...SPEC_EXAMPLE_REQUEST, model: 'heuristic' };

describe('POST /v1/systemone', () => {
  it('answers the spec example in the spec shape, which the strict parser accepts', async () => {
    const r = await post(VALID);
    expect(r.status).toBe(200);
    const questions = parseWireQuestions(VALID.questions, 'questions');
    if (!questions.ok) throw new Error('fixture');
    const parsed = parseDecideResponse(r.json, questions.questions);
    expect(parsed.ok).toBe(true);
    const { route, urgency, angry } = r.json.answers;
    expect(Object.keys(route.probabilities)).toEqual(['billing', 'shipping', 'technical']);
    const top = Object.entries(route.probabilities as Record<string, number>).sort((a, b) => b[1] - a[1])[0]!;
    expect(route.choice).toBe(top[0]);
    expect(route.confidence).toBe(top[1]);
    expect(Object.keys(urgency.probabilities)).toEqual(['0', '1', '2', '3']);
    expect(urgency.legend).toEqual({ 0: 'can wait', 1: 'this week', 2: 'today', 3: 'right now' });
    const mean = Object.values(urgency.probabilities as Record<string, number>).reduce((s, p, i) => s + i * p, 0);
    expect(urgency.score).toBeCloseTo(mean, 12);
    expect(angry.noul).toBeGreaterThan(0);
    expect(angry.noul).toBeLessThan(1);
    expect(r.json.model).toBe('heuristic');
    expect(r.json.usage.output_tokens).toBe(0);
    const bytes = Buffer.byteLength(JSON.stringify(VALID.state)) + Buffer.byteLength(JSON.stringify(VALID.questions));
    expect(r.json.usage.input_tokens).toBe(Math.ceil(bytes / 4));
  });

  it('answers the same request identically every time', async () => {
    const a = await post(VALID);
    const b = await post(VALID);
    expect(b.text).toBe(a.text);
  });

  it('picks the model from the body (router mode) and defaults to its own', async () => {
    const uniform = await post({ ...VALID, model: 'uniform' });
    expect(uniform.json.model).toBe('uniform');
    expect(uniform.json.answers.angry.noul).toBe(0.5);
    const { model: _omit, ...noModel } = VALID;
    expect((await post(noModel)).json.model).toBe('heuristic');
  });

  it("ignores the body's model without router mode, as a single-model server does", async () => {
    const single = await startReferenceServer({ port: 0, priorTable: null, model: 'uniform' });
    try {
      const r = await fetch(`${single.url}/v1/systemone`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...VALID, model: 'laya' }),
      });
      expect(r.status).toBe(200);
      const body = (await r.json()) as { model: string; answers: { angry: { noul: number } } };
      expect(body.model).toBe('uniform');
      expect(body.answers.angry.noul).toBe(0.5);
      const models = (await (await fetch(`${single.url}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data.map((m) => m.id)).toEqual(['uniform']);
    } finally {
      await single.close();
    }
  });

  it('rejects an unknown model with 400 naming the known ones', async () => {
    const r = await post({ ...VALID, model: 'laya' });
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({
      code: 400,
      type: 'invalid_request_error',
      message: 'unknown model "laya": this server serves heuristic, prior, uniform, zero, judge',
    });
  });

  const q = (question: unknown) => ({ state: 'x', questions: { q: question } });
  it.each([
    ['invalid JSON', '{"state": ', /invalid JSON body/],
    [
      'a key given twice',
      '{"state": "s", "state": "t", "questions": {"a": {"type": "noul", "instructions": "x"}}}',
      /^the body: key "state" appears twice in one object \(remove one: JSON keeps only the last\)$/,
    ],
    [
      'nesting over the bound',
      `{"state": ${'['.repeat(600)}${']'.repeat(600)}}`,
      /^the body: too deeply nested: more than/,
    ],
    ['a body that is not an object', '[1,2]', /must be a JSON object/],
    ['missing questions', { state: 'x' }, /"questions" is required/],
    ['empty questions', { state: 'x', questions: {} }, /at least one question/],
    ['questions as an array', { state: 'x', questions: [] }, /must be an object of question id/],
    [
      'an unknown type',
      q({ type: 'yes_no', instructions: 'x' }),
      /questions\.q\.type: unknown question type "yes_no" \(expected noul, choice or score\)/,
    ],
    [
      'choice criteria as an array',
      q({ type: 'choice', instructions: 'x', criteria: ['a', 'b'] }),
      /questions\.q\.criteria: .*object of option name/,
    ],
    ['one option', q({ type: 'choice', instructions: 'x', criteria: { a: null } }), /2 to 255 options, got 1/],
    [
      '256 options',
      q({
        type: 'choice',
        instructions: 'x',
        criteria: Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`o${i}`, null])),
      }),
      /got 256/,
    ],
    ['one level', q({ type: 'score', instructions: 'x', criteria: ['only'] }), /2 to 10 levels, got 1/],
    [
      'eleven levels',
      q({ type: 'score', instructions: 'x', criteria: Array.from({ length: 11 }, () => 'l') }),
      /2 to 10 levels, got 11/,
    ],
    [
      'score criteria as an object',
      q({ type: 'score', instructions: 'x', criteria: { low: 'a' } }),
      /array of level descriptions/,
    ],
    ['missing instructions', q({ type: 'noul' }), /questions\.q\.instructions: .*non-empty string/],
    [
      'noul criteria as an array',
      q({ type: 'noul', instructions: 'x', criteria: ['yes'] }),
      /questions\.q\.criteria: noul criteria must be an object/,
    ],
    [
      'several problems',
      {
        state: 'x',
        questions: {
          a: { type: 'noul' },
          b: { type: 'x', instructions: 'x' },
          c: { type: 'score', instructions: 'x', criteria: [] },
          d: 'x',
        },
      },
      /questions\.a\.instructions: .*; questions\.b\.type: .*; questions\.c\.criteria: .*; and 1 more$/,
    ],
    ['empty instructions', q({ type: 'noul', instructions: '' }), /non-empty string/],
    ['a missing state', { questions: { q: { type: 'noul', instructions: 'x' } } }, /"state" is required/],
    [
      'a number state',
      { state: 3, questions: { q: { type: 'noul', instructions: 'x' } } },
      /"state" must be a string, or a JSON object or array, got 3/,
    ],
    ['a boolean state', { state: true, questions: { q: { type: 'noul', instructions: 'x' } } }, /got true/],
    ['a null state', { state: null, questions: { q: { type: 'noul', instructions: 'x' } } }, /got null/],
    [
      'a non-string model',
      { model: 7, state: 'x', questions: { q: { type: 'noul', instructions: 'x' } } },
      /"model" must be a string/,
    ],
  ])('answers 400 in the llama.cpp envelope for %s', async (_name, body, message) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(400);
    expect(r.json.error.type).toBe('invalid_request_error');
    expect(r.json.error.message).toMatch(message);
  });

  it('answers a question with an unknown field instead of rejecting it', async () => {
    const r = await post({ state: 'x', questions: { q: { type: 'noul', instructions: 'x', priority: 'high' } } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.answers)).toEqual(['q']);
  });

  it('accepts an array state', async () => {
    const r = await post({ state: [1, 'two'], questions: { q: { type: 'noul', instructions: 'x' } } });
    expect(r.status).toBe(200);
  });

  it('answers 501 for files and images', async () => {
    for (const key of ['files', 'images']) {
      const r = await post({ ...VALID, [key]: ['data:image/png;base64,AAAA'] });
      expect(r.status).toBe(501);
      expect(r.json.error.type).toBe('not_supported_error');
      expect(r.json.error.message).toContain(key);
    }
  });

  it('answers 413 for a body over the cap', async () => {
    const r = await post({ state: 'x'.repeat(70 * 1024), questions: VALID.questions });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe(413);
  });
});

interface RawExchange {
  /** Everything the server sent, as text. */
  readonly received: string;
  /** The error the connection met (the server reset it), or null. */
  readonly writeError: string | null;
  /** The server ended the connection gracefully (a FIN, not a reset). */
  readonly endedByServer: boolean;
}

/**
 * A raw client that writes a whole POST body before it reads anything (as a client that
 * only reads once it has sent its request does), declaring `declaredBytes` and sending
 * `sendBytes` (chunked when `declaredBytes` is null), then waits for the connection to close.
 */
function sendWholeBodyFirst(url: string, declaredBytes: number | null, sendBytes: number): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    let writeError: string | null = null;
    let endedByServer = false;
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('end', () => (endedByServer = true));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= `${e.syscall} ${e.code}`));
    socket.on('close', () => resolve({ received, writeError, endedByServer }));
    const length = declaredBytes === null ? 'transfer-encoding: chunked' : `content-length: ${declaredBytes}`;
    socket.write(
      `POST /v1/systemone HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n${length}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    for (let sent = 0; sent < sendBytes; sent += chunk.length) {
      if (declaredBytes === null) socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      if (declaredBytes === null) socket.write('\r\n');
    }
    if (declaredBytes === null) socket.write('0\r\n\r\n');
  });
}

describe('a body over the cap', () => {
  const BODY = 16 * 1024 * 1024;

  it.each([
    ['a declared length', BODY],
    ['a chunked body', null],
  ] as const)(
    'with %s: the 413 is read by a client that sends the whole body first, then the connection ends gracefully',
    async (_, declared) => {
      const r = await sendWholeBodyFirst(server.url, declared, BODY);
      expect(r.writeError).toBeNull();
      expect(r.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.received.toLowerCase()).toContain('connection: close');
      expect(r.received).toContain('"message":"request body larger than 65536 bytes"');
      expect(r.endedByServer).toBe(true);
    },
  );

  it('drops the connection when the rest of the body is not sent within the drain time', async () => {
    const s = await startReferenceServer({ port: 0, priorTable: null, maxBodyBytes: 1024, refusedBodyDrainMs: 100 });
    try {
      // 1 GiB declared, 4 KiB sent and the client never ends: only the server can close.
      const r = await sendWholeBodyFirst(s.url, 1024 ** 3, 4096);
      expect(r.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.writeError).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('drops the connection once more than the drain bound has been thrown away', async () => {
    const s = await startReferenceServer({
      port: 0,
      priorTable: null,
      maxBodyBytes: 1024,
      refusedBodyDrainBytes: 1024 * 1024,
    });
    try {
      const r = await sendWholeBodyFirst(s.url, BODY, BODY);
      expect(r.received).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.writeError).toMatch(/^(read|write) (EPIPE|ECONNRESET)$/);
    } finally {
      await s.close();
    }
  });
});

describe('other routes', () => {
  it('serves /health', async () => {
    const r = await fetch(`${server.url}/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
  });

  it('lists the built-in models as decision models, default first', async () => {
    const body = (await (await fetch(`${server.url}/v1/models?model=x`)).json()) as any;
    expect(body.data.map((m: any) => m.id)).toEqual(['heuristic', 'prior', 'uniform', 'zero', 'judge']);
    for (const m of body.data) expect(m.architecture.output_modalities).toEqual(['decisions']);
  });

  it('answers 404 JSON for an unknown route and 405 for a wrong method', async () => {
    const nf = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as any).error.code).toBe(404);
    const wrong = await fetch(`${server.url}/v1/systemone`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const wrong2 = await fetch(`${server.url}/health`, { method: 'DELETE' });
    expect(wrong2.status).toBe(405);
  });

  it('moves the /metrics counters truthfully', async () => {
    const scrape = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
      return {
        tokens: value('llamacpp:prompt_tokens_total'),
        decodes: value('llamacpp:n_decode_total'),
        processing: value('llamacpp:requests_processing'),
        deferred: value('llamacpp:requests_deferred'),
        busy: value('llamacpp:n_busy_slots_per_decode'),
      };
    };
    const before = await scrape();
    const answered = await post(VALID);
    await post({ state: 3, questions: {} });
    const after = await scrape();
    expect(after.decodes - before.decodes).toBe(1);
    expect(after.tokens - before.tokens).toBe(answered.json.usage.input_tokens);
    expect(after.processing).toBe(0);
    expect(after.deferred).toBe(0);
    expect(after.busy).toBeGreaterThanOrEqual(1);
  });

  it('answers /metrics with 501 when metrics are off', async () => {
    const off = await startReferenceServer({ port: 0, priorTable: null });
    const r = await fetch(`${off.url}/metrics`);
    expect(r.status).toBe(501);
    await off.close();
  });
});

describe('slots and faults', () => {
  it('defers requests beyond the slots and reports them as gauges', async () => {
    const s = await startReferenceServer({
      port: 0,
      priorTable: null,
      slots: 1,
      metrics: true,
      // Long enough that all three arrive while the first is still decoding, on a busy machine too.
      faults: { latencyMs: 1000 },
    });
    const inflight = [
      post(VALID, s.url),
      post({ ...VALID, model: 'uniform' }, s.url),
      post({ ...VALID, model: 'zero' }, s.url),
    ];
    // Waits for the three to arrive rather than for a fixed time.
    await vi.waitFor(() => expect(s.metrics()).toMatchObject({ requestsProcessing: 1, requestsDeferred: 2 }), {
      timeout: 2500,
      interval: 10,
    });
    await Promise.all(inflight);
    expect(s.metrics()).toMatchObject({
      requestsProcessing: 0,
      requestsDeferred: 0,
      decodeTotal: 3,
      busySlotsPerDecode: 1,
    });
    await s.close();
  });

  it('draws the same faults for the same seed, whatever the order', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => ({ ...VALID, state: { id: `case-${i}` } }));
    const statuses = async (seed: number, order: number[]) => {
      const s = await startReferenceServer({
        port: 0,
        priorTable: null,
        faults: { seed, failRate: 0.5, failStatus: 500 },
      });
      const out: number[] = [];
      for (const i of order) out[i] = (await post(bodies[i]!, s.url)).status;
      await s.close();
      return out;
    };
    const forward = Array.from({ length: 40 }, (_, i) => i);
    const a = await statuses(7, forward);
    const b = await statuses(7, [...forward].reverse());
    expect(b).toEqual(a);
    expect(a.filter((x) => x === 500).length).toBeGreaterThan(5);
    expect(a.filter((x) => x === 200).length).toBeGreaterThan(5);
    expect(await statuses(8, forward)).not.toEqual(a);
  });

  it('targets chosen cases by a rule on the parsed request', async () => {
    const s = await startReferenceServer({
      port: 0,
      priorTable: null,
      faults: {
        rule: (r) =>
          typeof r.state === 'object' && (r.state as { id?: string }).id === 'victim'
            ? { kind: 'status', status: 502 }
            : undefined,
      },
    });
    expect((await post({ ...VALID, state: { id: 'victim' } }, s.url)).status).toBe(502);
    expect((await post({ ...VALID, state: { id: 'bystander' } }, s.url)).status).toBe(200);
    await s.close();
  });

  it('refuses an unknown default model', async () => {
    await expect(startReferenceServer({ port: 0, model: 'laya', priorTable: null })).rejects.toThrow(
      /unknown model "laya": the reference server knows heuristic, prior, uniform, zero, judge/,
    );
  });
});
