/** How the reference server answers: JSON bodies and errors, a 413 that waits for the body, and slow or huge bodies on purpose. */
import type http from 'node:http';
import { discardRest } from './request-body.js';
import type { ServerMetrics } from './metrics.js';
import { refusalStatus, type ServerContext } from './server-context.js';

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

export function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message, type: ERROR_TYPES[status] ?? 'server_error' } });
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** A JSON body whole; nothing when the response was already sent or its connection is gone. */
export function sendJson(
  metrics: ServerMetrics,
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  metrics.onResponse(status);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

export function sendError(
  metrics: ServerMetrics,
  res: http.ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(metrics, res, status, errorBody(status, message), headers);
}

/**
 * The 413 is sent whole at once, but the response ends (and the connection closes) only
 * once the rest of the body has been read and thrown away: closing under a client still
 * sending resets the connection, and the client loses the answer it was sent (EPIPE).
 */
export async function refuseOversized(
  context: ServerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (res.destroyed || res.headersSent) return;
  const status = refusalStatus(context, 413);
  const body = errorBody(status, `request body larger than ${context.maxBodyBytes} bytes`);
  context.metrics.onResponse(status);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  });
  res.write(body);
  const ended = await discardRest(req, context.refusedBodyDrainBytes, context.refusedBodyDrainMs);
  if (ended) res.end();
}

/** A 200 whose body comes `chunkBytes` at a time, `intervalMs` apart. */
export async function drip(
  metrics: ServerMetrics,
  res: http.ServerResponse,
  body: string,
  chunkBytes: number,
  intervalMs: number,
): Promise<void> {
  const buf = Buffer.from(body);
  metrics.onResponse(200);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(buf.length) });
  for (let i = 0; i < buf.length && !res.destroyed; i += chunkBytes) {
    res.write(buf.subarray(i, i + chunkBytes));
    await sleep(intervalMs);
  }
  if (!res.destroyed) res.end();
}

/** A 200 with a body of about `bytes` bytes (spaces), written as the client reads it. */
export async function oversize(metrics: ServerMetrics, res: http.ServerResponse, bytes: number): Promise<void> {
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
}

/** True for GET and HEAD; any other method gets a 405 naming GET, and false. */
export function isGet(
  metrics: ServerMetrics,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  sendError(metrics, res, 405, `${req.method} is not allowed on ${path} (use GET)`, { allow: 'GET' });
  return false;
}
