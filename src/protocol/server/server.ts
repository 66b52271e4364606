import { UsageError } from '../../core/errors.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DecidekitError } from '../../core/errors.js';
import type { Question } from '../../core/question.js';
import { answersOf, assertNever } from '../../core/question.js';
import type { FaultAction, FaultOptions, MalformedVariant } from './faults.js';
import { actionApplies, drawFaults, targetedAction } from './faults.js';
import { createBuiltInModels, BUILT_IN_MODEL_NAMES, DEFAULT_MODEL, type DecisionModel } from './models/index.js';
import type { PriorTable } from './models/prior.js';
import { loadPriorTable } from './models/prior-file.js';
import { parseDecideRequest, type AcceptedDecideRequest } from '../wire/parse-decide-request.js';
import { hashString } from '../../core/seeded-random.js';
import { argmaxFirst } from '../../core/decision-score.js';
import { createServerMetrics, renderPrometheusText, type ServerMetricsSnapshot } from './metrics.js';
import {
  UNASKED_QUESTION_ID,
  applyRobustnessViolations,
  changesAnswers,
  createViolationState,
  renderViolatedAnswer,
  type Violation,
  type ViolationState,
} from './violations.js';

export interface ReferenceServerOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string | undefined;
  /** Port (default 0: a free port). */
  readonly port?: number | undefined;
  /**
   * The model served (default `heuristic`). Without `router`, every request is answered by
   * it and the body's `model` is ignored, as a single-model llama-server does.
   */
  readonly model?: string | undefined;
  /**
   * Router mode (default false): the body's `model` picks among the built-in models, `model`
   * above answers requests that name none, and an unknown name is a 400 naming the known ones.
   */
  readonly router?: boolean | undefined;
  /** Serve `GET /metrics` (default false: 501 like llama.cpp without `--metrics`). */
  readonly metrics?: boolean | undefined;
  /** Prior file for the `prior` model (default: the package's data/typed-decisions-sample/prior.json when present). */
  readonly priorFile?: string | undefined;
  /** A parsed prior table; wins over `priorFile` (library use and tests). */
  readonly priorTable?: PriorTable | null | undefined;
  /** Seeded fault injection (default none). */
  readonly faults?: FaultOptions | undefined;
  /** Protocol rules to break on purpose, one each (default none): targets for `decidekit probe`. */
  readonly violations?: readonly Violation[] | undefined;
  /** Request body cap; larger bodies get 413 (default 8 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Requests answered at once; more wait as "deferred" (default 16). */
  readonly slots?: number | undefined;
  /** How long `close()` lets in-flight requests finish before dropping them (default 1000 ms). */
  readonly closeGraceMs?: number | undefined;
  /**
   * After a 413 the rest of the refused body is read and thrown away before the connection
   * closes, so a client still sending it can read the answer; past this many bytes (default
   * 64 MiB) or `refusedBodyDrainMs` (default 10 s) the connection is dropped instead.
   */
  readonly refusedBodyDrainBytes?: number | undefined;
  readonly refusedBodyDrainMs?: number | undefined;
}

export interface ReferenceServer {
  /** Base URL, e.g. `http://127.0.0.1:8084`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The model served (the default one in router mode). */
  readonly model: string;
  readonly router: boolean;
  readonly models: readonly string[];
  /** Things the operator should know (e.g. "no prior file: the prior model answers uniformly"). */
  readonly notes: readonly string[];
  /** The llama.cpp-style counters now. */
  metrics(): ServerMetricsSnapshot;
  /** Stops accepting, lets in-flight requests finish (up to the grace), then closes every connection. */
  close(): Promise<void>;
}

export const DEFAULT_SERVER_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
export const DEFAULT_REFUSED_BODY_DRAIN_MS = 10_000;
/** Distinct request bodies remembered for per-body fault draws; the memory is cleared past this. */
const MAX_REMEMBERED_BODIES = 100_000;

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'server_error',
  501: 'not_supported_error',
  502: 'server_error',
  503: 'unavailable_error',
  504: 'server_error',
};
const FORCED_MESSAGES: Readonly<Record<number, string>> = {
  404: 'File Not Found',
  405: 'Method Not Allowed',
  429: 'Too many requests (injected fault)',
  500: 'Internal server error (injected fault)',
  501: 'This model is not a decision model',
  503: 'Loading model',
};

/** `usage.input_tokens`: an estimate, ceil(UTF-8 bytes of state JSON + questions JSON / 4). */
export function estimateInputTokens(state: string | object, rawQuestions: unknown): number {
  const bytes = Buffer.byteLength(JSON.stringify(state)) + Buffer.byteLength(JSON.stringify(rawQuestions) ?? '');
  return Math.ceil(bytes / 4);
}

function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, type: ERROR_TYPES[status] ?? 'server_error' } });
}

