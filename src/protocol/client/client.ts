import { performance } from 'node:perf_hooks';
import type { Failure, PredictedAnswers } from '../../core/typed-decisions/case-result.js';
import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import type { QuestionSet } from '../../core/question.js';
import { stripControlChars } from '../../core/safe-text.js';
import { parseStrictJson } from '../../core/strict-json.js';
import { renderDecideRequestBytes } from '../wire/decide-request.js';
import { parseDecideResponse } from '../wire/decide-response.js';
import { endpointFor, endpointIdentity, redactUrl, withoutCredentials } from '../wire/endpoint.js';
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
  RedirectError,
  isUnreachable,
} from './errors.js';
import type { HttpTransport, TransportResponse } from './http-transport.js';
import { BodyOverCapError, TransportTimeoutError } from './http-transport.js';
import { createUndiciTransport } from './undici-transport.js';
import { ClosedWhileSendingError, createEarlyAnswerTransport } from './early-answer-transport.js';
import { DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, backoffDelayMs, parseRetryAfterMs } from './retry-policy.js';
import type { RetryPolicy } from './retry-policy.js';

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_CONNECTIONS = 8;

export interface SystemOneClientOptions {
  /** Base URL of the server; the endpoint is derived by `endpointFor`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; never appears in a message, context or URL. */
  readonly apiKey?: string | undefined;
  /** Sent as the body's `model` when given. */
  readonly model?: string | undefined;
  /** Per attempt, covering the body read (default 60 000). A timeout is never retried. */
  readonly timeoutMs?: number | undefined;
  /** Retries of 429/502/503/504 (default 2). */
  readonly retries?: number | undefined;
  /** First backoff step (default 500 ms); doubles each retry. */
  readonly retryBaseDelayMs?: number | undefined;
  /** Cap on a backoff wait, `Retry-After` included (default 10 000 ms). */
  readonly retryMaxDelayMs?: number | undefined;
  /** Response body cap (default 8 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Keep-alive pool size (default 8): set it to the run's concurrency. */
  readonly connections?: number | undefined;
  /** Jitter source in [0, 1) (default Math.random). */
  readonly random?: (() => number) | undefined;
  /** Backoff wait; rejects when `signal` aborts (default: a timer). */
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Monotonic clock in ms for latency (default performance.now). */
  readonly now?: (() => number) | undefined;
  /** Wall clock in epoch ms, for `Retry-After` dates (default Date.now). */
  readonly wallClock?: (() => number) | undefined;
  /** How requests are sent (default: an undici keep-alive Pool of `connections`; `createNodeHttpTransport` needs no dependency). */
  readonly transport?: HttpTransport | undefined;
}

export interface DecideResult {
  /** Aligned with the questions and each question's answers. */
  readonly predicted: PredictedAnswers;
  readonly inputTokens: number | null;
  /**
   * The answered attempt, from sending the request to the last body byte (excluding
   * backoff waits and failed attempts, so retries do not inflate model latency).
   */
  readonly latencyMs: number;
  /** The response's `model` field, when a string. */
  readonly model: string | null;
  /** Attempts made (1 when no retry was needed). */
  readonly attempts: number;
  /** First send to last byte, retries and backoff waits included. */
  readonly totalMs: number;
}

export interface SystemOneClient {
  /** The endpoint, redacted (no credentials, query or fragment). */
  readonly endpoint: string;
  readonly identity: EndpointIdentity;
  /** One request carrying every question; throws a `SystemOneError` on any failure. */
  decide(state: string | object, questions: QuestionSet, signal?: AbortSignal): Promise<DecideResult>;
  /**
   * Sends a request body as it is (retries as `decide`) and resolves to the decoded JSON of
   * the answer, unchecked: for callers with their own answer rules (answer audits).
   */
  send(
    bodyText: string,
    signal?: AbortSignal,
  ): Promise<{ readonly body: unknown; readonly attempts: number; readonly totalMs: number }>;
  /**
   * Sends a body once (no retry) and resolves to the status and body text whatever the
   * status, secrets scrubbed: for probing how a server answers invalid requests. Throws only
   * when no HTTP answer came (timeout, transport, a body over the cap).
   */
  post(bodyText: string, signal?: AbortSignal): Promise<{ readonly status: number; readonly text: string }>;
  close(): Promise<void>;
}

