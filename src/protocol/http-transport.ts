import http from 'node:http';
import https from 'node:https';

export interface TransportRequest {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
  /** Aborts the request and the body read. */
  readonly signal: AbortSignal;
  /** The body read stops (and the connection is dropped) once this many bytes arrived. */
  readonly maxBodyBytes: number;
}

export interface TransportResponse {
  readonly status: number;
  /** Header value by lower-case name (first value when repeated). */
  header(name: string): string | undefined;
  readonly body: Buffer;
}

/** Thrown by a transport when a response body passes `maxBodyBytes`. */
export class BodyOverCapError extends Error {
  override readonly name = 'BodyOverCapError';
  constructor(readonly bytesRead: number) {
    super(`response body over cap after ${bytesRead} bytes`);
  }
}

/** How the client sends HTTP; tests or embedders may pass their own. */
export interface HttpTransport {
  request(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface NodeHttpTransportOptions {
  /** Keep-alive sockets per origin (default 8): size it to the request concurrency. */
  readonly connections?: number;
}

/**
 * node:http(s) with a keep-alive Agent per scheme: the dependency-free alternative to the
 * default undici transport (it measured about 1.5x the CPU per request on loopback, see
 * docs/notes/protocol.md). The body is read chunk by chunk and the socket destroyed as
 * soon as the cap is passed, so an oversized body is never buffered whole.
 */
export function createNodeHttpTransport(options: NodeHttpTransportOptions = {}): HttpTransport {
  const connections = Math.max(1, Math.floor(options.connections ?? 8));
  const agentOptions = { keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: 'lifo' as const };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  return {
    request(r: TransportRequest): Promise<TransportResponse> {
      return new Promise<TransportResponse>((resolve, reject) => {
        const secure = r.url.protocol === 'https:';
        const headers: Record<string, string | number> = { ...r.headers };
        if (r.body !== null) headers['content-length'] = r.body.byteLength;
        const auth = r.url.username === '' ? undefined : `${decodeURIComponent(r.url.username)}:${decodeURIComponent(r.url.password)}`;
        const req = (secure ? https : http).request(
          {
            protocol: r.url.protocol,
            hostname: r.url.hostname.replace(/^\[|\]$/g, ''),
            port: r.url.port === '' ? undefined : Number(r.url.port),
            path: `${r.url.pathname}${r.url.search}`,
            method: r.method,
            headers,
            agent: secure ? httpsAgent : httpAgent,
            signal: r.signal,
            ...(auth === undefined ? {} : { auth }),
          },
          (res) => {
            const declared = Number(res.headers['content-length']);
            if (Number.isFinite(declared) && declared > r.maxBodyBytes) {
              req.destroy();
              reject(new BodyOverCapError(0));
              return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > r.maxBodyBytes) {
                req.destroy();
                reject(new BodyOverCapError(size));
                return;
              }
              chunks.push(chunk);
            });
            res.on('end', () => {
              const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
              const h = res.headers;
              resolve({
                status: res.statusCode ?? 0,
                header: (name) => {
                  const v = h[name];
                  return Array.isArray(v) ? v[0] : v;
                },
                body,
              });
            });
            res.on('error', reject);
            res.on('close', () => {
              if (!res.complete) reject(Object.assign(new Error('connection closed before the response ended'), { code: 'ECONNRESET' }));
            });
          },
        );
        req.on('error', reject);
        req.end(r.body ?? undefined);
      });
    },
    async close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