/** One wire answer; written key by key so option order survives integer-like names. */
export function renderWireAnswer(q: Question, d: readonly number[]): string {
  switch (q.type) {
    case 'noul':
      return `{"type":"noul","noul":${d[0]}}`;
    case 'choice': {
      const top = argmaxFirst(d);
      const probs = q.options.map((o, i) => `${JSON.stringify(o)}:${d[i]}`).join(',');
      return `{"type":"choice","choice":${JSON.stringify(q.options[top])},"probabilities":{${probs}},"confidence":${d[top]}}`;
    }
    case 'score': {
      const names = answersOf(q);
      let mean = 0;
      for (let i = 0; i < d.length; i++) mean += i * d[i]!;
      const legend = q.levels.map((l, i) => `"${i}":${JSON.stringify(l)}`).join(',');
      const probs = names.map((n, i) => `"${n}":${d[i]}`).join(',');
      return `{"type":"score","score":${mean},"legend":{${legend}},"probabilities":{${probs}},"confidence":${d[argmaxFirst(d)]}}`;
    }
    default:
      return assertNever(q);
  }
}

/** A deliberately broken version of the first answer, for fault injection. */
function breakAnswer(variant: MalformedVariant, q: Question, d: readonly number[]): string | null {
  if (q.type === 'noul') {
    if (variant === 'bad_sum' || variant === 'out_of_range') return '{"type":"noul","noul":1.5}';
    if (variant === 'non_number') return '{"type":"noul","noul":"0.5"}';
    return null;
  }
  const names = answersOf(q);
  const value = (i: number) =>
    variant === 'bad_sum'
      ? '0.9'
      : variant === 'out_of_range' && i === 0
        ? '-0.2'
        : variant === 'non_number' && i === 0
          ? '"NaN"'
          : String(d[i]);
  return `{"type":"${q.type}","probabilities":{${names.map((n, i) => `${JSON.stringify(n)}:${value(i)}`).join(',')}}}`;
}

function renderResponse(
  model: string,
  request: AcceptedDecideRequest,
  dists: readonly (readonly number[])[],
  inputTokens: number,
  malformed: MalformedVariant | null,
  violations: ViolationState | null,
): string {
  const on = violations?.on;
  const rewritten = on !== undefined && changesAnswers(on);
  const answers = request.questions.map(([id, q], i) => {
    let text = rewritten ? renderViolatedAnswer(on, q, dists[i]!, i) : renderWireAnswer(q, dists[i]!);
    if (i === 0 && malformed !== null) text = breakAnswer(malformed, q, dists[i]!) ?? text;
    return `${JSON.stringify(id)}:${text}`;
  });
  if (malformed === 'missing_answer') answers.shift();
  if (on?.has('missing-answer')) answers.pop();
  if (on?.has('extra-answer')) answers.push(`${JSON.stringify(UNASKED_QUESTION_ID)}:{"type":"noul","noul":0.5}`);
  const usage = `"usage":{"input_tokens":${inputTokens},"output_tokens":${on?.has('output-tokens') ? 1 : 0}}`;
  if (malformed === 'not_json') return `{"model":${JSON.stringify(model)},"answers":{${answers.join(',')}`;
  if (malformed === 'not_object') return `[{"answers":{${answers.join(',')}}}]`;
  if (malformed === 'no_answers') return `{"model":${JSON.stringify(model)},${usage}}`;
  return `{"model":${JSON.stringify(model)},"answers":{${answers.join(',')}},${usage}}`;
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** Reads a request body up to `max` bytes; null when it is larger (the rest is not read). */
function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > max) {
        over = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/**
 * Reads the rest of a refused body and throws it away, at most `maxBytes` within `maxMs`;
 * resolves true once the body ended, false when the connection closed or was dropped past
 * either bound.
 */
function discardRest(req: http.IncomingMessage, maxBytes: number, maxMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let discarded = 0;
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      resolve(ended);
    };
    const drop = () => {
      settle(false);
      req.socket.destroy();
    };
    const timer = setTimeout(drop, maxMs);
    timer.unref();
    req.on('data', (c: Buffer) => {
      discarded += c.length;
      if (discarded > maxBytes) drop();
    });
    req.once('end', () => settle(true));
    req.once('close', () => settle(false));
    req.resume();
  });
}