/** Maps a thrown client error to a case Failure `{kind, message}` (secret-free). */
export function failureOf(error: unknown): Failure {
  if (error instanceof SystemOneError) return { kind: error.failureKind, message: error.shortMessage };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'transport', message: `unexpected error: ${message.slice(0, 200)}` };
}

/** True when the run must stop: the endpoint serves no decision model, the key is refused, or the caller aborted. */
export function isRunStopping(error: unknown): boolean {
  return error instanceof SystemOneError && error.stopsRun;
}

/**
 * A rejection that says something about this one case rather than about the run's settings:
 * a request body over the server's cap (413). Other cases may be smaller, so it never counts
 * toward stopping the run as "the first cases were all rejected the same way".
 */
export function isCaseSpecificRejection(error: unknown): boolean {
  return error instanceof RequestRejectedError && error.context.status === 413;
}

/** Time spent on the failing attempt, when the error carries it (for a failed case's latency). */
export function elapsedMsOf(error: unknown): number | null {
  if (!(error instanceof SystemOneError)) return null;
  const v = error.context.elapsedMs;
  return typeof v === 'number' ? v : null;
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Everything secret the client knows, as it could come back in a server's error body: the
 * key, URL user and password (raw, decoded, and as the Basic credential the transport sends),
 * the query string and each query value. Longest first, so a secret containing another is
 * scrubbed whole.
 */
export function secretsOf(url: URL, apiKey: string | undefined): readonly string[] {
  const out = new Set<string>();
  const add = (v: string | undefined | null) => {
    if (v && v.length >= 3) out.add(v);
  };
  add(apiKey);
  for (const part of [url.username, url.password]) {
    add(part);
    try {
      add(decodeURIComponent(part));
    } catch {
      // not percent-encoded: the raw form is enough
    }
  }
  const basic = withoutCredentials(url.href).basicAuthorization;
  if (basic !== null) add(basic.slice('Basic '.length));
  add(url.search.slice(1));
  for (const [, value] of url.searchParams) add(value);
  return [...out].sort((a, b) => b.length - a.length);
}

/** Removes every known secret, and any credential after "Bearer" or "Basic". */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out.replace(/\b(Bearer|Basic)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]');
}

const JSON_ESCAPE = /\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Decodes JSON string escapes (`\/`, `\u0026`, ...) wherever they are, so an escaped echo of a secret is recognised. */
function decodeJsonEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(JSON_ESCAPE, (_, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : SIMPLE_ESCAPES[e]!,
  );
}

/**
 * Text from a server made safe to show and store: JSON escapes decoded, control characters
 * removed (no terminal escapes), then every secret scrubbed. Apply before cutting, so a cut
 * never leaves part of a secret behind.
 */
export function safeServerText(text: string, secrets: readonly string[]): string {
  return scrubSecrets(stripControlChars(decodeJsonEscapes(text)), secrets);
}

/**
 * Collapsed, capped text of a body for messages: the whole body is made safe first, then
 * cut. A JSON object or array is quoted as the JSON it is (compact, its strings' inner
 * quotes escaped, every secret scrubbed from its keys and strings), so it reads back
 * unambiguously; any other body as safe text.
 */
export function bodyPreview(body: Uint8Array, secrets: readonly string[], max = 200): string {
  const whole = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  const json = /^\s*[[{]/.test(whole) ? parseStrictJson(whole) : null;
  const text =
    json?.ok === true
      ? stripControlChars(JSON.stringify(scrubDecoded(json.value, secrets, stripControlChars)))
      : safeServerText(whole, secrets).replace(/\s+/g, ' ').trim();
  return text.length > max ? text.slice(0, max) : text;
}

function errorDetail(body: Uint8Array, secrets: readonly string[]): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
    const err = (parsed as { error?: { message?: unknown } } | null)?.error;
    if (err && typeof err.message === 'string') return bodyPreview(Buffer.from(err.message), secrets, 120);
  } catch {
    /* not JSON: fall back to the raw text */
  }
  return bodyPreview(body, secrets, 120);
}

