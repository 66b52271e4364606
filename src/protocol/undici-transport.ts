import { Pool } from 'undici';
import type { HttpTransport, TransportRequest, TransportResponse } from './http-transport.js';
import { BodyOverCapError } from './http-transport.js';

export interface UndiciTransportOptions {
  /** Keep-alive connections per origin (default 8): size it to the request concurrency. */
  readonly connections?: number;
}

/**
 * The default transport: an undici Pool per origin (keep-alive, no pipelining). Measured
 * at about two thirds of the CPU per request of node:http on loopback (see
 * docs/notes/protocol.md), which is what lets the client keep up with a fast server.
 * undici's own header/body timeouts are off: the client's per-attempt timer covers both.
 * The body is consumed chunk by chunk and destroyed once past the cap.
 */
export function createUndiciTransport(options: UndiciTransportOptions = {}): HttpTransport {
  const connections = Math.max(1, Math.floor(options.connections ?? 8));
  const pools = new Map<string, Pool>();
  const poolFor = (url: URL) => {
    let pool = pools.get(url.origin);
    if (pool === undefined) {
      pool = new Pool(url.origin, { connections, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
      pools.set(url.origin, pool);
    }
    return pool;
  };

  return {
    async request(r: TransportRequest): Promise<TransportResponse> {
      let headers: Record<string, string> = r.headers as Record<string, string>;
      if (r.url.username !== '' && headers['authorization'] === undefined) {
        const basic = Buffer.from(`${decodeURIComponent(r.url.username)}:${decodeURIComponent(r.url.password)}`).toString('base64');
        headers = { ...headers, authorization: `Basic ${basic}` };
      }
      const res = await poolFor(r.url).request({
        path: `${r.url.pathname}${r.url.search}`,
        method: r.method,
        headers,
        body: r.body === null ? null : (r.body as Buffer),
        signal: r.signal,
      });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > r.maxBodyBytes) {
        res.body.on('error', () => undefined); // destroy() emits an AbortError; it is expected here
        res.body.destroy();
        throw new BodyOverCapError(0);
      }
      const body = await new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > r.maxBodyBytes) {
            res.body.destroy();
            reject(new BodyOverCapError(size));
            return;
          }
          chunks.push(chunk);
        });
        res.body.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
        res.body.on('error', reject);
      });
      const h = res.headers;
      return {
        status: res.statusCode,
        header: (name) => {
          const v = h[name];
          return Array.isArray(v) ? v[0] : v;
        },
        body,
      };
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.destroy()));
      pools.clear();
    },
  };
}