/**
 * Starts the reference System One server (node:http): `POST /v1/systemone` answered by a
 * built-in model (in router mode the body's `model` picks one), `GET /health`,
 * `GET /v1/models`, `GET /metrics` when enabled, with optional seeded faults.
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const defaultModel = options.model ?? DEFAULT_MODEL;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_SERVER_MAX_BODY_BYTES;
  const slots = Math.max(1, Math.floor(options.slots ?? 16));
  const faults: FaultOptions = options.faults ?? {};
  const faulty = options.faults !== undefined;
  const notes: string[] = [];
  let priorTable: PriorTable | null;
  if (options.priorTable !== undefined) priorTable = options.priorTable;
  else {
    const loaded = loadPriorTable(options.priorFile);
    priorTable = loaded.table;
    if (loaded.note !== null) notes.push(loaded.note);
  }
  const models = createBuiltInModels(priorTable);
  if (!models.has(defaultModel)) {
    throw new DecidekitError(
      'unknown_model',
      `unknown model ${JSON.stringify(defaultModel)}: the reference server knows ${BUILT_IN_MODEL_NAMES.join(', ')}`,
    );
  }
  const router = options.router === true;
  const modelNames = router
    ? [defaultModel, ...BUILT_IN_MODEL_NAMES.filter((n) => n !== defaultModel)]
    : [defaultModel];
  const violations =
    (options.violations ?? []).length > 0 ? createViolationState(options.violations!, faults.seed) : null;
  /** The status of a refused request: a 500 under `500-on-invalid`. */
  const refusal = (status: number) => (violations?.on.has('500-on-invalid') ? 500 : status);
  const metrics = createServerMetrics();
  const seen = new Map<number, number>();
  let busy = 0;
  let inflight = 0;
  const waiting: Array<() => void> = [];

  const acquire = async () => {
    if (busy < slots) busy++;
    else {
      const p = new Promise<void>((resolve) => waiting.push(resolve));
      metrics.setSlots(busy, waiting.length);
      await p;
    }
    metrics.setSlots(busy, waiting.length);
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy--;
    metrics.setSlots(busy, waiting.length);
  };

  const send = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.headersSent) return;
    metrics.onResponse(status);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    });
    res.end(body);
  };
  const sendError = (res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    send(res, status, errorBody(status, message), headers);

  /**
   * The 413 is sent whole at once, but the response ends (and the connection closes) only
   * once the rest of the body has been read and thrown away: closing under a client still
   * sending resets the connection, and the client loses the answer it was sent (EPIPE).
   */
  const refuseOversized = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (res.destroyed || res.headersSent) return;
    const status = refusal(413);
    const body = errorBody(status, `request body larger than ${maxBodyBytes} bytes`);
    metrics.onResponse(status);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
    res.write(body);
    const ended = await discardRest(
      req,
      options.refusedBodyDrainBytes ?? DEFAULT_REFUSED_BODY_DRAIN_BYTES,
      options.refusedBodyDrainMs ?? DEFAULT_REFUSED_BODY_DRAIN_MS,
    );
    if (ended) res.end();
  };

  const drip = async (res: http.ServerResponse, body: string, chunkBytes: number, intervalMs: number) => {
    const buf = Buffer.from(body);
    metrics.onResponse(200);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(buf.length) });
    for (let i = 0; i < buf.length && !res.destroyed; i += chunkBytes) {
      res.write(buf.subarray(i, i + chunkBytes));
      await sleep(intervalMs);
    }
    if (!res.destroyed) res.end();
  };

  const oversize = async (res: http.ServerResponse, bytes: number) => {
    metrics.onResponse(200);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"answers":{},"padding":"');
    for (let sent = 0; sent < bytes && !res.destroyed; sent += chunk.length) {
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    if (!res.destroyed) res.end('"}');
  };

  const decide = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const text = await readBody(req, maxBodyBytes);
    if (text === null) {
      await refuseOversized(req, res);
      return;
    }
    if (faults.forceStatus !== undefined) {
      const s = faults.forceStatus;
      sendError(
        res,
        s,
        FORCED_MESSAGES[s] ?? `forced status ${s}`,
        s === 429 || s === 503 ? { 'retry-after': faults.retryAfter ?? '1' } : {},
      );
      return;
    }
    const parsed = parseDecideRequest(text);
    let action: FaultAction | undefined;
    let malformed: MalformedVariant | null = null;
    let latencyMs = 0;
    if (faulty) {
      const key = hashString(text);
      const occurrence = seen.get(key) ?? 0;
      if (seen.size >= MAX_REMEMBERED_BODIES) seen.clear();
      seen.set(key, occurrence + 1);
      const draw = drawFaults(faults, text, occurrence);
      action = parsed.ok && faults.rule ? faults.rule(parsed.request) : undefined;
      action ??= targetedAction(faults, text);
      if (action !== undefined && !actionApplies(action, occurrence)) action = undefined;
      latencyMs = draw.latencyMs;
      if (action === undefined) {
        if (draw.drop) action = { kind: 'drop' };
        else if (draw.fail) action = { kind: 'status', status: faults.failStatus ?? 500 };
        else if (draw.malformed !== null) malformed = draw.malformed;
      }
    }
    if (action !== undefined) {
      switch (action.kind) {
        case 'status': {
          const s = action.status;
          const retryAfter = action.retryAfter ?? (s === 429 || s === 503 ? (faults.retryAfter ?? '1') : undefined);
          sendError(
            res,
            s,
            FORCED_MESSAGES[s] ?? `injected status ${s}`,
            retryAfter === undefined ? {} : { 'retry-after': retryAfter },
          );
          return;
        }
        case 'drop':
          req.socket.destroy();
          return;
        case 'oversize':
          await oversize(res, action.bytes);
          return;
        case 'malformed':
          malformed = action.variant ?? 'bad_sum';
          break;
        case 'delay':
          latencyMs += action.ms;
          break;
        default:
          assertNever(action);
      }
    }
    if (!parsed.ok) {
      sendError(res, parsed.status === 400 ? refusal(400) : parsed.status, parsed.message);
      return;
    }
    if (violations?.on.has('stale-cache') && violations.last?.body === text) {
      send(res, 200, violations.last.response);
      return;
    }
    const name = router ? (parsed.request.model ?? defaultModel) : defaultModel;
    const model: DecisionModel | undefined = models.get(name);
    if (model === undefined) {
      sendError(res, 400, `unknown model ${JSON.stringify(name)}: this server serves ${modelNames.join(', ')}`);
      return;
    }
    await acquire();
    try {
      await sleep(latencyMs);
      if (res.destroyed) return;
      const answered = model.answer(parsed.request.state, parsed.request.questions);
      const dists =
        violations === null ? answered : applyRobustnessViolations(violations, parsed.request.questions, answered);
      const inputTokens = estimateInputTokens(parsed.request.state, parsed.request.rawQuestions);
      metrics.onDecode(inputTokens);
      const body = renderResponse(name, parsed.request, dists, inputTokens, malformed, violations);
      if (violations?.on.has('stale-cache')) violations.last = { body: text, response: body };
      if ((faults.dripIntervalMs ?? 0) > 0)
        await drip(res, body, Math.max(1, faults.dripBytes ?? 16), faults.dripIntervalMs!);
      else send(res, 200, body);
    } finally {
      release();
    }
  };

  const route = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    metrics.onRequest();
    const path = (req.url ?? '/').split('?')[0]!;
    const get = (handler: () => void) =>
      req.method === 'GET' || req.method === 'HEAD'
        ? handler()
        : sendError(res, 405, `${req.method} is not allowed on ${path} (use GET)`, { allow: 'GET' });
    switch (path) {
      case '/v1/systemone':
        if (req.method !== 'POST') {
          sendError(res, 405, `${req.method} is not allowed on /v1/systemone (use POST)`, { allow: 'POST' });
          return;
        }
        await decide(req, res);
        return;
      case '/health':
        if (violations?.on.has('no-health')) return sendError(res, 404, 'File Not Found');
        return get(() => send(res, 200, '{"status":"ok"}'));
      case '/v1/models':
        return get(() =>
          send(
            res,
            200,
            JSON.stringify({
              object: 'list',
              data: modelNames.map((id) => ({
                id,
                object: 'model',
                owned_by: 'decidekit',
                created: 0,
                meta: { default: id === defaultModel, description: models.get(id)!.description },
                architecture: {
                  input_modalities: ['text'],
                  output_modalities: violations?.on.has('models-without-decisions') ? ['text'] : ['decisions'],
                },
              })),
            }),
          ),
        );
      case '/metrics':
        return get(() => {
          if (!options.metrics) {
            sendError(res, 501, 'This server does not support metrics endpoint. Start it with `--metrics`');
            return;
          }
          const body = renderPrometheusText(metrics.snapshot());
          metrics.onResponse(200);
          res.writeHead(200, {
            'content-type': 'text/plain; version=0.0.4; charset=utf-8',
            'content-length': String(Buffer.byteLength(body)),
          });
          res.end(body);
        });
      default:
        sendError(res, 404, 'File Not Found');
    }
  };

  const server = http.createServer((req, res) => {
    inflight++;
    res.on('close', () => void inflight--);
    route(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendError(res, 500, `internal error: ${(err as Error).message ?? String(err)}`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${host}:${options.port ?? 0}`;
      if (err.code === 'EADDRINUSE')
        reject(
          new UsageError(`port ${options.port} on ${host} is in use: pick another with --port (0 picks a free one)`),
        );
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'EACCES')
        reject(new UsageError(`cannot listen on ${where} (${err.code}): check --host and --port`));
      else reject(err);
    });
    server.listen(options.port ?? 0, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    model: defaultModel,
    router,
    models: modelNames,
    notes,
    metrics: () => metrics.snapshot(),
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const deadline = Date.now() + (options.closeGraceMs ?? 1000);
        while (inflight > 0 && Date.now() < deadline) await sleep(10);
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