/** A Location header made safe: a secret may hide in it percent-encoded (`?key=sk-a%2Fb`). */
function safeLocation(location: string, secrets: readonly string[]): string {
  let decoded = location;
  try {
    decoded = decodeURIComponent(location);
  } catch {
    // not percent-encoded
  }
  return safeServerText(secrets.some((x) => decoded.includes(x)) ? decoded : location, secrets);
}

/** A decoded body with every secret scrubbed from its strings and keys, so messages quoting its values (cut or not) carry none. */
function scrubDecoded(
  value: unknown,
  secrets: readonly string[],
  clean: (text: string) => string = (text) => text,
): unknown {
  // `clean` goes first (for a quoted body: control and zero-width characters out), so a secret split by them is found.
  const scrub = (text: string) => scrubSecrets(clean(text), secrets);
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubDecoded(v, secrets, clean));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = scrubDecoded(v, secrets, clean);
    return out;
  }
  return value;
}

function transportReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : null;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** What every request of one client shares: where it goes, how and with which limits. */
interface ClientSettings {
  readonly url: URL;
  readonly endpoint: string;
  readonly apiKey: string | undefined;
  readonly secrets: readonly string[];
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly policy: RetryPolicy;
  readonly random: () => number;
  readonly sleep: NonNullable<SystemOneClientOptions['sleep']>;
  readonly now: () => number;
  readonly wallClock: () => number;
}

/**
 * The request headers: JSON both ways, and the key as `Bearer`, or else the base URL's user
 * and password as `Basic` (the two are one `Authorization` header; a key given wins).
 */
export function authorizedHeaders(
  apiKey: string | undefined,
  basicAuthorization: string | null,
  base: Record<string, string> = {},
): Record<string, string> {
  const headers = { ...base };
  if (apiKey !== undefined && apiKey !== '') headers['authorization'] = `Bearer ${apiKey}`;
  else if (basicAuthorization !== null) headers['authorization'] = basicAuthorization;
  return headers;
}

function clientSettings(options: SystemOneClientOptions): ClientSettings {
  // Credentials leave the URL before it is used or shown; they travel as `Authorization`.
  const plain = withoutCredentials(options.baseUrl);
  const url = new URL(endpointFor(plain.url));
  const apiKey = options.apiKey === '' ? undefined : options.apiKey;
  const headers = authorizedHeaders(apiKey, plain.basicAuthorization, {
    'content-type': 'application/json',
    accept: 'application/json',
  });
  return {
    url,
    endpoint: redactUrl(url.href),
    apiKey,
    secrets: secretsOf(new URL(options.baseUrl), apiKey),
    headers,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    policy: {
      retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRY_POLICY.retries)),
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    },
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
    now: options.now ?? (() => performance.now()),
    wallClock: options.wallClock ?? Date.now,
  };
}

/**
 * One POST of `body`; a failure to get any answer becomes the client error that says why.
 * A promise chained on the transport's rather than an `async` function: one promise less a request.
 */
function attempt(
  settings: ClientSettings,
  via: HttpTransport,
  body: Buffer,
  external: AbortSignal | undefined,
  attempts: number,
): Promise<{ res: TransportResponse; elapsedMs: number }> {
  const { url, headers, timeoutMs, maxBodyBytes, now } = settings;
  const t0 = now();
  let sent: Promise<TransportResponse>;
  try {
    sent = via.request({ method: 'POST', url, headers, body, signal: external, timeoutMs, maxBodyBytes });
  } catch (error) {
    return Promise.reject(attemptError(settings, error, external, attempts, now() - t0));
  }
  return sent.then(
    (res) => ({ res, elapsedMs: now() - t0 }),
    (error: unknown) => {
      throw attemptError(settings, error, external, attempts, now() - t0);
    },
  );
}

