/** The GET requests decidekit sends beside the decide route: /health, /v1/models, /metrics. */
import { isRecord } from '../../core/json-value.js';
import { healthUrlFor, metricsUrlFor, modelsUrlFor, redactUrl, withoutCredentials } from '../wire/endpoint.js';
import {
  authorizedHeaders,
  bodyPreview,
  DEFAULT_MAX_BODY_BYTES,
  safeServerText,
  scrubSecrets,
  secretsOf,
} from './client.js';
import { isUnsolicitedContinueFailure, TransportTimeoutError } from './http-transport.js';
import { createNodeHttpTransport } from './node-http-transport.js';
import { HttpError, MalformedResponseError, TimeoutError, TransportError } from './errors.js';
import { llamaCppMetricsOf, parsePrometheusText, type LlamaCppMetrics } from '../wire/prometheus-text.js';

export interface GetOptions {
  /** Bearer key for servers that want one on GET routes too (llama.cpp does not for /health). */
  readonly apiKey?: string | undefined;
  /** Default 5000 ms. */
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Default globalThis.fetch (rarely-called GET helpers; the hot path uses the client's pool). */
  readonly fetch?: typeof fetch | undefined;
}

export interface HealthStatus {
  /** `ok` on 200, `loading` on 503, `error` otherwise. */
  readonly status: 'ok' | 'loading' | 'error';
  readonly httpStatus: number;
}

export interface ServedModel {
  readonly id: string;
  readonly outputModalities: readonly string[];
  /** The model lists `decisions` among its output modalities. */
  readonly decisions: boolean;
}

/** `GET url`: the status and body text whatever the status; throws only when no HTTP answer came. */
export async function getText(url: string, options: GetOptions): Promise<{ status: number; text: string }> {
  const endpoint = redactUrl(url);
  const timeoutMs = options.timeoutMs ?? 5000;
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
  // As the client does: credentials leave the URL (fetch refuses them there) and go as `Authorization`.
  const plain = withoutCredentials(url);
  const headers = authorizedHeaders(options.apiKey, plain.basicAuthorization);
  try {
    try {
      const res = await (options.fetch ?? fetch)(plain.url, { headers, signal: AbortSignal.any(signals) });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      // fetch cannot skip an interim 100 Continue it did not ask for; node:http can.
      if (!isUnsolicitedContinueFailure(err)) throw err;
      return await getThroughNodeHttp(new URL(plain.url), headers, timeoutMs, options.signal);
    }
  } catch (err) {
    if ((err as { name?: string }).name === 'TimeoutError' || err instanceof TransportTimeoutError)
      throw new TimeoutError({ endpoint, timeoutMs, elapsedMs: timeoutMs });
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    // The code and the message, as the client keeps them: the message says it in words.
    const reason =
      cause?.code !== undefined && cause.message !== undefined && !cause.message.includes(cause.code)
        ? `${cause.code}: ${cause.message}`
        : (cause?.message ?? cause?.code ?? (err as Error).message);
    const secrets = URL.canParse(url) ? secretsOf(new URL(url), options.apiKey) : [];
    throw new TransportError({ endpoint, reason: scrubSecrets(reason, secrets) }, err);
  }
}

/** One GET through a node:http connection of its own, for a server fetch cannot read. */
async function getThroughNodeHttp(
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ status: number; text: string }> {
  const transport = createNodeHttpTransport({ connections: 1 });
  try {
    const res = await transport.request({
      method: 'GET',
      url,
      headers,
      body: null,
      signal,
      timeoutMs,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    });
    return { status: res.status, text: res.body.toString('utf8') };
  } finally {
    await transport.close();
  }
}

/** `GET /health`: 200 -> ok, 503 -> loading (model still loading), anything else -> error. */
export async function getHealth(baseUrl: string, options: GetOptions = {}): Promise<HealthStatus> {
  const { status } = await getText(healthUrlFor(baseUrl), options);
  return { status: status === 200 ? 'ok' : status === 503 ? 'loading' : 'error', httpStatus: status };
}

/** `GET /v1/models`: each model with its output modalities; a decision model lists `decisions`. */
export async function listModels(baseUrl: string, options: GetOptions = {}): Promise<ServedModel[]> {
  const url = modelsUrlFor(baseUrl);
  const { status, text } = await getText(url, options);
  const endpoint = redactUrl(url);
  const secrets = secretsOf(new URL(url), options.apiKey);
  if (status !== 200) throw new HttpError({ endpoint, status }, bodyPreview(Buffer.from(text), secrets));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Deep nesting is harmless here: only `data[].id` and `output_modalities` are read.
    throw new MalformedResponseError({ endpoint, status }, 'the /v1/models body is not valid JSON');
  }
  const data = isRecord(body) ? body['data'] : undefined;
  if (!Array.isArray(data)) throw new MalformedResponseError({ endpoint, status }, '/v1/models has no "data" array');
  return data.filter(isRecord).map((m) => {
    const arch = m['architecture'];
    const raw = isRecord(arch) ? arch['output_modalities'] : undefined;
    const outputModalities = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
    return {
      id: typeof m['id'] === 'string' ? safeServerText(m['id'], secrets) : '',
      outputModalities,
      decisions: outputModalities.includes('decisions'),
    };
  });
}

/**
 * `GET /metrics` parsed for the five llama.cpp series; null when the server has no metrics
 * endpoint (404, or 501 when started without `--metrics`).
 */
export async function readMetrics(baseUrl: string, options: GetOptions = {}): Promise<LlamaCppMetrics | null> {
  return readMetricsAt(metricsUrlFor(baseUrl), options);
}

/** As `readMetrics`, from a full metrics URL (a monitor's `--metrics-url`). */
export async function readMetricsAt(url: string, options: GetOptions = {}): Promise<LlamaCppMetrics | null> {
  const { status, text } = await getText(url, options);
  if (status === 404 || status === 501) return null;
  if (status !== 200)
    throw new HttpError(
      { endpoint: redactUrl(url), status },
      bodyPreview(Buffer.from(text), secretsOf(new URL(url), options.apiKey)),
    );
  return llamaCppMetricsOf(parsePrometheusText(text));
}
