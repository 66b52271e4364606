/** `GET /health`: the server is up (a 404 under the `no-health` violation). */
import type http from 'node:http';
import { isGet, sendError, sendJson } from '../responses.js';
import type { ServerContext } from '../server-context.js';

export function serveHealth(context: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (context.violations?.on.has('no-health')) return sendError(context.metrics, res, 404, 'File Not Found');
  if (!isGet(context.metrics, req, res, '/health')) return;
  sendJson(context.metrics, res, 200, '{"status":"ok"}');
}