/** The client error for a POST that got no answer. */
function attemptError(
  settings: ClientSettings,
  error: unknown,
  external: AbortSignal | undefined,
  attempts: number,
  elapsedMs: number,
): SystemOneError {
  const { url, endpoint, timeoutMs, maxBodyBytes } = settings;
  if (external?.aborted) return new RequestAbortedError({ endpoint, attempts, elapsedMs }, error);
  if (error instanceof TransportTimeoutError) return new TimeoutError({ endpoint, attempts, elapsedMs, timeoutMs });
  if (error instanceof BodyOverCapError)
    return new ResponseTooLargeError({ endpoint, attempts, elapsedMs, maxBodyBytes });
  const reason = transportReason(error);
  if (isUnreachable(reason))
    return new UnreachableServerError({ endpoint, attempts, elapsedMs, reason, hostPort: url.host }, error);
  return new TransportError({ endpoint, attempts, elapsedMs, reason }, error);
}

/** The error a non-2xx answer (not retried, or out of retries) stands for. */
function statusError(
  settings: ClientSettings,
  res: TransportResponse,
  attempts: number,
  elapsedMs: number,
): SystemOneError {
  const { endpoint, secrets } = settings;
  const status = res.status;
  const context = { endpoint, status, attempts, elapsedMs };
  if (status === 400 || status === 413 || status === 422)
    return new RequestRejectedError(context, bodyPreview(res.body, secrets));
  if (status === 401 || status === 403)
    return new AuthError(
      context,
      settings.apiKey !== undefined
        ? 'key'
        : settings.headers['authorization'] !== undefined
          ? 'user and password'
          : 'nothing',
    );
  if (status === 404 || status === 405 || status === 501)
    return new UnsupportedEndpointError(context, errorDetail(res.body, secrets));
  if (status === 429) return new RateLimitedError(context);
  if (status >= 300 && status < 400) {
    const location = res.header('location');
    return new RedirectError({
      ...context,
      location: location === undefined || location === null ? null : safeLocation(location, secrets),
    });
  }
  return new HttpError(context, bodyPreview(res.body, secrets));
}

/** The JSON of a 2xx answer, with any secret it echoes scrubbed out. */
function decodeAnswer(settings: ClientSettings, res: TransportResponse, attempts: number, elapsedMs: number): unknown {
  const { endpoint, secrets } = settings;
  const text = res.body.toString('utf8');
  const json = parseStrictJson(text);
  if (!json.ok) {
    throw new MalformedResponseError(
      { endpoint, status: res.status, attempts, elapsedMs },
      json.problem === 'syntax'
        ? `the body is not valid JSON (starts ${JSON.stringify(bodyPreview(res.body, secrets, 40))})`
        : `the body: ${safeServerText(json.message, secrets)}`,
    );
  }
  if (secrets.length === 0) return json.value;
  // Reasons quote the server's values (cut to a preview): scrub them before they are cut.
  const unescaped = decodeJsonEscapes(text);
  const echoesSecret = secrets.some((x) => unescaped.includes(x));
  return echoesSecret ? scrubDecoded(json.value, secrets) : json.value;
}

