/** `GET /metrics`: the llama.cpp-style counters as Prometheus text, or a 501 when not enabled (as llama.cpp without `--metrics`). */
import type http from 'node:http';
import { METRICS_FLAG } from '../../../core/command-hints.js';
import { renderPrometheusText } from '../metrics.js';
import { isGet, sendError } from '../responses.js';
import type { ServerContext } from '../server-context.js';

export function serveMetrics(context: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  const { metrics } = context;
  if (!isGet(metrics, req, res, '/metrics')) return;
  if (!context.serveMetrics) {
    sendError(metrics, res, 501, `This server does not support metrics endpoint. Start it with \`${METRICS_FLAG}\``);
    return;
  }
  const body = renderPrometheusText(metrics.snapshot());
  metrics.onResponse(200);
  res.writeHead(200, {
    'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
