import http from 'node:http';
import https from 'node:https';
import type { HttpTransport, TransportRequest, TransportResponse } from './http-transport.js';
import { startExchange } from './http-transport.js';

export interface NodeHttpTransportOptions {
  /** Keep-alive sockets per origin (default 8): size it to the request concurrency. */
  readonly connections?: number;
}

/**
 * node:http(s) with a keep-alive Agent per scheme: the dependency-free alternative to the
 * default undici transport (it needs more client CPU per request on loopback: BENCHMARKS.md,
 * "System One client throughput"). The body is read chunk by chunk and the socket destroyed
 * as soon as the cap is passed, so an oversized body is never buffered whole.
 */
export function createNodeHttpTransport(options: NodeHttpTransportOptions = {}): HttpTransport {
  const connections = Math.max(1, Math.floor(options.connections ?? 8));
  const agentOptions = {
    keepAlive: true,
    maxSockets: connections,
    maxFreeSockets: connections,
    scheduling: 'lifo' as const,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  return {
    request(r: TransportRequest): Promise<TransportResponse> {
      return new Promise<TransportResponse>((resolve, reject) => {
        let req: http.ClientRequest | null = null;
        const exchange = startExchange(r, resolve, reject, () => req?.destroy());
        if (exchange === null) return;
        const secure = r.url.protocol === 'https:';
        const headers: Record<string, string | number> = { ...r.headers };
        if (r.body !== null) headers['content-length'] = r.body.byteLength;
        req = (secure ? https : http).request(
          {
            protocol: r.url.protocol,
            hostname: r.url.hostname.replace(/^\[|\]$/g, ''),
            port: r.url.port === '' ? undefined : Number(r.url.port),
            path: `${r.url.pathname}${r.url.search}`,
            method: r.method,
            headers,
            agent: secure ? httpsAgent : httpAgent,
          },
          (res) => {
            if (exchange.failIfDeclaredOverCap(res.headers['content-length'])) return;
            res.on('data', (chunk: Buffer) => exchange.addChunk(chunk));
            res.on('end', () => exchange.finish(res.statusCode ?? 0, res.headers));
            res.on('error', (err) => exchange.fail(err));
            res.on('close', () => {
              if (!res.complete)
                exchange.fail(
                  Object.assign(new Error('connection closed before the response ended'), { code: 'ECONNRESET' }),
                );
            });
          },
        );
        req.on('error', (err) => exchange.fail(err));
        req.end(r.body ?? undefined);
      });
    },
    async close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