/** Sends a body with retries of 429/502/503/504; resolves to the decoded JSON of a 2xx answer. */
async function exchange(
  settings: ClientSettings,
  transport: HttpTransport,
  body: Buffer,
  signal: AbortSignal | undefined,
) {
  const { endpoint, policy, now, random, sleep, wallClock } = settings;
  const start = now();
  for (let attempts = 1; ; attempts++) {
    if (signal?.aborted) throw new RequestAbortedError({ endpoint, attempts, elapsedMs: null }, signal.reason);
    const { res, elapsedMs } = await attempt(settings, transport, body, signal, attempts);
    if (res.status >= 200 && res.status < 300) {
      const decoded = decodeAnswer(settings, res, attempts, elapsedMs);
      return { decoded, status: res.status, attempts, elapsedMs, totalMs: now() - start };
    }
    if (RETRYABLE_STATUSES.has(res.status) && attempts <= policy.retries) {
      const wait = backoffDelayMs(
        attempts - 1,
        policy,
        random,
        parseRetryAfterMs(res.header('retry-after'), wallClock()),
      );
      try {
        await sleep(wait, signal);
      } catch (error) {
        throw new RequestAbortedError({ endpoint, attempts, elapsedMs }, error);
      }
      continue;
    }
    throw statusError(settings, res, attempts, elapsedMs);
  }
}

/**
 * One POST over a connection of its own, keeping an answer that came before the body was sent
 * whole. A server that answers early and closes hard can reset the connection before its
 * answer is read: one more try tells that race from a server that never answers.
 */
async function postOnce(
  settings: ClientSettings,
  oneShot: HttpTransport,
  body: Buffer,
  signal: AbortSignal | undefined,
): Promise<TransportResponse> {
  const closedWhileSending = (error: unknown): error is TransportError =>
    error instanceof TransportError && error.cause instanceof ClosedWhileSendingError;
  try {
    return (await attempt(settings, oneShot, body, signal, 1)).res;
  } catch (error) {
    if (!closedWhileSending(error)) throw error;
  }
  try {
    return (await attempt(settings, oneShot, body, signal, 2)).res;
  } catch (again) {
    if (!closedWhileSending(again)) throw again;
    const reason = `${(again.cause as Error).message}, on both of 2 tries`;
    throw new TransportError(
      { endpoint: settings.endpoint, attempts: 2, elapsedMs: again.context.elapsedMs ?? null, reason },
      again,
    );
  }
}

export function createSystemOneClient(options: SystemOneClientOptions): SystemOneClient {
  const settings = clientSettings(options);
  const { endpoint, secrets } = settings;
  const identity = endpointIdentity(settings.url.href);
  const transport =
    options.transport ?? createUndiciTransport({ connections: options.connections ?? DEFAULT_CONNECTIONS });
  // `post` sends over a connection of its own and keeps an answer that came before the body was sent whole.
  const oneShot = options.transport ?? createEarlyAnswerTransport();
  // A server names the same model in every answer: its safe text is made once, not once a request.
  let lastModel: { readonly raw: string; readonly safe: string } | null = null;
  const safeModel = (raw: string | null): string | null => {
    if (raw === null) return null;
    if (lastModel?.raw !== raw) lastModel = { raw, safe: safeServerText(raw, secrets) };
    return lastModel.safe;
  };

  return {
    endpoint,
    identity,
    async decide(state, questions, signal) {
      const body = renderDecideRequestBytes({ model: options.model, state, questions });
      const { decoded, status, attempts, elapsedMs, totalMs } = await exchange(settings, transport, body, signal);
      const parsed = parseDecideResponse(decoded, questions);
      if (!parsed.ok)
        throw new MalformedResponseError(
          { endpoint, status, attempts, elapsedMs },
          safeServerText(parsed.reason, secrets),
        );
      const { predicted, inputTokens } = parsed.value;
      return { predicted, inputTokens, model: safeModel(parsed.value.model), latencyMs: elapsedMs, attempts, totalMs };
    },
    async send(bodyText, signal) {
      const { decoded, attempts, totalMs } = await exchange(settings, transport, Buffer.from(bodyText, 'utf8'), signal);
      return { body: decoded, attempts, totalMs };
    },
    async post(bodyText, signal) {
      const res = await postOnce(settings, oneShot, Buffer.from(bodyText, 'utf8'), signal);
      return { status: res.status, text: scrubSecrets(res.body.toString('utf8'), secrets) };
    },
    close: async () => {
      await transport.close();
      if (oneShot !== transport) await oneShot.close();
    },
  };
}
